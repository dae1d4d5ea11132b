/**
 * The values the original article published, and ONLY here: a reference to
 * compare against on the reproduction page, never a constant in the code and
 * never typed into prose. Transcribed from the original article.
 *
 * Each entry names the id of OUR number in numbers.json (dotted path, unit in
 * the last part), the published value in the unit of our number, where the
 * article prints it, and optionally why ours may differ. An id missing from
 * numbers.json shows as "not yet reproduced".
 *
 * To add one: append an entry; keep `unit` equal to the unit our experiment
 * reports (convert the published value if needed, e.g. 1.14 s → 1140 ms).
 * `where` names the outline heading (src/outline.ts) of the article section
 * that prints the value, and the article's figure when a figure shows it; the
 * page cites the article's own heading and links the row to our section.
 * Notes are prose shown on the site: written anew, digits only as
 * src/site/prose.ts allows (test/reproduction.test.ts checks both).
 */
import { heading, type ArticleFigure, type HeadingId } from './outline.ts';

/** Where the article prints a value: a heading of the outline, the article's figure, another heading that repeats it. */
export interface Where {
  in: HeadingId;
  figure?: ArticleFigure;
  also?: HeadingId;
}

/** The citation the reproduction page prints: the article's own headings and figure number, e.g. `The first wave; Figure 2`. */
export function whereText(w: Where): string {
  // The site's own section titles, the ones a reader of this site finds (the original article's differ).
  const cite = (id: HeadingId) => heading(id).title;
  return [cite(w.in), w.figure !== undefined ? `Figure ${w.figure}` : null, w.also ? cite(w.also) : null].filter((x) => x !== null).join('; ');
}

export interface Published {
  /** Id of our number in numbers.json. */
  id: string;
  /** The article's value, in `unit`. */
  published: number;
  unit: string;
  /** Where the article prints it. */
  where: Where;
  /** Why ours may differ (shown in the 'why' column). */
  note?: string;
  /** Decimals to print the published value with (default: as many as it was written with, at most three). */
  digits?: number;
  /**
   * The step of the article's last printed digit, in `unit`, when it is not
   * 10^−digits (a value printed in another unit: 1.14 s stored as 1140 ms has
   * a step of 10 ms). The printed value covers half a step either side.
   */
  step?: number;
  /** Printed as approximate ("about 20 ms"): it covers a whole step either side, not half. */
  approx?: true;
  /**
   * What our number is, when not simulated: `analytic` (a formula, or an
   * exact count on fixed input) or `setting` (an input we echo: shown, never
   * counted as reproduced). By default a number from an experiment that runs
   * the simulator is `simulated`, and one from order-statistics, derivations,
   * constants or tokens is `analytic`.
   */
  kind?: 'analytic' | 'setting';
  /** A share of runs published as a count: out of how many runs (shown as `k of n`). */
  of?: number;
  /**
   * Set only when our pipeline has no number for this value yet: what is
   * missing and how it would be computed (shown in the 'why' column; the row
   * reads "not yet reproduced"). Ignored once the id exists in numbers.json.
   */
  missing?: string;
}

/** Decimals of a published value as written: 6.3 → 1, 10.172 → 3, 1105 → 0 (at most three). */
export function publishedDigits(p: Published): number {
  if (p.digits !== undefined) return p.digits;
  const s = String(p.published);
  const i = s.indexOf('.');
  return i < 0 || s.includes('e') ? 0 : Math.min(3, s.length - i - 1);
}

/**
 * What the printed value covers, in `unit`: 0.42 covers [0.415, 0.425) (half
 * a step of the last printed digit either side, upper end open), "about 20"
 * covers [19, 21] (a whole step, both ends in). A value of ours inside it
 * agrees with the article as far as the article can tell.
 */
export function printedRange(p: Published): { lo: number; hi: number; hiOpen: boolean } {
  const step = p.step ?? 10 ** -publishedDigits(p);
  const half = p.approx ? step : step / 2;
  return { lo: p.published - half, hi: p.published + half, hiOpen: !p.approx };
}

/** Is `v` (in the published unit) inside the printed range of `p`? */
export function withinPrinted(p: Published, v: number): boolean {
  const r = printedRange(p);
  // Within a relative 1e-9 of an end counts as at it: 0.415 computed in binary is not below 0.415 printed.
  const eps = 1e-9 * Math.max(Math.abs(r.lo), Math.abs(r.hi), 1e-300);
  return v >= r.lo - eps && (r.hiOpen ? v < r.hi - eps : v <= r.hi + eps);
}

