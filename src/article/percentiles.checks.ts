/** Checked claims of src/article/percentiles.astro, in page order. */
import { above, atLeast, atMost, below, every, greater, kOfN, less, monotone, within } from '../checks/predicates.ts';
import type { SectionChecks } from '../checks/types.ts';

const WINDOWS = [100, 300, 1000, 3000];
const w = (size: number, rest: string) => `long-runs.correlation.w${size}.${rest}`;
const EDGE = [1, 2, 3].map((s) => `long-runs.load98.seed${s}`);
const sens = (variant: string, effect: string) => `sensitivity.${variant}.${effect}`;
const VARIANTS = ['baseline', 'eta_compute_0.60', 'eta_compute_0.90', 'eta_memory_0.75', 'eta_memory_0.95', 'overhead_0.5ms', 'overhead_2ms', 'kv_300k', 'kv_600k', 'budget_2048', 'budget_16384'];
const EFFECTS = ['first_wave_x', 'omission_x', 'definitions_spread_x', 'metronome_x', 'printed_p99_change_pct'];

export const CHECKS: SectionChecks = [
  {
    id: 'os-max-bound-small-run',
    says: 'A run of the small size has fewer requests than the maximum needs to bound the p99, and its maximum exceeds the p99 less often than the confidence asked for.',
    check: every([
      less('order-statistics.config.small_n', 'order-statistics.max_bounds_p99.min_n'),
      less('order-statistics.max_exceeds_p99.n100_pct', 'order-statistics.config.confidence_pct'),
    ]),
  },
  {
    id: 'os-p999-needs-more',
    says: 'The p99.9 needs more requests than the p99 before its largest sample bounds it.',
    check: greater('order-statistics.max_bounds_p999.min_n', 'order-statistics.max_bounds_p99.min_n'),
  },
  {
    id: 'os-coverage-close',
    says: 'The interval’s coverage is close to the target (within 5%) but not equal to it.',
    check: every([within('order-statistics.p99_interval.n1000.coverage_pct', 'order-statistics.config.confidence_pct', 0.05), greater('order-statistics.p99_interval.n1000.coverage_pct', 'order-statistics.config.confidence_pct')]),
  },
  {
    id: 'os-mlperf-rises',
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
    id: 'lr-effective-n',
    says: 'A window of consecutive requests pins down the p99 like fewer independent ones.',
    check: less(w(1000, 'effective_n'), w(1000, 'window_requests')),
  },
  {
    id: 'lr-too-narrow',
    says: 'Intervals computed under independence come out too narrow, at every window size.',
    check: every(WINDOWS.map((s) => above(w(s, 'too_narrow_x'), 1)), 'every window size'),
  },
  {
    id: 'lr-edge-all-collapse',
    says: 'At the edge of the peak every long run collapsed.',
    check: every(EDGE.map((s) => atLeast(`${s}.collapsed`, 1))),
  },
  {
    id: 'lr-edge-order',
    says: 'The edge runs collapsed in the order the page lists them, and the later a run collapsed, the lower its worst window and its preemptions.',
    check: every([
      monotone([EDGE[1], EDGE[0], EDGE[2]].map((s) => `${s}.collapse_after_min`), 'rising'),
      monotone([EDGE[1], EDGE[0], EDGE[2]].map((s) => `${s}.max_window_p99_s`), 'falling'),
      monotone([EDGE[1], EDGE[0], EDGE[2]].map((s) => `${s}.preemptions`), 'falling'),
    ]),
  },
  {
    id: 'lr-below-peak-clean',
    says: 'Just below the peak neither long run collapsed, and the worst window of each stayed under a second.',
    check: every([atMost('long-runs.load95.collapsed_runs', 0), below('long-runs.load95.seed1.max_window_p99_s', 1), below('long-runs.load95.seed2.max_window_p99_s', 1)]),
  },
  {
    id: 'lr-90-no-preemption',
    says: 'At {long-runs.load90.load_pct} of the peak not a single request was preempted.',
    check: atMost('long-runs.load90.seed1.preemptions', 0),
  },
  {
    id: 'lr-short-healthy',
    says: 'In two of the three edge runs the first minutes’ worst window stayed under 100 ms, as a healthy server’s does.',
    check: every([below('long-runs.load98.seed2.worst_short_window_p99_ms', 100), below('long-runs.load98.seed3.worst_short_window_p99_ms', 100)]),
  },
  {
    id: 'lr-short-blip',
    says: 'In the third edge run a window of the first minutes already went over a second.',
    check: above('long-runs.load98.seed1.worst_short_window_p99_ms', 1000),
  },
  {
    id: 'lr-five-of-six',
    says: 'Of the six long runs, the first minutes looked clean (worst window under a second) in five, and three of the six collapsed later.',
    check: every([
      kOfN(
        ['long-runs.load90.seed1', 'long-runs.load95.seed1', 'long-runs.load95.seed2', ...EDGE].map((s) => below(`${s}.worst_short_window_p99_ms`, 1000)),
        5,
      ),
      atLeast('long-runs.load98.collapsed_runs', 3),
    ]),
  },
  {
    id: 'lr-cost-dearer',
    says: 'Serving below the peak makes each token dearer than the peak implies.',
    check: above('long-runs.cost.load90_over_peak_pct', 0),
  },
  {
    id: 'sens-no-effect-disappears',
    says: 'Under every variant each effect remains: the first wave inflates the p99 over tenfold, the omission ratio is over tenfold, the definitions disagree by over a half, the metronome ratio is over one and a half.',
    check: every([
      above('sensitivity.range.first_wave.min_x', 10),
      above('sensitivity.range.omission.min_x', 10),
      above('sensitivity.range.definitions_spread.min_x', 1.5),
      above('sensitivity.range.metronome.min_x', 1.5),
    ]),
  },
  {
    id: 'sens-first-wave-20x',
    says: 'Under every variant the first wave inflates the p99 time to first token more than twentyfold.',
    check: above('sensitivity.range.first_wave.min_x', 20),
  },
  {
    id: 'sens-efficiencies-move-omission',
    says: 'The compute and bandwidth efficiencies move the omission ratio most: every other variant lies between the lowest and highest compute-efficiency values.',
    check: every(
      VARIANTS.filter((v) => !v.startsWith('eta_')).flatMap((v) => [
        less(sens(v, 'omission_x'), sens('eta_compute_0.90', 'omission_x')),
        greater(sens(v, 'omission_x'), sens('eta_compute_0.60', 'omission_x')),
      ]),
    ),
  },
  {
    id: 'sens-printed-flat',
    says: 'Between {omission.load50.load_pct} and {omission.load125.load_pct} of capacity the printed p99 does not rise under any variant.',
    check: below('sensitivity.range.printed_p99_change.max_pct', 0),
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
];

