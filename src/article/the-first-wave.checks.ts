/** Checked claims of src/article/the-first-wave.astro, in page order. */
import { above, below, between, every, greater, less, monotone, narrower, ratioAtLeast, ratioBetween, within } from '../claims/predicates.ts';
import { publishedFor } from '../published.ts';
import type { SectionChecks } from '../claims/types.ts';

const fw = (run: string, rest: string) => `first-wave.${run}.${rest}`;
const AFTER64 = 'first-wave.slots64.p99_after_wave_ms';
const rc = (recipe: string, rest: string) => `request-count.${recipe}.${rest}`;

export const CHECKS: SectionChecks = [
  {
    id: 'fw-wave-estimate',
    says: 'The last member of the burst waits about as long as the burst’s prompt takes to prefill: the whole-run p99 is within a tenth of that estimate.',
    check: within(fw('slots64', 'p99_all_ms'), fw('slots64', 'wave_formula_ms'), 0.1),
  },
  {
    id: 'fw-after-two-modes',
    says: 'Over seeds the p99 without the burst at {first-wave.slots64.slots} has two modes, most seeds in the lower, and nothing in between: the upper mode’s lowest seed is more than a tenth above the lower mode’s highest.',
    check: every([
      greater(`${AFTER64}@lower-mode-seeds`, `${AFTER64}@upper-mode-seeds`),
      ratioAtLeast(`${AFTER64}@upper-mode-min`, `${AFTER64}@lower-mode-max`, 1.1),
    ]),
  },
  {
    // The article's value is one draw: it falls in our upper mode, our median in the lower.
    id: 'fw-article-upper-mode',
    says: 'The article’s p99 without the burst at {first-wave.slots64.slots}, {published:first-wave.slots64.p99_after_wave_ms}, lies inside the range of the upper of our two modes; our median lies below that mode.',
    check: every([
      below(`${AFTER64}@upper-mode-min`, publishedFor(AFTER64).published),
      above(`${AFTER64}@upper-mode-max`, publishedFor(AFTER64).published),
      less(`${AFTER64}@median`, `${AFTER64}@upper-mode-min`),
    ]),
  },
  {
    id: 'fw-share-above-hundredth',
    basis: 'setting',
    says: 'The burst is more than the hundredth of the sample the p99 reads.',
    check: above('first-wave.slots64.wave_share_pct', 1),
  },
  {
    id: 'fw-p99-falls',
    says: 'Leaving out the first wave makes the p99 fall, many times over (more than tenfold).',
    check: every([less(fw('slots64', 'p99_after_wave_ms'), fw('slots64', 'p99_all_ms')), above(fw('slots64', 'inflation_x'), 10)]),
  },
  {
    id: 'fw-median-unmoved',
    says: 'The median hardly notices the burst: with and without it, within 5%.',
    check: within(fw('slots64', 'median_all_ms'), fw('slots64', 'median_after_wave_ms'), 0.05),
  },
  {
    id: 'fw-grows-with-slots',
    says: 'The whole-run p99 grows in proportion to the concurrency: each fourfold step in slots multiplies it by 3.5 to 4.5.',
    check: every([
      ratioBetween(fw('slots64', 'p99_all_ms'), fw('slots16', 'p99_all_ms'), 3.5, 4.5),
      ratioBetween(fw('slots256', 'p99_all_ms'), fw('slots64', 'p99_all_ms'), 3.5, 4.5),
    ]),
  },
  {
    id: 'fw-sizes-fall',
    says: 'At the smallest and the largest slot count too, dropping the burst lowers the p99.',
    check: every(['slots16', 'slots256'].map((run) => less(fw(run, 'p99_after_wave_ms'), fw(run, 'p99_all_ms')))),
  },
  {
    id: 'fw-whole-run-steady',
    says: 'At every slot count the whole-run p99 spans a narrower range over seeds (max over min) than the p99 after the burst.',
    check: every(
      ['slots16', 'slots64', 'slots256'].map((run) =>
        narrower([`${fw(run, 'p99_all_ms')}@seeds-min`, `${fw(run, 'p99_all_ms')}@seeds-max`], [`${fw(run, 'p99_after_wave_ms')}@seeds-min`, `${fw(run, 'p99_after_wave_ms')}@seeds-max`]),
      ),
      'every slot count',
    ),
  },
  {
    id: 'fw-dilutes',
    says: 'Collecting more requests per slot lowers the whole-run p99 but leaves it far above the p99 without the burst, because the burst is still more than the hundredth the p99 discards.',
    check: every([
      monotone([fw('slots64', 'p99_all_ms'), fw('slots64_x20', 'p99_all_ms'), fw('slots64_x50', 'p99_all_ms')], 'falling'),
      above(fw('slots64_x50', 'inflation_x'), 5),
      above(fw('slots64_x50', 'wave_share_pct'), 1),
    ]),
  },
  {
    id: 'rc-share-large',
    basis: 'setting',
    says: 'With three or two requests per slot the burst is over a quarter of the sample, far more than the tail.',
    check: every([above('request-count.x3.wave_share_pct', 25), above('request-count.x2.wave_share_pct', 25)]),
  },
  {
    id: 'rc-mean-climbs',
    says: 'With three requests per slot, mean time to first token climbs from the smallest to the largest user count.',
    check: greater(rc('x3', 'slots200.mean_all_ms'), rc('x3', 'slots25.mean_all_ms')),
  },
  {
    id: 'rc-after-wave-flat',
    says: 'Without their first wave the same runs stay nearly flat: highest within a fifth of lowest.',
    check: within(rc('x3', 'mean_after_wave_max_ms'), rc('x3', 'mean_after_wave_min_ms'), 0.2),
  },
  {
    id: 'rc-x2-median-doubles',
    says: 'With two requests per slot the mean is higher still, and the median at the largest user count about doubles (1.7× to 2.5×) against three per slot.',
    check: every([greater(rc('x2', 'slots200.mean_all_ms'), rc('x3', 'slots200.mean_all_ms')), ratioBetween(rc('x2', 'slots200.median_all_ms'), rc('x3', 'slots200.median_all_ms'), 1.7, 2.5)]),
  },
  {
    id: 'rc-x30-not-enough',
    says: 'Even thirty requests per slot leave the mean more than a tenth above its value without the burst.',
    check: above(rc('x30', 'slots200.above_steady_pct'), 10),
  },
  {
    id: 'rc-climb-is-start',
    says: 'At three and at two requests per slot, the first wave accounts for more than nine tenths of the mean’s climb from the fewest to the most users.',
    check: every([above(rc('x3', 'climb_from_wave_pct'), 90), above(rc('x2', 'climb_from_wave_pct'), 90)]),
  },
  {
    id: 'tl-shortfall',
    says: 'Over the whole run throughput is below its value in the steady window.',
    check: above('timeline.x10.whole_below_steady_pct', 0),
  },
  {
    id: 'tl-single-wave-worse',
    says: 'With a single wave the throughput shortfall against the steady window is larger than with ten.',
    check: greater('timeline.x1.whole_below_steady_pct', 'timeline.x10.whole_below_steady_pct'),
  },
  {
    id: 'mn-cohort-budget',
    says: 'With fixed lengths the largest cohort is exactly the number of prompts one step’s budget holds, and the mean is below it.',
    check: every([within('metronome.fixed.cohort_max', 'metronome.prompts_per_step', 0), less('metronome.fixed.cohort_mean', 'metronome.fixed.cohort_max')]),
  },
  {
    id: 'mn-ranged-one-at-a-time',
    says: 'With ranged lengths newcomers arrive essentially one at a time (1 to 1.2 per step) and are answered faster at the median and the p99.',
    check: every([
      between('metronome.ranged.cohort_mean', 1, 1.2),
      less('metronome.ranged.median_ms', 'metronome.fixed.median_ms'),
      less('metronome.ranged.p99_ms', 'metronome.fixed.p99_ms'),
    ]),
  },
  {
    id: 'mn-several-times',
    says: 'The fixed-length median is several times (over three) the ranged one.',
    check: above('metronome.fixed_over_ranged.median_x', 3),
  },
  {
    id: 'mn-range-conventions',
    basis: 'mathematics',
    says: 'The same range ratio reaches far lower and higher lengths under upstream vLLM than under InferenceX’s fork.',
    check: every([less('metronome.range.vllm_lo_tokens', 'metronome.range.inferencex_lo_tokens'), greater('metronome.range.vllm_hi_tokens', 'metronome.range.inferencex_hi_tokens')]),
  },
];
