/** Checked claims of src/article/percentiles.astro, in page order. */
import { above, atLeast, atMost, below, every, greater, less, monotone, narrower, ratioAtLeast, within } from '../claims/predicates.ts';
import type { SectionChecks } from '../claims/types.ts';

const WINDOWS = [100, 300, 1000, 3000];
const w = (size: number, rest: string) => `long-runs.correlation.w${size}.${rest}`;
const EDGE = 'long-runs.load98';
const BELOW = 'long-runs.load95';
const sens = (variant: string, effect: string) => `sensitivity.${variant}.${effect}`;
const VARIANTS = ['baseline', 'eta_compute_0.60', 'eta_compute_0.90', 'eta_memory_0.75', 'eta_memory_0.95', 'overhead_0.5ms', 'overhead_2ms', 'kv_300k', 'kv_600k', 'budget_2048', 'budget_16384'];
/** A server's median omission ratio over its seeds: the sensitivity sentences compare servers by their medians. */
const medOmission = (variant: string) => `${sens(variant, 'omission_x')}@median`;
const EFFECTS = ['first_wave_x', 'omission_x', 'definitions_spread_x', 'metronome_x', 'printed_p99_change_pct'];

export const CHECKS: SectionChecks = [
  {
    id: 'os-max-bound-small-run',
    basis: 'mathematics',
    says: 'A run of the small size has fewer requests than the maximum needs to bound the p99, and its maximum exceeds the p99 less often than the confidence asked for.',
    check: every([
      less('order-statistics.config.small_n', 'order-statistics.max_bounds_p99.min_n'),
      less('order-statistics.max_exceeds_p99.n100_pct', 'order-statistics.config.confidence_pct'),
    ]),
  },
  {
    id: 'os-p999-needs-more',
    basis: 'mathematics',
    says: 'The p99.9 needs more requests than the p99 before its largest sample bounds it.',
    check: greater('order-statistics.max_bounds_p999.min_n', 'order-statistics.max_bounds_p99.min_n'),
  },
  {
    id: 'os-coverage-close',
    basis: 'mathematics',
    says: 'The interval’s coverage is close to the target (within 5%) but not equal to it.',
    check: every([within('order-statistics.p99_interval.n1000.coverage_pct', 'order-statistics.config.confidence_pct', 0.05), greater('order-statistics.p99_interval.n1000.coverage_pct', 'order-statistics.config.confidence_pct')]),
  },
  {
    id: 'os-mlperf-rises',
    basis: 'mathematics',
    says: 'The queries MLPerf’s early stopping requires rise with the number of misses.',
    check: monotone(['over0', 'over1', 'over10', 'over50'].map((m) => `order-statistics.mlperf_early_stopping.${m}.queries`), 'rising'),
  },
  {
    id: 'lr-correlated',
    says: 'Consecutive requests’ times to first token are positively correlated, and requests two apart still are, less strongly.',
    check: every([above('long-runs.correlation.lag2', 0), greater('long-runs.correlation.lag1', 'long-runs.correlation.lag2')]),
  },
  {
    id: 'lr-windows-vary-more',
    says: 'Consecutive windows’ p99 values vary more than independent draws’ at every window size.',
    check: every(WINDOWS.map((s) => above(w(s, 'variance_ratio_x'), 1)), 'every window size'),
  },
  {
    id: 'lr-ratio-noisy',
    says: 'A single run is a noisy judge of the variance ratio: over seeds it spans more than a factor of 1.3 at {long-runs.correlation.w1000.window_requests}, and wider still at {long-runs.correlation.w3000.window_requests}, where a run has fewer windows.',
    check: every([
      ratioAtLeast(`${w(1000, 'variance_ratio_x')}@seeds-max`, `${w(1000, 'variance_ratio_x')}@seeds-min`, 1.3),
      narrower([`${w(1000, 'variance_ratio_x')}@seeds-min`, `${w(1000, 'variance_ratio_x')}@seeds-max`], [`${w(3000, 'variance_ratio_x')}@seeds-min`, `${w(3000, 'variance_ratio_x')}@seeds-max`]),
    ]),
  },
  {
    id: 'lr-effective-n',
    says: 'A window of consecutive requests pins down the p99 like fewer independent ones.',
    check: less(w(1000, 'effective_n'), w(1000, 'window_requests')),
  },
  {
    id: 'lr-band-wider',
    says: 'The middle band of window p99 values reaches beyond the band of independent draws at both ends.',
    check: every([
      less('long-runs.correlation.w1000.window_band_lo_ms', 'long-runs.correlation.w1000.iid_band_lo_ms'),
      greater('long-runs.correlation.w1000.window_band_hi_ms', 'long-runs.correlation.w1000.iid_band_hi_ms'),
    ]),
  },
  {
    id: 'lr-too-narrow',
    says: 'Intervals computed under independence come out too narrow, at every window size.',
    check: every(WINDOWS.map((s) => above(w(s, 'too_narrow_x'), 1)), 'every window size'),
  },
  {
    id: 'lr-edge-collapse',
    says: 'At the edge of the peak long runs collapsed, and the share’s interval lies above the share just below the peak.',
    check: every([atLeast(`${EDGE}.collapsed_runs`, 1), greater(`${EDGE}.collapsed_share_pct@lo`, `${BELOW}.collapsed_share_pct`)]),
  },
  {
    id: 'lr-edge-when',
    says: 'When an edge run collapses is itself random: the latest collapse came more than twice as late as the median one, and the median one more than twice as late as the earliest.',
    check: every([
      ratioAtLeast(`${EDGE}.collapse_after_h@seeds-max`, `${EDGE}.collapse_after_h@median`, 2),
      ratioAtLeast(`${EDGE}.collapse_after_h@median`, `${EDGE}.collapse_after_h@seeds-min`, 2),
    ]),
  },
  {
    id: 'lr-edge-after',
    says: 'In the median edge run the worst window is over ten seconds, ten times the one-second collapse line, and the run preempts where the runs at {long-runs.load90.load_pct} never do.',
    check: every([
      above(`${EDGE}.max_window_p99_s@median`, 10),
      atLeast(`${EDGE}.preemptions@median`, 1),
      atMost('long-runs.load90.preemptions@seeds-max', 0),
    ]),
  },
  {
    id: 'lr-below-peak-mostly-clean',
    says: 'Just below the peak fewer runs collapsed than at the edge, some went through an episode and recovered, and the median run’s worst window stayed under the one-second collapse line.',
    check: every([
      less(`${BELOW}.collapsed_runs`, `${EDGE}.collapsed_runs`),
      atLeast(`${BELOW}.episode_runs`, 1),
      below(`${BELOW}.max_window_p99_s@median`, 1),
    ]),
  },
  {
    id: 'lr-90-no-preemption',
    says: 'At {long-runs.load90.load_pct} of the peak no run collapsed or had an episode, and not a single request was preempted in any run.',
    check: every([
      atMost('long-runs.load90.collapsed_runs', 0),
      atMost('long-runs.load90.episode_runs', 0),
      atMost('long-runs.load90.preemptions@seeds-max', 0),
    ]),
  },
  {
    id: 'lr-short-healthy',
    says: 'In the median edge run the worst window of the first minutes is within a fifth of the median healthy run’s at {long-runs.load90.load_pct}, and some of the runs that later collapsed looked that clean.',
    check: every([
      within(`${EDGE}.worst_short_window_p99_ms@median`, 'long-runs.load90.worst_short_window_p99_ms@median', 0.2),
      atLeast(`${EDGE}.collapsed_after_clean_short_run`, 1),
    ]),
  },
  {
    id: 'lr-short-blip',
    says: 'In some edge runs a window of the first minutes had already crossed the collapse line.',
    check: every([atLeast(`${EDGE}.short_run_blips`, 1), greater(`${EDGE}.worst_short_window_p99_ms@seeds-max`, 'long-runs.config.collapse_ms')]),
  },
  {
    id: 'lr-cost-dearer',
    says: 'Serving at {long-runs.load90.load_pct} of the peak, where no long run collapsed or had an episode, makes each token dearer than the peak implies.',
    check: every([above('long-runs.cost.load90_over_peak_pct', 0), atMost('long-runs.load90.collapsed_runs', 0), atMost('long-runs.load90.episode_runs', 0)]),
  },
  {
    id: 'sens-no-effect-disappears',
    says: 'Under every variant, in every single run as well as in the median, each effect remains: the first wave inflates the p99 over tenfold, the omission ratio is over tenfold, the definitions disagree by over a half, the metronome ratio is over one and a half.',
    check: every([
      above('sensitivity.range.first_wave.seeds_min_x', 10),
      above('sensitivity.range.omission.seeds_min_x', 10),
      above('sensitivity.range.definitions_spread.min_x', 1.5),
      above('sensitivity.range.metronome.seeds_min_x', 1.5),
    ]),
  },
  {
    id: 'sens-first-wave-20x',
    says: 'In every server’s median the first wave inflates the p99 time to first token more than twentyfold, and single runs range wider than the medians, down to over tenfold.',
    check: every([
      above('sensitivity.range.first_wave.min_x', 20),
      narrower(['sensitivity.range.first_wave.min_x', 'sensitivity.range.first_wave.max_x'], ['sensitivity.range.first_wave.seeds_min_x', 'sensitivity.range.first_wave.seeds_max_x']),
      above('sensitivity.range.first_wave.seeds_min_x', 10),
    ]),
  },
  {
    id: 'sens-first-wave-seeds-wider',
    says: 'On the baseline server alone the first-wave factor scatters over seeds beyond the range the variants span, at both ends.',
    check: every([
      less('sensitivity.baseline.first_wave_x@seeds-min', 'sensitivity.range.first_wave.min_x'),
      greater('sensitivity.baseline.first_wave_x@seeds-max', 'sensitivity.range.first_wave.max_x'),
    ]),
  },
  {
    id: 'sens-efficiencies-move-omission',
    says: 'By the servers’ medians the compute and bandwidth efficiencies move the omission ratio most: every variant of another constant lies between the two compute-efficiency values, and between the two bandwidth-efficiency values.',
    check: every(
      VARIANTS.filter((v) => !v.startsWith('eta_')).flatMap((v) => [
        less(medOmission(v), medOmission('eta_compute_0.90')),
        greater(medOmission(v), medOmission('eta_compute_0.60')),
        // Less bandwidth efficiency, longer service times: the lower efficiency gives the larger ratio.
        less(medOmission(v), medOmission('eta_memory_0.75')),
        greater(medOmission(v), medOmission('eta_memory_0.95')),
      ]),
    ),
  },
  {
    id: 'sens-omission-seeds-wider',
    says: 'Single runs spread the omission ratio much wider than the servers’ medians do, beyond their range at both ends.',
    check: every([
      less('sensitivity.range.omission.seeds_min_x', 'sensitivity.range.omission.min_x'),
      greater('sensitivity.range.omission.seeds_max_x', 'sensitivity.range.omission.max_x'),
      narrower(['sensitivity.range.omission.min_x', 'sensitivity.range.omission.max_x'], ['sensitivity.range.omission.seeds_min_x', 'sensitivity.range.omission.seeds_max_x']),
    ]),
  },
  {
    id: 'sens-printed-flat',
    says: 'Between {omission.load50.load_pct} and {omission.load125.load_pct} of capacity the printed p99 does not rise in any server’s median run.',
    check: below('sensitivity.range.printed_p99_change.max_pct', 0),
  },
  {
    id: 'sens-printed-seeds',
    says: 'In single runs the printed p99 between the same loads falls in some and rises in others.',
    check: every([below('sensitivity.range.printed_p99_change.seeds_min_pct', 0), above('sensitivity.range.printed_p99_change.seeds_max_pct', 0)]),
  },
  {
    id: 'sens-metronome-budget',
    says: 'The metronome ratio follows the token budget: it rises from the smallest budget through the baseline to the largest.',
    check: monotone(['budget_2048', 'baseline', 'budget_16384'].map((v) => sens(v, 'metronome_x')), 'rising'),
  },
  {
    id: 'sens-kv-unchanged',
    says: 'The KV pool’s size leaves every effect exactly where the baseline put it.',
    check: every(['kv_300k', 'kv_600k'].flatMap((v) => EFFECTS.map((e) => within(sens(v, e), sens('baseline', e), 0)))),
  },
  {
    id: 'sens-kv-never-full',
    says: 'No run of the sensitivity study comes close to filling the KV pool: the fullest step of any run with the smaller pool holds under half of it.',
    check: ratioAtLeast('sensitivity.kv_300k.setting', 'sensitivity.kv_300k.peak_kv_tokens@seeds-max', 2),
  },
];

