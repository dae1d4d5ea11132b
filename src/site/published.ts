/**
 * The values the original article published, and ONLY here: a reference to
 * compare against on the reproduction page, never a constant in the code and
 * never typed into prose. Transcribed from ../shared/paper/EXPERIMENTS.md.
 *
 * Each entry names the id of OUR number in numbers.json (dotted path, unit in
 * the last part), the published value in the unit of our number, where the
 * article prints it, and optionally why ours may differ. An id missing from
 * numbers.json shows as "not yet reproduced".
 *
 * To add one: append an entry; keep `unit` equal to the unit our experiment
 * reports (convert the published value if needed, e.g. 1.14 s → 1140 ms).
 */
export interface Published {
  /** Id of our number in numbers.json. */
  id: string;
  /** The article's value, in `unit`. */
  published: number;
  unit: string;
  /** Where the article prints it: section, figure or table. */
  where: string;
  /** Why ours may differ (shown in the 'why' column). */
  note?: string;
  /** Decimals to print the published value with (default: as many as it was written with, at most three). */
  digits?: number;
}

/** Decimals of a published value as written: 6.3 → 1, 10.172 → 3, 1105 → 0 (at most three). */
export function publishedDigits(p: Published): number {
  if (p.digits !== undefined) return p.digits;
  const s = String(p.published);
  const i = s.indexOf('.');
  return i < 0 || s.includes('e') ? 0 : Math.min(3, s.length - i - 1);
}

const SEED_TAIL = 'single-seed tail: random draws differ from the article’s';

