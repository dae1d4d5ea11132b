/**
 * Presets that reproduce the paper's figures, built at build time (Node) from
 * the experiments' own configurations — never retyped. The rates of the open
 * and capped presets are the closed loop's delivered rate at the same number of
 * slots, computed here by the experiments' own `closedPoint` (as they do).
 * Each preset names its experiment and the article section that shows it;
 * test/explorer-presets.test.ts checks every preset against the experiment's
 * own function, to the last digit.
 */
import { config as firstWave } from '../../experiments/first-wave.ts';
import { config as metronome } from '../../experiments/metronome.ts';
import { config as definitions } from '../../experiments/definitions.ts';
import requestCount from '../../experiments/request-count.ts';
import allAtOnce from '../../experiments/all-at-once.ts';
import openClosed from '../../experiments/open-closed.ts';
import omission from '../../experiments/omission.ts';
import { closedPoint, SWEEP } from '../../experiments/lib/sweep.ts';
import { sectionOfExperiment } from '../outline.ts';
import { defaultParams, describeParams, type Params } from './params.ts';

export interface Preset {
  id: string;
  label: string;
  /** The experiment whose configuration it takes (experiments/<id>.ts). */
  experiment: string;
  /** Anchor of the article section that shows it (src/outline.ts). */
  section: string | null;
  /** Generated from the parameters (no number typed). */
  summary: string;
  params: Params;
}

/** openRun's statistics window: it drops this share of requests at each end (experiments/lib/sweep.ts, dropShare). */
const OPEN_DROP_SHARE = 0.1;

export function buildPresets(inflation: number): Preset[] {
  const base = defaultParams(inflation);
  const out: Omit<Preset, 'section' | 'summary'>[] = [];

  // The run drawn in first-wave/ttft (its p99 is first-wave.slots<N>.seed<s>.p99_all_ms).
  const fw = firstWave.figure;
  const fwParams: Params = {
    ...base, client: 'closed', slots: fw.slots, requests: fw.slots * fw.multiplier, seed: fw.seed,
    lengths: 'inferencex', isl: firstWave.isl, osl: firstWave.osl, ratio: firstWave.rangeRatio,
  };
  out.push({ id: 'first-wave', label: 'The first wave', experiment: 'first-wave', params: fwParams });
  out.push({ id: 'first-wave-after', label: 'The first wave, left out', experiment: 'first-wave', params: { ...fwParams, warmup: fw.slots } });

  // request-count/mean_ttft at three requests per slot, the highest concurrency of the sweep.
  const rc = requestCount.config;
  const rcMult = rc.multipliers.find((m) => m === 3) ?? rc.multipliers[0];
  const rcSlots = Math.max(...rc.concurrency);
  out.push({
    id: 'request-count', label: `Request count, ${rcMult}× the slots`, experiment: 'request-count',
    params: { ...base, client: 'closed', slots: rcSlots, requests: rcSlots * rcMult, lengths: 'fixed', isl: rc.isl, osl: rc.osl },
  });

  // All at once: every prompt at t = 0.
  const aa = allAtOnce.config;
  out.push({
    id: 'all-at-once', label: 'All at once', experiment: 'all-at-once',
    params: { ...base, client: 'open', rate: Infinity, requests: aa.prompts, lengths: 'fixed', isl: aa.isl, osl: aa.osl },
  });

  // metronome/ttft: fixed and ranged lengths, steady state (the first wave left out).
  const mt = metronome;
  const mtBase: Params = { ...base, client: 'closed', slots: mt.slots, requests: mt.slots * mt.multiplier, warmup: mt.slots, isl: mt.length, osl: mt.length, seed: mt.seeds[0] };
  out.push({ id: 'metronome-fixed', label: 'Metronome: fixed lengths', experiment: 'metronome', params: { ...mtBase, lengths: 'fixed' } });
  out.push({ id: 'metronome-ranged', label: 'Metronome: ranged lengths', experiment: 'metronome', params: { ...mtBase, lengths: 'inferencex', ratio: mt.rangeRatio } });

  // open-closed/p99 at 64 slots: the closed point (steady window = without the first wave) and its Poisson twin.
  const oc = openClosed.config;
  const ocSlots = oc.slots.includes(64) ? 64 : oc.slots[Math.floor(oc.slots.length / 2)];
  const sweep: Params = { ...base, lengths: 'inferencex', isl: SWEEP.isl, osl: SWEEP.osl, ratio: SWEEP.rangeRatio };
  out.push({
    id: 'closed-64', label: `Closed loop, ${ocSlots} slots`, experiment: 'open-closed',
    params: { ...sweep, client: 'closed', slots: ocSlots, requests: ocSlots * SWEEP.multiplier, warmup: ocSlots, seed: SWEEP.seed, stream: `closed-${ocSlots}` },
  });
  const ocRate = closedPoint(ocSlots).rate;
  const drop = Math.floor(oc.openRequests * OPEN_DROP_SHARE);
  out.push({
    id: 'open-64', label: `Open loop at the ${ocSlots}-slot rate`, experiment: 'open-closed',
    params: { ...sweep, client: 'open', rate: ocRate, requests: oc.openRequests, warmup: drop, cooldown: drop, seed: oc.openSeed, stream: `open-${oc.openRequests}` },
  });

  // omission/p99: coordinated omission at 90% and 150% of the capped client's capacity.
  const om = omission.config;
  const capacity = closedPoint(om.cap).rate;
  for (const load of [90, 150].filter((l) => om.loadsPct.includes(l))) {
    out.push({
      id: `omission-${load}`, label: `Coordinated omission, ${load}% load`, experiment: 'omission',
      params: { ...sweep, client: 'capped', rate: (capacity * load) / 100, cap: om.cap, requests: om.requests, seed: om.seed, stream: `capped-${om.requests}` },
    });
  }

  // definitions/speeds: the seven definitions on one closed-loop run.
  const df = definitions;
  out.push({
    id: 'definitions', label: 'Seven definitions, one run', experiment: 'definitions',
    params: { ...base, client: 'closed', slots: df.users, requests: df.prompts, lengths: 'fixed', isl: df.isl, osl: df.osl },
  });

  return out.map((p) => ({ ...p, section: sectionOfExperiment(p.experiment)?.id ?? null, summary: describeParams(p.params) }));
}
