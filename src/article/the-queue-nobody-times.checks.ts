/** Checked claims of src/article/the-queue-nobody-times.astro, in page order. */
import { above, atLeast, between, every, greater, less, monotone, narrower, ratioBetween, within } from '../claims/predicates.ts';
import type { SectionChecks } from '../claims/types.ts';

const om = (load: number, rest: string) => `omission.load${load}.${rest}`;
const OVERLOAD = [110, 125, 150];

export const CHECKS: SectionChecks = [
  {
    id: 'om-send-narrow',
    says: 'The from-send p99 of the first token keeps to a narrow band over the whole sweep: its highest value is within a quarter of its lowest.',
    check: within('omission.p99_ttft_send.max_ms', 'omission.p99_ttft_send.min_ms', 0.25),
  },
  {
    id: 'om-due-80-above',
    says: 'At {omission.load80.load_pct} of capacity the from-due p99 is already above the printed one in the median seed, by between a fifth and a double, and several times it in the worst seed.',
    check: every([
      greater(`${om(80, 'p99_ttft_due_ms')}@median`, `${om(80, 'p99_ttft_send_ms')}@median`),
      between(`${om(80, 'due_over_send_p99_x')}@median`, 1.2, 2),
      above(`${om(80, 'due_over_send_p99_x')}@seeds-max`, 3),
    ]),
  },
  {
    id: 'om-due-rises',
    says: 'The from-due p99 rises at every step of offered load from {omission.load80.load_pct} of capacity to {omission.load150.load_pct}.',
    check: monotone([80, 90, 100, 110, 125, 150].map((l) => om(l, 'p99_ttft_due_ms')), 'rising'),
  },
  {
    id: 'om-surplus-queues',
    says: 'Past capacity the achieved rate stays below the offered rate and never above capacity.',
    check: every([
      ...OVERLOAD.map((l) => less(om(l, 'achieved_req_per_s'), om(l, 'offered_req_per_s'))),
      less('omission.achieved.max_req_per_s', 'omission.capacity_req_per_s'),
    ]),
  },
  {
    id: 'om-due-fragile',
    says: 'At {omission.load90.load_pct} of capacity the from-send p99 spans a narrower range over seeds than the from-due p99, and at {omission.load80.load_pct} and {omission.load90.load_pct} the from-due p99’s within-run interval is narrower than its range over seeds.',
    check: every([
      narrower([`${om(90, 'p99_ttft_send_ms')}@seeds-min`, `${om(90, 'p99_ttft_send_ms')}@seeds-max`], [`${om(90, 'p99_ttft_due_ms')}@seeds-min`, `${om(90, 'p99_ttft_due_ms')}@seeds-max`]),
      ...[80, 90].map((l) => narrower([`${om(l, 'p99_ttft_due_ms')}@lo`, `${om(l, 'p99_ttft_due_ms')}@hi`], [`${om(l, 'p99_ttft_due_ms')}@seeds-min`, `${om(l, 'p99_ttft_due_ms')}@seeds-max`])),
    ]),
  },
  {
    id: 'om-e2e-split',
    says: 'At {omission.load150.load_pct} the printed end-to-end p99 is within 2% of its value at capacity, while the experienced one is far above it.',
    check: every([within(om(150, 'p99_e2e_send_s'), om(100, 'p99_e2e_send_s'), 0.02), greater(om(150, 'p99_e2e_due_s'), om(150, 'p99_e2e_send_s'))]),
  },
  {
    id: 'om-grows-with-length',
    says: 'At {omission.load150.load_pct} of capacity the from-due p99 rises with the run’s length, from a run of {omission.load150.requests2000.requests} to one of {omission.config.requests} it grows by 1.5× to 2.5×.',
    check: every([
      monotone([om(150, 'requests2000.p99_ttft_due_ms'), om(150, 'requests3000.p99_ttft_due_ms'), om(150, 'p99_ttft_due_ms')], 'rising'),
      ratioBetween(om(150, 'p99_ttft_due_ms'), om(150, 'requests2000.p99_ttft_due_ms'), 1.5, 2.5),
    ]),
  },
  {
    id: 'om-goodput-readings',
    says: 'At {omission.load150.load_pct} vLLM’s goodput equals the achieved rate because every request passes from the send, while far fewer pass from when they were due.',
    check: every([
      within(om(150, 'vllm_goodput_req_per_s'), om(150, 'achieved_req_per_s'), 0),
      atLeast(om(150, 'slo_attainment_send_pct'), 100),
      less(om(150, 'slo_attainment_due_pct'), om(150, 'slo_attainment_send_pct')),
    ]),
  },
  {
    id: 'om-distserve-next-fails',
    says: 'DistServe’s goodput is below capacity, and at capacity, the next point up, the from-due attainment misses the required share.',
    check: every([less('omission.distserve_goodput_req_per_s', 'omission.capacity_req_per_s'), less(om(100, 'slo_attainment_due_pct'), 'omission.slo.attainment_pct')]),
  },
];