/** The article's count of runs behind a share it published out of `of` runs, or null. */
export function publishedCount(entry: Published): { k: number; n: number } | null {
  if (entry.of === undefined) return null;
  return { k: entry.unit === 'runs' ? entry.published : Math.round((entry.published * entry.of) / 100), n: entry.of };
}

/** The published entry for an id (the first, where an id carries several draws); throws naming the id when there is none. */
export function publishedFor(id: string): Published {
  const p = PUBLISHED.find((x) => x.id === id);
  if (!p) throw new Error(`no published value for ${id} in src/published.ts`);
  return p;
}

// Reasons shared by several rows. Each was checked against the experiment's
// code and data (experiments/*.ts, src/generated/numbers.json), not guessed.
const SEED_TAIL = 'a tail value from one set of random draws; ours come from different seeds, so it moves';
const FEW_STEADY =
  'one closed run’s steady window leaves only a few dozen requests or fewer above its p99, so the estimate is loose; hover our value for its interval';
const ESSAY =
  'our own English/Italian essay, not the article’s text: how much longer Italian comes out depends on the text';
const BUN_DOCS =
  'a different English corpus (Bun’s runtime docs: Markdown with code spans, flags and tags), denser in tokens than plain prose; on it the gap between Llama 2 and Llama 3 is wider than on the article’s text';
const GROWS =
  'past full load the wait behind the client cap grows with every request sent, so this tracks run length; the article does not state its run length';
const OMISSION_SEEDS =
  'near capacity the wait behind the cap comes from a few bursts of arrivals, so the seeds disagree widely; the published value is one draw, located in our seed distribution';
const PRINTED =
  'published as a fall, shown here as a change. Each variant’s value compares two from-send p99 values, whose own intervals are a few percent wide; ours is the median over seeds';
const COLLAPSE_TIMES =
  'ours is the distribution of collapse times over our seeds that collapsed; the row says where the published time falls in it';
const FEW_TOSSES = 'a share of collapsed runs from few seeds: a coin with few tosses; hover our share for its Wilson interval';

