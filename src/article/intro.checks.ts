/** Checked claims of src/article/intro.astro (the findings), in page order. */
import { above, atLeast, every, greater, less, ratioAtLeast } from '../claims/predicates.ts';
import type { SectionChecks } from '../claims/types.ts';

export const CHECKS: SectionChecks = [
  {
    id: 'intro-tail-is-start',
    says: 'Dropping the opening burst lowers the whole-run p99 time to first token more than tenfold, to a value with two modes over seeds, most seeds in the lower and nothing in between (the upper mode starts more than a tenth above the lower).',
    check: every([
      less('first-wave.slots64.p99_after_wave_ms', 'first-wave.slots64.p99_all_ms'),
      above('first-wave.slots64.inflation_x', 10),
      greater('first-wave.slots64.p99_after_wave_ms@lower-mode-seeds', 'first-wave.slots64.p99_after_wave_ms@upper-mode-seeds'),
      ratioAtLeast('first-wave.slots64.p99_after_wave_ms@upper-mode-min', 'first-wave.slots64.p99_after_wave_ms@lower-mode-max', 1.1),
    ]),
  },
  {
    id: 'intro-ledge',
    says: 'Fed the sweep’s peak rate as Poisson arrivals, the server collapsed in some of the runs.',
    check: atLeast('open-closed.peak_open.collapsed', 1),
  },
  {
    id: 'intro-cap-hides',
    says: 'At an offered load equal to capacity, the p99 from each request’s scheduled time is more than tenfold the one from the send.',
    check: above('omission.load100.due_over_send_p99_x', 10),
  },
  {
    id: 'intro-token-unit',
    says: 'Llama 2’s tokenizer counts more tokens than Llama 3’s on our documentation corpus.',
    check: above('tokens.llmperf_inflation.english_docs_pct', 0),
  },
];