export const PUBLISHED: Published[] = [
  // ---- §0 the simulated server (sanity checks of the step-time model)
  { id: 'constants.check.decode_batch1_ms', published: 6.3, unit: 'ms', where: 'The instrument; Appendix' },
  { id: 'constants.check.decode_batch1_tok_per_s', published: 158, unit: 'tok/s', where: 'The instrument; Appendix' },
  { id: 'constants.check.prefill_1k_ms', published: 20.6, unit: 'ms', where: 'The instrument; Appendix' },
  { id: 'constants.check.full_step_ms', published: 158, unit: 'ms', where: 'The instrument; Appendix' },
  { id: 'constants.check.full_step_tok_per_s', published: 52000, unit: 'tok/s', where: 'The instrument; Appendix' },

  // ---- §1 definitions (Figure 1)
  { id: 'definitions.speed.min_tok_per_s', published: 53.2, unit: 'tok/s', where: 'Figure 1' },
  { id: 'definitions.speed.max_tok_per_s', published: 105.5, unit: 'tok/s', where: 'Figure 1' },
  { id: 'definitions.itl.median_ms', published: 9.5, unit: 'ms', where: 'Where the clock starts' },
  { id: 'definitions.tpot.mean_ms', published: 17.4, unit: 'ms', where: 'Where the clock starts' },
  { id: 'definitions.gaps.on_prefill_steps_pct', published: 100 / 17, digits: 1, unit: '%', where: 'Where the clock starts', note: 'published as “about one gap in seventeen”' },
  { id: 'definitions.gaps.over_100ms_pct', published: 5.9, unit: '%', where: 'Where the clock starts' },

  // ---- §2 first wave (Figure 2)
  { id: 'first-wave.slots64.p99_all_ms', published: 1105, unit: 'ms', where: 'Figure 2' },
  { id: 'first-wave.slots64.p99_after_wave_ms', published: 53, unit: 'ms', where: 'Figure 2', note: SEED_TAIL },
  { id: 'first-wave.slots64.median_all_ms', published: 20, unit: 'ms', where: 'The first wave' },
  { id: 'first-wave.slots64.wave_formula_ms', published: 1140, unit: 'ms', where: 'The first wave', note: 'formula N·mean_isl/prefill_rate' },
  { id: 'first-wave.slots16.p99_all_ms', published: 284, unit: 'ms', where: 'The first wave' },
  { id: 'first-wave.slots16.p99_after_wave_ms', published: 37, unit: 'ms', where: 'The first wave', note: SEED_TAIL },
  { id: 'first-wave.slots256.p99_all_ms', published: 4265, unit: 'ms', where: 'The first wave' },
  { id: 'first-wave.slots256.p99_after_wave_ms', published: 105, unit: 'ms', where: 'The first wave', note: SEED_TAIL },
  { id: 'first-wave.slots64_x50.p99_all_ms', published: 631, unit: 'ms', where: 'The first wave' },

  // ---- §3 mean TTFT by request count (Figure 3)
  { id: 'request-count.x3.slots25.mean_all_ms', published: 207, unit: 'ms', where: 'Figure 3' },
  { id: 'request-count.x3.slots200.mean_all_ms', published: 790, unit: 'ms', where: 'Figure 3' },
  { id: 'request-count.x3.mean_after_wave_min_ms', published: 149, unit: 'ms', where: 'Figure 3' },
  { id: 'request-count.x3.mean_after_wave_max_ms', published: 170, unit: 'ms', where: 'Figure 3' },
  { id: 'request-count.x2.slots200.mean_all_ms', published: 1106, unit: 'ms', where: 'The first wave' },
  { id: 'request-count.x2.slots200.median_all_ms', published: 317, unit: 'ms', where: 'The first wave' },
  { id: 'request-count.x3.slots200.median_all_ms', published: 158, unit: 'ms', where: 'The first wave' },
  { id: 'request-count.x30.slots200.above_steady_pct', published: 39, unit: '%', where: 'Figure 3' },

  // ---- §4 all at once
  { id: 'all-at-once.ttft.median_s', published: 12.9, unit: 's', where: 'The first wave' },
  { id: 'all-at-once.ttft.p99_s', published: 25.1, unit: 's', where: 'The first wave' },
  { id: 'all-at-once.preemptions_n', published: 47, unit: '', where: 'The first wave' },

  // ---- §5 timeline and echo (Figure 4)
  { id: 'timeline.x10.whole_below_steady_pct', published: 3, unit: '%', where: 'Figure 4' },
  { id: 'timeline.x1.whole_below_steady_pct', published: 9.5, unit: '%', where: 'Figure 4' },
  { id: 'timeline.x10.echo_period_s', published: 10, unit: 's', where: 'Figure 4' },

  // ---- §6 metronome (Figure 5)
  { id: 'metronome.fixed.median_ms', published: 140, unit: 'ms', where: 'Figure 5' },
  { id: 'metronome.fixed.p99_ms', published: 316, unit: 'ms', where: 'Figure 5' },
  { id: 'metronome.fixed.cohort_mean', published: 6.7, unit: '', where: 'Figure 5' },
  { id: 'metronome.fixed.cohort_max', published: 8, unit: '', where: 'Figure 5' },
  { id: 'metronome.ranged.median_ms', published: 20.1, unit: 'ms', where: 'Figure 5' },
  { id: 'metronome.ranged.p99_ms', published: 40.2, unit: 'ms', where: 'Figure 5' },

  // ---- §7 open vs closed (Figure 6)
  { id: 'open-closed.slots64.closed.rate_req_per_s', published: 6.29, unit: 'req/s', where: 'Figure 6' },
  { id: 'open-closed.slots64.closed.p99_ttft_ms', published: 53.3, unit: 'ms', where: 'Figure 6', note: SEED_TAIL },
  { id: 'open-closed.slots64.open.p99_ttft_ms', published: 51.5, unit: 'ms', where: 'Figure 6', note: SEED_TAIL },
  { id: 'open-closed.slots64.closed.mean_e2e_s', published: 10.172, unit: 's', where: 'Two checks anyone can run' },
  { id: 'open-closed.c64.little_n', published: 64.0, unit: '', where: 'Two checks anyone can run' },
  { id: 'open-closed.c64.open.inflight_n', published: 65.5, unit: '', where: 'Open and closed' },
  { id: 'open-closed.c64.open.predicted_n', published: 64.9, unit: '', where: 'Open and closed' },
  { id: 'open-closed.slots192.closed.p99_ttft_ms', published: 61.6, unit: 'ms', where: 'Figure 6', note: SEED_TAIL },
  { id: 'open-closed.slots192.open.p99_ttft_ms', published: 74.0, unit: 'ms', where: 'Figure 6', note: SEED_TAIL },
  { id: 'open-closed.slots8.closed.p99_ttft_ms', published: 20.8, unit: 'ms', where: 'Figure 6' },
  { id: 'open-closed.slots8.open.p99_ttft_ms', published: 37.2, unit: 'ms', where: 'Figure 6', note: SEED_TAIL },
  { id: 'open-closed.slots256.closed.rate_req_per_s', published: 11.6, unit: 'req/s', where: 'Figure 6' },
  { id: 'open-closed.slots256.closed.output_tok_per_s', published: 10694, unit: 'tok/s', where: 'Open and closed' },
  { id: 'open-closed.slots256.closed.p99_ttft_ms', published: 79, unit: 'ms', where: 'Figure 6', note: SEED_TAIL },
  { id: 'open-closed.slots320.closed.rate_req_per_s', published: 10.98, unit: 'req/s', where: 'Open and closed' },
  { id: 'open-closed.c320.preemptions_n', published: 1872, unit: '', where: 'Open and closed', note: 'a collapse count: very sensitive to the seed' },
  { id: 'open-closed.slots320.closed.p99_ttft_ms', published: 10.9, unit: 's', where: 'Open and closed' },
  { id: 'open-closed.peak_open.collapsed', published: 5, unit: '', where: 'Open and closed', note: 'out of fifteen seeds: a coin with few tosses' },

  // ---- §8 the cliff (Figure 7): share of runs with p99 TTFT above one second
  { id: 'cliff.load90.collapsed_share_pct', published: 0, unit: '%', where: 'Figure 7' },
  { id: 'cliff.load95.collapsed_share_pct', published: 0, unit: '%', where: 'Figure 7' },
  { id: 'cliff.load98.collapsed_share_pct', published: 0, unit: '%', where: 'Figure 7' },
  { id: 'cliff.load100.collapsed_share_pct', published: (5 / 15) * 100, digits: 1, unit: '%', where: 'Figure 7', note: 'published as five of fifteen; see the interval' },
  { id: 'cliff.load102.collapsed_share_pct', published: (5 / 11) * 100, digits: 1, unit: '%', where: 'Figure 7', note: 'published as five of eleven; see the interval' },

  // ---- §9 coordinated omission (Figure 8)
  { id: 'omission.p99_ttft_send.min_ms', published: 39, unit: 'ms', where: 'Figure 8' },
  { id: 'omission.p99_ttft_send.max_ms', published: 47, unit: 'ms', where: 'Figure 8' },
  { id: 'omission.load80.p99_ttft_due_ms', published: 135, unit: 'ms', where: 'Figure 8' },
  { id: 'omission.load90.p99_ttft_due_ms', published: 2.43, unit: 's', where: 'Figure 8' },
  { id: 'omission.load100.p99_ttft_due_ms', published: 16.9, unit: 's', where: 'Figure 8', note: 'grows with the length of the run' },
  { id: 'omission.load150.p99_ttft_due_ms', published: 139, unit: 's', where: 'Figure 8', note: 'grows with the length of the run' },
  { id: 'omission.achieved.max_req_per_s', published: 6.31, unit: 'req/s', where: 'The queue nobody times' },
  { id: 'omission.load150.p99_e2e_send_s', published: 11.3, unit: 's', where: 'The queue nobody times' },
  { id: 'omission.load150.p99_e2e_due_s', published: 149, unit: 's', where: 'The queue nobody times', note: 'grows with the length of the run' },

  // ---- §10 order statistics
  { id: 'order-statistics.max_bounds_p99.min_n', published: 299, unit: '', where: 'Percentiles' },
  { id: 'order-statistics.max_exceeds_p99.n100_pct', published: 63, unit: '%', where: 'Percentiles' },
  { id: 'order-statistics.max_bounds_p999.min_n', published: 2995, unit: '', where: 'Percentiles' },
  { id: 'order-statistics.p99_interval.n1000.lower_rank', published: 983, unit: '', where: 'Percentiles' },
  { id: 'order-statistics.p99_interval.n1000.upper_rank', published: 997, unit: '', where: 'Percentiles' },

  // ---- §11 correlated samples (Figure 9, left)
  { id: 'long-runs.correlation.lag1', published: 0.42, unit: '', where: 'Percentiles' },
  { id: 'long-runs.correlation.lag2', published: 0.18, unit: '', where: 'Percentiles' },
  { id: 'long-runs.correlation.w100.variance_ratio_x', published: 2.1, unit: '×', where: 'Figure 9' },
  { id: 'long-runs.correlation.w300.variance_ratio_x', published: 3.1, unit: '×', where: 'Figure 9' },
  { id: 'long-runs.correlation.w1000.variance_ratio_x', published: 3.0, unit: '×', where: 'Figure 9' },
  { id: 'long-runs.correlation.w3000.variance_ratio_x', published: 3.5, unit: '×', where: 'Figure 9' },
  { id: 'long-runs.correlation.w1000.window_band_lo_ms', published: 64.1, unit: 'ms', where: 'Percentiles' },
  { id: 'long-runs.correlation.w1000.window_band_hi_ms', published: 80.3, unit: 'ms', where: 'Percentiles' },
  { id: 'long-runs.correlation.w1000.iid_band_lo_ms', published: 66.9, unit: 'ms', where: 'Percentiles' },
  { id: 'long-runs.correlation.w1000.iid_band_hi_ms', published: 76.7, unit: 'ms', where: 'Percentiles' },
  { id: 'long-runs.correlation.true_p99_ms', published: 72.8, unit: 'ms', where: 'Percentiles' },
  { id: 'long-runs.correlation.w1000.too_narrow_x', published: 1.7, unit: '×', where: 'Percentiles' },

  // ---- §12 long runs (Figure 9, right) and cost
  { id: 'long-runs.l98.collapse.first_min', published: 18, unit: 'min', where: 'Figure 9', note: 'time of a collapse is a random event' },
  { id: 'long-runs.l98.collapse.second_h', published: 2.3, unit: 'h', where: 'Figure 9', note: 'time of a collapse is a random event' },
  { id: 'long-runs.l98.collapse.third_h', published: 2.5, unit: 'h', where: 'Figure 9', note: 'time of a collapse is a random event' },
  { id: 'long-runs.l95.episode.p99_s', published: 3.5, unit: 's', where: 'Percentiles' },
  { id: 'long-runs.load98.worst_short_window_p99_ms', published: 90, unit: 'ms', where: 'Percentiles' },
  { id: 'long-runs.l98.ten_min_requests_n', published: 6820, unit: '', where: 'Percentiles' },
  { id: 'long-runs.cost.load90_over_peak_pct', published: 11, unit: '%', where: 'Percentiles' },

  // ---- §13 sensitivity (Figure 10)
  { id: 'sensitivity.first_wave.min_x', published: 20.5, unit: '×', where: 'Figure 10' },
  { id: 'sensitivity.first_wave.max_x', published: 27.8, unit: '×', where: 'Figure 10' },
  { id: 'sensitivity.omission.min_x', published: 46, unit: '×', where: 'Figure 10' },
  { id: 'sensitivity.omission.max_x', published: 63, unit: '×', where: 'Figure 10' },
  { id: 'sensitivity.printed_fall.min_pct', published: 5, unit: '%', where: 'Figure 10' },
  { id: 'sensitivity.printed_fall.max_pct', published: 12, unit: '%', where: 'Figure 10' },
  { id: 'sensitivity.definitions.min_x', published: 1.8, unit: '×', where: 'Figure 10' },
  { id: 'sensitivity.definitions.max_x', published: 2.2, unit: '×', where: 'Figure 10' },
  { id: 'sensitivity.metronome.b2048_x', published: 2.0, unit: '×', where: 'Figure 10' },
  { id: 'sensitivity.metronome.b16384_x', published: 14.7, unit: '×', where: 'Figure 10' },

  // ---- §14 tokens (Figure 11)
  { id: 'tokens.per_kchar.llama3.english_docs', published: 217.9, unit: 'tok/kchar', where: 'Figure 11', note: 'different English corpus (the article’s is not public)' },
  { id: 'tokens.per_kchar.llama2.english_docs', published: 258.0, digits: 1, unit: 'tok/kchar', where: 'Figure 11', note: 'different English corpus (the article’s is not public)' },
  { id: 'tokens.llama3_fewer_than_llama2.english_docs_pct', published: 15.6, unit: '%', where: 'What a token is', note: 'different English corpus (the article’s is not public)' },
  { id: 'tokens.ratio.llama2_over_llama3.python_asyncio_x', published: 1.31, unit: '×', where: 'What a token is' },
  { id: 'tokens.ratio.gpt2_over_llama3.python_asyncio_x', published: 2.17, unit: '×', where: 'What a token is' },
  { id: 'tokens.italian_extra.llama3_pct', published: 34, unit: '%', where: 'What a token is', note: 'our own English/Italian text' },
  { id: 'tokens.italian_extra.gpt2_pct', published: 67, unit: '%', where: 'What a token is', note: 'our own English/Italian text' },
  { id: 'tokens.italian_extra.gemma3_pct', published: 9, unit: '%', where: 'What a token is', note: 'Gemma 3 here, Gemma 4 in the article' },
  { id: 'tokens.italian_extra.min_pct', published: 8, unit: '%', where: 'Figure 11', note: 'our own English/Italian text; Gemma 3 instead of Gemma 4' },
  { id: 'tokens.italian_extra.max_pct', published: 67, unit: '%', where: 'Figure 11', note: 'our own English/Italian text' },
  { id: 'tokens.llmperf_inflation.english_docs_pct', published: 18.4, unit: '%', where: 'Where the clock starts; What a token is', note: 'different English corpus (the article’s is not public)' },
  { id: 'tokens.llmperf_inflation.python_asyncio_pct', published: 31, unit: '%', where: 'What a token is' },

  // ---- §15 small derivations
  { id: 'derivations.moe.coverage.b32_pct', published: 63.8, unit: '%', where: 'What the prompt is' },
  { id: 'derivations.moe.coverage.b128_pct', published: 98.3, unit: '%', where: 'What the prompt is' },
  { id: 'derivations.roofline.batch1_bound_tok_per_s', published: 223, unit: 'tok/s', where: 'Figure 12' },
  { id: 'derivations.roofline.knee_tokens', published: 295, unit: 'tokens', where: 'Two checks anyone can run' },
  { id: 'derivations.roofline.envelope_context_tokens', published: 1380, unit: 'tokens', where: 'Figure 12' },
];