export const PUBLISHED: Published[] = [
  // ---- §0 the simulated server (sanity checks of the step-time model)
  { id: 'constants.check.decode_batch1_ms', published: 6.3, unit: 'ms', where: { in: 'the-instrument', also: 'appendix-the-model' } },
  { id: 'constants.check.decode_batch1_tok_per_s', published: 158, unit: 'tok/s', where: { in: 'the-instrument', also: 'appendix-the-model' } },
  { id: 'constants.check.prefill_1k_ms', published: 20.6, unit: 'ms', where: { in: 'the-instrument', also: 'appendix-the-model' } },
  { id: 'constants.check.full_step_ms', published: 158, unit: 'ms', where: { in: 'the-instrument', also: 'appendix-the-model' } },
  { id: 'constants.check.full_step_tok_per_s', published: 52000, step: 1000, approx: true, unit: 'tok/s', where: { in: 'the-instrument', also: 'appendix-the-model' } },

  // ---- §1 definitions (Figure 1)
  { id: 'definitions.speed.min_tok_per_s', published: 53.2, unit: 'tok/s', where: { in: 'where-the-clock-starts', figure: 1 } },
  { id: 'definitions.speed.max_tok_per_s', published: 105.5, unit: 'tok/s', where: { in: 'where-the-clock-starts', figure: 1 } },
  { id: 'definitions.itl.median_ms', published: 9.5, unit: 'ms', where: { in: 'where-the-clock-starts' } },
  { id: 'definitions.tpot.mean_ms', published: 17.4, unit: 'ms', where: { in: 'where-the-clock-starts' } },
  { id: 'definitions.gaps.one_in', published: 17, unit: 'gaps', where: { in: 'where-the-clock-starts' }, note: 'published in words, as one gap in about seventeen landing on a prefill step' },
  { id: 'definitions.gaps.over_100ms_pct', published: 5.9, unit: '%', where: { in: 'where-the-clock-starts' } },

  // ---- §2 first wave (Figure 2)
  { id: 'first-wave.slots64.p99_all_ms', published: 1105, unit: 'ms', where: { in: 'the-first-wave', figure: 2 } },
  {
    id: 'first-wave.slots64.p99_after_wave_ms',
    published: 53,
    unit: 'ms',
    where: { in: 'the-first-wave', figure: 2 },
    note: `${SEED_TAIL}. Over our seeds this p99 has two modes, and the published value falls in the upper one, the smaller of the two; our median sits in the lower`,
  },
  { id: 'first-wave.slots64.median_all_ms', published: 20, approx: true, unit: 'ms', where: { in: 'the-first-wave' } },
  { id: 'first-wave.slots64.median_after_wave_ms', published: 20, approx: true, unit: 'ms', where: { in: 'the-first-wave' }, note: 'published once for both windows (“either way”)' },
  { id: 'first-wave.slots64.wave_formula_ms', published: 1140, step: 10, approx: true, unit: 'ms', where: { in: 'the-first-wave' }, note: 'formula N·mean_isl/prefill_rate' },
  { id: 'first-wave.slots16.p99_all_ms', published: 284, unit: 'ms', where: { in: 'the-first-wave' } },
  { id: 'first-wave.slots16.p99_after_wave_ms', published: 37, unit: 'ms', where: { in: 'the-first-wave' } },
  { id: 'first-wave.slots256.p99_all_ms', published: 4265, unit: 'ms', where: { in: 'the-first-wave' } },
  {
    id: 'first-wave.slots256.p99_after_wave_ms',
    published: 105,
    unit: 'ms',
    where: { in: 'the-first-wave' },
    note: `${SEED_TAIL}: at this size our seeds spread widely; hover our value for their range`,
  },
  { id: 'first-wave.slots64_x50.p99_all_ms', published: 631, unit: 'ms', where: { in: 'the-first-wave' } },

  // ---- §3 mean TTFT by request count (Figure 3)
  { id: 'request-count.x3.slots25.mean_all_ms', published: 207, unit: 'ms', where: { in: 'the-first-wave', figure: 3 } },
  { id: 'request-count.x3.slots200.mean_all_ms', published: 790, unit: 'ms', where: { in: 'the-first-wave', figure: 3 } },
  { id: 'request-count.x3.mean_after_wave_min_ms', published: 149, unit: 'ms', where: { in: 'the-first-wave', figure: 3 } },
  { id: 'request-count.x3.mean_after_wave_max_ms', published: 170, unit: 'ms', where: { in: 'the-first-wave', figure: 3 } },
  { id: 'request-count.x2.slots200.mean_all_ms', published: 1106, unit: 'ms', where: { in: 'the-first-wave' } },
  { id: 'request-count.x2.slots200.median_all_ms', published: 317, unit: 'ms', where: { in: 'the-first-wave' } },
  { id: 'request-count.x3.slots200.median_all_ms', published: 158, unit: 'ms', where: { in: 'the-first-wave' } },
  { id: 'request-count.x30.slots200.above_steady_pct', published: 39, unit: '%', where: { in: 'the-first-wave', figure: 3 } },

  // ---- §4 all at once
  { id: 'all-at-once.ttft.median_s', published: 12.9, unit: 's', where: { in: 'the-first-wave' } },
  { id: 'all-at-once.ttft.p99_s', published: 25.1, unit: 's', where: { in: 'the-first-wave' } },
  { id: 'all-at-once.preemptions', published: 47, unit: 'preemptions', where: { in: 'the-first-wave' } },

  // ---- §5 timeline and echo (Figure 4)
  {
    id: 'timeline.x10.whole_below_steady_pct',
    published: 3,
    approx: true,
    unit: '%',
    where: { in: 'the-first-wave', figure: 4 },
    note: 'published as an approximate whole percent (“about”); ours rounds to the same whole percent',
  },
  { id: 'timeline.x1.whole_below_steady_pct', published: 9.5, unit: '%', where: { in: 'the-first-wave', figure: 4 } },
  { id: 'timeline.x10.echo_period_s', published: 10, unit: 's', where: { in: 'the-first-wave', figure: 4 } },

  // ---- §6 metronome (Figure 5) and range ratio
  { id: 'metronome.fixed.median_ms', published: 140, unit: 'ms', where: { in: 'the-first-wave', figure: 5 } },
  { id: 'metronome.fixed.p99_ms', published: 316, unit: 'ms', where: { in: 'the-first-wave', figure: 5 } },
  { id: 'metronome.fixed.cohort_mean', published: 6.7, unit: 'requests', where: { in: 'the-first-wave', figure: 5 } },
  { id: 'metronome.fixed.cohort_max', published: 8, unit: 'requests', where: { in: 'the-first-wave', figure: 5 } },
  { id: 'metronome.ranged.median_ms', published: 20.1, unit: 'ms', where: { in: 'the-first-wave', figure: 5 } },
  { id: 'metronome.ranged.p99_ms', published: 40.2, unit: 'ms', where: { in: 'the-first-wave', figure: 5 } },
  { id: 'metronome.range.vllm_lo_pct', published: 20, unit: '%', where: { in: 'the-first-wave' }, kind: 'analytic', note: 'share of the nominal length; ours is the integer bound the tool computes for our nominal length, so it is not a round share' },
  { id: 'metronome.range.vllm_hi_pct', published: 180, unit: '%', where: { in: 'the-first-wave' }, kind: 'analytic', note: 'share of the nominal length; ours is the integer bound the tool computes for our nominal length, so it is not a round share' },
  { id: 'metronome.range.inferencex_lo_pct', published: 80, unit: '%', where: { in: 'the-first-wave' }, kind: 'analytic', note: 'share of the nominal length; ours is the integer bound the tool computes for our nominal length, so it is not a round share' },

  // ---- §7 open vs closed (Figure 6)
  { id: 'open-closed.slots64.closed.rate_req_per_s', published: 6.287, unit: 'req/s', where: { in: 'open-and-closed', also: 'two-checks' }, note: 'printed rounded in one place and to three decimals in the other' },
  { id: 'open-closed.slots64.closed.p99_ttft_ms', published: 53.3, unit: 'ms', where: { in: 'open-and-closed', figure: 6 }, note: FEW_STEADY },
  { id: 'open-closed.slots64.open.p99_ttft_ms', published: 51.5, unit: 'ms', where: { in: 'open-and-closed', figure: 6 } },
  { id: 'open-closed.slots64.closed.mean_e2e_s', published: 10.172, unit: 's', where: { in: 'two-checks' } },
  {
    id: 'open-closed.slots64.closed.little_in_flight',
    published: 64.0,
    digits: 1,
    unit: 'requests',
    where: { in: 'two-checks' },
    kind: 'analytic',
    note: 'an identity: a closed loop keeps every slot busy, so Little’s law returns the slot count whatever the simulator does',
  },
  { id: 'open-closed.slots64.open.in_system', published: 65.5, unit: 'requests', where: { in: 'open-and-closed' } },
  { id: 'open-closed.slots64.open.little_predicted', published: 64.9, unit: 'requests', where: { in: 'open-and-closed' } },
  { id: 'open-closed.slots192.closed.p99_ttft_ms', published: 61.6, unit: 'ms', where: { in: 'open-and-closed', figure: 6 }, note: FEW_STEADY },
  { id: 'open-closed.slots192.open.p99_ttft_ms', published: 74.0, digits: 1, unit: 'ms', where: { in: 'open-and-closed', figure: 6 } },
  { id: 'open-closed.slots8.closed.p99_ttft_ms', published: 20.8, unit: 'ms', where: { in: 'open-and-closed', figure: 6 } },
  { id: 'open-closed.slots8.open.p99_ttft_ms', published: 37.2, unit: 'ms', where: { in: 'open-and-closed', figure: 6 } },
  { id: 'open-closed.slots256.closed.rate_req_per_s', published: 11.6, unit: 'req/s', where: { in: 'open-and-closed', figure: 6 } },
  { id: 'open-closed.slots256.closed.output_tok_per_s', published: 10694, unit: 'tok/s', where: { in: 'open-and-closed' } },
  { id: 'open-closed.slots256.closed.p99_ttft_ms', published: 79, unit: 'ms', where: { in: 'open-and-closed', figure: 6 } },
  { id: 'open-closed.slots320.closed.rate_req_per_s', published: 10.98, unit: 'req/s', where: { in: 'open-and-closed' } },
  { id: 'open-closed.peak.reference_rate_req_per_s', published: 11.6, unit: 'req/s', where: { in: 'open-and-closed' }, note: 'the rate our cliff, long runs and peak open runs take their loads from: the first seed’s peak, a fixed reference; slightly above the article’s, so every load of ours sits a little higher' },
  { id: 'open-closed.slots320.closed.preemptions', published: 1872, unit: 'preemptions', where: { in: 'open-and-closed' } },
  { id: 'open-closed.slots320.closed.p99_ttft_ms', published: 10.9, unit: 's', where: { in: 'open-and-closed' } },
  { id: 'open-closed.peak_open.collapsed_share_pct', published: (5 / 15) * 100, of: 15, digits: 1, unit: '%', where: { in: 'open-and-closed' }, note: FEW_TOSSES },
  { id: 'open-closed.peak_open.fine_p99_min_ms', published: 75, unit: 'ms', where: { in: 'open-and-closed' } },
  { id: 'open-closed.peak_open.fine_p99_max_ms', published: 107, unit: 'ms', where: { in: 'open-and-closed' } },
  {
    id: 'open-closed.peak_open.collapsed_p99_min_s',
    published: 17.3,
    unit: 's',
    where: { in: 'open-and-closed' },
    note: 'range over the collapsed runs only, which are other runs, and more of them, than the article’s; our mildest one only just crossed the one-second line that counts a run as collapsed',
  },
  {
    id: 'open-closed.peak_open.collapsed_p99_max_s',
    published: 31.4,
    unit: 's',
    where: { in: 'open-and-closed' },
    note: 'range over the collapsed runs only: our seeds produced more of them than the article’s, spread more widely',
  },
  {
    id: 'open-closed.peak_open.collapsed_preemptions_min',
    published: 1429,
    unit: 'preemptions',
    where: { in: 'open-and-closed' },
    note: 'range over the collapsed runs only; our mildest collapse only just crossed the line, with few preemptions',
  },
  {
    id: 'open-closed.peak_open.collapsed_preemptions_max',
    published: 2825,
    unit: 'preemptions',
    where: { in: 'open-and-closed' },
    note: 'range over the collapsed runs only: our seeds produced more of them than the article’s, spread more widely',
  },

  // ---- §8 the cliff (Figure 7): share of runs with p99 TTFT above one second
  { id: 'cliff.load90.collapsed_share_pct', published: 0, of: 14, unit: '%', where: { in: 'open-and-closed', figure: 7 } },
  { id: 'cliff.load95.collapsed_share_pct', published: 0, of: 14, unit: '%', where: { in: 'open-and-closed', figure: 7 } },
  {
    id: 'cliff.load98.collapsed_share_pct',
    published: 0,
    of: 14,
    unit: '%',
    where: { in: 'open-and-closed', figure: 7 },
    note: 'we ran more seeds per load and a few of them collapsed; our loads are also set from a peak rate slightly above the article’s (see the reference-rate row), which makes this load a little heavier. By Fisher’s exact test the two counts still do not differ',
  },
  { id: 'cliff.load100.collapsed_share_pct', published: (5 / 15) * 100, of: 15, digits: 1, unit: '%', where: { in: 'open-and-closed', figure: 7 }, note: FEW_TOSSES },
  {
    id: 'cliff.load102.collapsed_share_pct',
    published: (5 / 11) * 100,
    of: 11,
    digits: 1,
    unit: '%',
    where: { in: 'open-and-closed', figure: 7 },
    note: `${FEW_TOSSES}; by Fisher’s exact test the two counts do not differ`,
  },

  // ---- §9 coordinated omission (Figure 8)
  { id: 'omission.p99_ttft_send.min_ms', published: 39, unit: 'ms', where: { in: 'the-queue-nobody-times', figure: 8 } },
  { id: 'omission.p99_ttft_send.max_ms', published: 47, unit: 'ms', where: { in: 'the-queue-nobody-times', figure: 8 } },
  { id: 'omission.load80.p99_ttft_due_ms', published: 135, unit: 'ms', where: { in: 'the-queue-nobody-times', figure: 8 }, note: OMISSION_SEEDS },
  { id: 'omission.load90.p99_ttft_due_ms', published: 2430, unit: 'ms', where: { in: 'the-queue-nobody-times', figure: 8 }, note: OMISSION_SEEDS },
  { id: 'omission.load100.p99_ttft_due_ms', published: 16900, unit: 'ms', where: { in: 'the-queue-nobody-times', figure: 8 }, note: `at exactly full load the queue behind the cap wanders like a random walk, so one seed can land far from another; ${GROWS}` },
  { id: 'omission.load150.p99_ttft_due_ms', published: 139000, unit: 'ms', where: { in: 'the-queue-nobody-times', figure: 8 }, note: `${GROWS}: compare the shorter runs at this load in the rows below` },
  { id: 'omission.load150.requests3000.p99_ttft_due_ms', published: 139000, unit: 'ms', where: { in: 'the-queue-nobody-times', figure: 8 }, note: `the same load run shorter, to show how the value tracks run length; ${GROWS}` },
  { id: 'omission.load150.requests2000.p99_ttft_due_ms', published: 139000, unit: 'ms', where: { in: 'the-queue-nobody-times', figure: 8 }, note: `the same load run shorter again; ${GROWS}` },
  { id: 'omission.achieved.max_req_per_s', published: 6.31, unit: 'req/s', where: { in: 'the-queue-nobody-times' } },
  { id: 'omission.load150.p99_e2e_send_s', published: 11.3, unit: 's', where: { in: 'the-queue-nobody-times' } },
  { id: 'omission.load150.p99_e2e_due_s', published: 149, unit: 's', where: { in: 'the-queue-nobody-times' }, note: GROWS },

  // ---- §10 order statistics
  { id: 'order-statistics.max_bounds_p99.min_n', published: 299, unit: 'requests', where: { in: 'percentiles' } },
  { id: 'order-statistics.max_exceeds_p99.n100_pct', published: 63, unit: '%', where: { in: 'percentiles' } },
  { id: 'order-statistics.max_bounds_p999.min_n', published: 2995, unit: 'requests', where: { in: 'percentiles' } },
  { id: 'order-statistics.p99_interval.n1000.lower_rank', published: 983, unit: 'rank', where: { in: 'percentiles' } },
  { id: 'order-statistics.p99_interval.n1000.upper_rank', published: 997, unit: 'rank', where: { in: 'percentiles' } },

  // ---- §11 correlated samples (Figure 9, left)
  { id: 'long-runs.correlation.lag1', published: 0.42, unit: '', where: { in: 'percentiles' } },
  { id: 'long-runs.correlation.lag2', published: 0.18, unit: '', where: { in: 'percentiles' } },
  { id: 'long-runs.correlation.w100.variance_ratio_x', published: 2.1, unit: '×', where: { in: 'percentiles', figure: 9 } },
  { id: 'long-runs.correlation.w300.variance_ratio_x', published: 3.1, unit: '×', where: { in: 'percentiles', figure: 9 } },
  {
    id: 'long-runs.correlation.w1000.variance_ratio_x',
    published: 3.0,
    digits: 1,
    unit: '×',
    where: { in: 'percentiles', figure: 9 },
    note: 'one run with its own draws, cut into comparatively few windows: a ratio of two variances estimated from so few is itself noisy',
  },
  {
    id: 'long-runs.correlation.w3000.variance_ratio_x',
    published: 3.5,
    unit: '×',
    where: { in: 'percentiles', figure: 9 },
    note: 'one run with its own draws, cut into only a few dozen windows at this size: a ratio of two variances estimated from that few is itself noisy',
  },
  { id: 'long-runs.correlation.w1000.window_band_lo_ms', published: 64.1, unit: 'ms', where: { in: 'percentiles' } },
  { id: 'long-runs.correlation.w1000.window_band_hi_ms', published: 80.3, unit: 'ms', where: { in: 'percentiles' } },
  { id: 'long-runs.correlation.w1000.iid_band_lo_ms', published: 66.9, unit: 'ms', where: { in: 'percentiles' } },
  { id: 'long-runs.correlation.w1000.iid_band_hi_ms', published: 76.7, unit: 'ms', where: { in: 'percentiles' } },
  { id: 'long-runs.correlation.true_p99_ms', published: 72.8, unit: 'ms', where: { in: 'percentiles' } },
  { id: 'long-runs.correlation.w1000.too_narrow_x', published: 1.7, approx: true, unit: '×', where: { in: 'percentiles' } },

  // ---- §12 long runs (Figure 9, right) and cost
  { id: 'long-runs.load98.collapsed_share_pct', published: 100, of: 3, unit: '%', where: { in: 'percentiles', figure: 9 }, note: FEW_TOSSES },
  { id: 'long-runs.load95.collapsed_share_pct', published: 0, of: 2, unit: '%', where: { in: 'percentiles', figure: 9 }, note: 'the article’s episode at this load recovered, so it is not a collapse' },
  { id: 'long-runs.load90.collapsed_share_pct', published: 0, of: 1, unit: '%', where: { in: 'percentiles', figure: 9 } },
  {
    id: 'long-runs.load98.collapse_after_h',
    published: 18 / 60,
    step: 1 / 60,
    digits: 2,
    unit: 'h',
    where: { in: 'percentiles', figure: 9 },
    note: `the earliest of the article’s three collapse times, each one draw of a random event; ${COLLAPSE_TIMES}`,
  },
  {
    id: 'long-runs.load98.collapse_after_h',
    published: 2.3,
    unit: 'h',
    where: { in: 'percentiles', figure: 9 },
    note: `the middle of the article’s three collapse times; ${COLLAPSE_TIMES}`,
  },
  {
    id: 'long-runs.load98.collapse_after_h',
    published: 2.5,
    unit: 'h',
    where: { in: 'percentiles', figure: 9 },
    note: `the latest of the article’s three collapse times; ${COLLAPSE_TIMES}`,
  },
  {
    id: 'long-runs.load95.episode_max_window_p99_s',
    published: 3.5,
    unit: 's',
    where: { in: 'percentiles', figure: 9 },
    note: 'like with like: the worst window of the article’s run that had an episode and recovered, against the worst windows of those of our runs at this load that had one',
  },
  { id: 'long-runs.load95.episode_runs', published: 1, of: 2, unit: 'runs', where: { in: 'percentiles', figure: 9 }, note: 'runs whose windowed p99 crossed the collapse line and came back down' },
  {
    id: 'long-runs.load98.worst_short_window_p99_ms',
    published: 90,
    unit: 'ms',
    where: { in: 'percentiles' },
    note: 'the article’s is the worst over its three runs; ours is each run’s worst short window, over the seeds; a run with an early episode pushes the top of the range up',
  },
  { id: 'long-runs.load98.short_run_requests', published: 6820, unit: 'requests', where: { in: 'percentiles' }, kind: 'analytic', note: 'arithmetic on settings: the short run’s length at the offered rate, which we set from our own peak rate, a little above the article’s' },
  {
    id: 'long-runs.cost.load90_over_peak_pct',
    published: 11,
    unit: '%',
    where: { in: 'percentiles' },
    kind: 'analytic',
    note: 'arithmetic on settings: an open loop that keeps up delivers what it is offered, so the cost per token against the peak is the peak over the offered load, less one',
  },

  // ---- §13 sensitivity (Figure 10): range over the eleven simulator variants
  {
    id: 'sensitivity.range.first_wave.min_x',
    published: 20.5,
    unit: '×',
    where: { in: 'how-much-is-the-model', figure: 10 },
    note: 'the ratio divides by the after-wave p99, whose seeds fall into two modes (see the first-wave rows); the article’s after-wave value lies in the upper mode, ours is the median over seeds in the lower one, so our ratio comes out higher',
  },
  { id: 'sensitivity.range.first_wave.max_x', published: 27.8, unit: '×', where: { in: 'how-much-is-the-model', figure: 10 } },
  {
    id: 'sensitivity.range.omission.min_x',
    published: 46,
    unit: '×',
    where: { in: 'how-much-is-the-model', figure: 10 },
    note: 'at the omission study’s near-capacity load the due-clock p99 depends on the draws; ours is each variant’s median over seeds (see the omission rows)',
  },
  {
    id: 'sensitivity.range.omission.max_x',
    published: 63,
    unit: '×',
    where: { in: 'how-much-is-the-model', figure: 10 },
    note: 'at the omission study’s near-capacity load the due-clock p99 depends on the draws; ours is each variant’s median over seeds (see the omission rows)',
  },
  {
    id: 'sensitivity.range.printed_p99_change.min_pct',
    published: -12,
    unit: '%',
    where: { in: 'how-much-is-the-model', figure: 10 },
    note: `${PRINTED}; the largest fall is the smallest change`,
  },
  { id: 'sensitivity.range.printed_p99_change.max_pct', published: -5, unit: '%', where: { in: 'how-much-is-the-model', figure: 10 }, note: PRINTED },
  { id: 'sensitivity.range.definitions_spread.min_x', published: 1.8, unit: '×', where: { in: 'how-much-is-the-model', figure: 10 } },
  { id: 'sensitivity.range.definitions_spread.max_x', published: 2.2, unit: '×', where: { in: 'how-much-is-the-model', figure: 10 } },
  { id: 'sensitivity.budget_2048.metronome_x', published: 2.0, digits: 1, unit: '×', where: { in: 'how-much-is-the-model', figure: 10 } },
  { id: 'sensitivity.budget_16384.metronome_x', published: 14.7, unit: '×', where: { in: 'how-much-is-the-model', figure: 10 } },

  // ---- §14 tokens (Figure 11)
  { id: 'tokens.per_kchar.llama3.english_docs', published: 217.9, unit: 'tok/kchar', where: { in: 'what-a-token-is', figure: 11 }, note: BUN_DOCS },
  { id: 'tokens.per_kchar.llama2.english_docs', published: 258.0, digits: 1, unit: 'tok/kchar', where: { in: 'what-a-token-is', figure: 11 }, note: BUN_DOCS },
  { id: 'tokens.llama3_fewer_than_llama2.english_docs_pct', published: 15.6, unit: '%', where: { in: 'what-a-token-is' }, note: BUN_DOCS },
  { id: 'tokens.ratio.llama2_over_llama3.python_asyncio_x', published: 1.31, unit: '×', where: { in: 'what-a-token-is' } },
  { id: 'tokens.ratio.gpt2_over_llama3.python_asyncio_x', published: 2.17, unit: '×', where: { in: 'what-a-token-is' } },
  { id: 'tokens.italian_extra.llama3_pct', published: 34, unit: '%', where: { in: 'what-a-token-is' }, note: ESSAY },
  { id: 'tokens.italian_extra.gpt2_pct', published: 67, unit: '%', where: { in: 'what-a-token-is' }, note: ESSAY },
  {
    id: 'tokens.italian_extra.gemma3_pct',
    published: 9,
    approx: true,
    unit: '%',
    where: { in: 'what-a-token-is' },
    note: `Gemma 3’s vocabulary stands in for the Gemma 4 one the article measured, and ${ESSAY.replace(/^our/, 'the text is our')}`,
  },
  {
    id: 'tokens.italian_extra.min_pct',
    published: 8,
    unit: '%',
    where: { in: 'what-a-token-is', figure: 11 },
    note: `the smallest effect here is Gemma 3’s, standing in for Gemma 4; and ${ESSAY.replace(/^our/, 'the text is our')}`,
  },
  { id: 'tokens.italian_extra.max_pct', published: 67, unit: '%', where: { in: 'what-a-token-is', figure: 11 }, note: ESSAY },
  {
    id: 'tokens.llmperf_inflation.english_docs_pct',
    published: 18.4,
    unit: '%',
    where: { in: 'what-a-token-is', also: 'where-the-clock-starts' },
    note: `${BUN_DOCS}. The same factor feeds the LLMPerf speed in the definitions figure`,
  },
  { id: 'tokens.llmperf_inflation.python_asyncio_pct', published: 31, unit: '%', where: { in: 'what-a-token-is' } },

  // ---- §15 small derivations
  { id: 'derivations.moe.coverage.b32_pct', published: 63.8, unit: '%', where: { in: 'what-the-prompt-is' } },
  { id: 'derivations.moe.coverage.b128_pct', published: 98.3, unit: '%', where: { in: 'what-the-prompt-is' } },
  { id: 'derivations.roofline.weights_gb', published: 15.0, digits: 1, unit: 'GB', where: { in: 'two-checks', figure: 12 } },
  { id: 'derivations.roofline.batch1_bound_tok_per_s', published: 223, unit: 'tok/s', where: { in: 'two-checks', figure: 12 } },
  { id: 'derivations.roofline.knee_tokens', published: 295, unit: 'tokens/step', where: { in: 'two-checks' } },
  { id: 'derivations.roofline.envelope_context_tokens', published: 1380, unit: 'tokens', where: { in: 'two-checks', figure: 12 }, kind: 'setting' },
];
