/**
 * Every definition's whole form (src/tools/base/definitions.ts WholeForm)
 * against its per-record form, on the golden cases simulated, on every real
 * result file with records, and on records made to hit each reason a value
 * is missing: the whole form gives up exactly when some record has no value,
 * and otherwise gives the per-record values bit for bit.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { caseFromJson } from '../src/sim/case.ts';
import { simulate } from '../src/sim/index.ts';
import { fromSimResult } from '../src/metrics/index.ts';
import { importResultFile } from '../src/importers/load.ts';
import { successful, withOption, wholeFormOfDefinition, type Maybe } from '../src/tools/base/definitions.ts';
import type { RequestRecord } from '../src/tools/base/records.ts';
import { vllmTpot } from '../src/tools/vllm/definitions.ts';
import { sglangTpot } from '../src/tools/sglang/definitions.ts';
import { inferencexTpot } from '../src/tools/inferencex/definitions.ts';
import { aiperfE2eOutputTokenThroughput, aiperfPerUserThroughput, aiperfSecondsPerToken } from '../src/tools/aiperf/definitions.ts';
import { mlperfTpotNs } from '../src/tools/mlperf/definitions.ts';
import { guidellmInterTokenLatencyMs, guidellmTimePerOutputTokenMs, guidellmTimePerOutputTokenMsPre03, guidellmTtftMs } from '../src/tools/guidellm/definitions.ts';
import {
  llmperfInterTokenLatency, llmperfInterTokenLatencyArticle, llmperfInterTokenLatencyArticleOfAll, llmperfInterTokenLatencyOfAll,
  llmperfRequestOutputThroughput, llmperfRequestOutputThroughputOfAll,
} from '../src/tools/llmperf/definitions.ts';

type Whole = (records: readonly RequestRecord[], out: Float64Array) => boolean;

/** The registered ones (collectAll finds them the same way), and LLMPerf's, which its speeds bind to their options. */
const registered: [string, (r: RequestRecord) => Maybe][] = [
  ['vllmTpot', vllmTpot],
  ...(['sglang', 'openai', 'openai-chat'] as const).map((b): [string, (r: RequestRecord) => Maybe] => [`sglangTpot ${b}`, withOption(sglangTpot, b)]),
  ['sglangTpot (default backend)', sglangTpot],
  ...(['completions', 'chat'] as const).map((e): [string, (r: RequestRecord) => Maybe] => [`inferencexTpot ${e}`, withOption(inferencexTpot, e)]),
  ['inferencexTpot (default endpoint)', inferencexTpot],
  ['aiperfPerUserThroughput', aiperfPerUserThroughput],
  ['aiperfE2eOutputTokenThroughput', aiperfE2eOutputTokenThroughput],
  ['aiperfSecondsPerToken', aiperfSecondsPerToken],
  ['mlperfTpotNs', mlperfTpotNs],
  ['guidellmTtftMs', guidellmTtftMs],
  ['guidellmTimePerOutputTokenMs', guidellmTimePerOutputTokenMs],
  ['guidellmTimePerOutputTokenMsPre03', guidellmTimePerOutputTokenMsPre03],
  ['guidellmInterTokenLatencyMs', guidellmInterTokenLatencyMs],
];
const FORMS: { name: string; record: (r: RequestRecord) => Maybe; whole: Whole }[] = [
  ...registered.map(([name, record]) => ({ name, record, whole: wholeFormOfDefinition(record)! })),
  ...[0, 1, 2].map((nc) => ({ name: `llmperfInterTokenLatency nc ${nc}`, record: (r: RequestRecord) => llmperfInterTokenLatency(r, { nonContentMessages: nc }), whole: (rs: readonly RequestRecord[], out: Float64Array) => llmperfInterTokenLatencyOfAll(rs, out, nc) })),
  ...[
    [1, false],
    [1.25, false],
    [1, true],
  ].flatMap(([f, asIs]) => [
    { name: `llmperfInterTokenLatencyArticle ${f} ${asIs}`, record: (r: RequestRecord) => llmperfInterTokenLatencyArticle(r, f as number, asIs as boolean), whole: (rs: readonly RequestRecord[], out: Float64Array) => llmperfInterTokenLatencyArticleOfAll(rs, out, f as number, asIs as boolean) },
    { name: `llmperfRequestOutputThroughput ${f} ${asIs}`, record: (r: RequestRecord) => llmperfRequestOutputThroughput(r, f as number, asIs as boolean), whole: (rs: readonly RequestRecord[], out: Float64Array) => llmperfRequestOutputThroughputOfAll(rs, out, f as number, asIs as boolean) },
  ]),
];

/** What the two forms say of a list of records: the values (as bits, -0 and NaN told apart) when every record has one, else null. */
function byRecord(records: readonly RequestRecord[], f: (r: RequestRecord) => Maybe): number[] | null {
  const out = new Float64Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const v = f(records[i]);
    if (v.value === null) return null;
    out[i] = v.value;
  }
  return Array.from(new BigUint64Array(out.buffer), Number);
}
function byWhole(records: readonly RequestRecord[], whole: Whole): number[] | null {
  const out = new Float64Array(records.length);
  return whole(records, out) ? Array.from(new BigUint64Array(out.buffer), Number) : null;
}

/** Each form's disagreements on one list of records (empty when they agree). */
function disagreements(records: readonly RequestRecord[]): string[] {
  const bad: string[] = [];
  for (const f of FORMS) {
    const a = byRecord(records, f.record);
    const b = byWhole(records, f.whole);
    if (isDeepStrictEqual(a, b)) continue;
    bad.push(a && b ? `${f.name}: the values differ` : `${f.name}: per record ${a === null ? 'a value is missing' : 'every value is there'}, the whole form ${b === null ? 'gives up' : 'gives every value'}`);
  }
  return bad;
}

const GOLDEN = join(import.meta.dirname, 'fixtures', 'golden');
const REAL = join(import.meta.dirname, '..', '..', 'shared', 'real-results');

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]))
    .filter((f) => !f.endsWith('README.md'))
    .sort();
}

describe('whole forms agree with the per-record definitions', () => {
  it('every registered definition has its whole form', () => {
    expect(registered.filter(([, f]) => wholeFormOfDefinition(f) === undefined).map(([n]) => n)).toEqual([]);
  });

  for (const f of readdirSync(GOLDEN).filter((x) => x.endsWith('.json')).sort()) {
    it(`on the golden case ${f}, simulated`, () => {
      const { cfg, workload, client } = caseFromJson(JSON.parse(readFileSync(join(GOLDEN, f), 'utf8')), f);
      const recs = successful(fromSimResult(simulate(cfg, workload, client, { recordTokens: true }), { client }));
      expect(disagreements(recs)).toEqual([]);
      // where every request streams two tokens or more, every record has every value: collect() never falls back to the record-by-record pass
      if (recs.every((r) => r.outputTokens! >= 2)) expect(FORMS.filter((x) => byWhole(recs, x.whole) === null).map((x) => x.name)).toEqual([]);
      else expect(FORMS.filter((x) => byWhole(recs, x.whole) === null).length).toBeGreaterThan(0);
    });
  }

  it('on every real result file with records', async () => {
    if (!existsSync(REAL)) throw new Error(`${REAL} is missing: the real result files live beside the repository (../shared/real-results/)`);
    let read = 0;
    const bad: string[] = [];
    for (const file of filesUnder(REAL)) {
      let recs: readonly RequestRecord[];
      try {
        recs = successful((await importResultFile(file)).run);
      } catch {
        continue; // not a file of requests (a log, an aggregate-only summary): the importer tests say why
      }
      if (recs.length === 0) continue;
      read++;
      for (const d of disagreements(recs)) bad.push(`${relative(REAL, file)}: ${d}`);
      // one record at a time too: a file's odd request must not hide behind the others giving up
      for (const r of recs) for (const d of disagreements([r])) bad.push(`${relative(REAL, file)}, one record: ${d}`);
    }
    expect(bad).toEqual([]);
    expect(read).toBeGreaterThanOrEqual(5);
  });

  const base: RequestRecord = {
    dueT: 0.5,
    sendT: 1,
    chunkTimes: Float64Array.of(1.25, 1.5, 2),
    chunkTokens: null,
    firstT: 1.25,
    finishT: 2.125,
    inputTokens: 16,
    outputTokens: 3,
    ok: true,
    preemptions: null,
    requestedOutputTokens: 3,
  };
  const odd: [string, Partial<RequestRecord>][] = [
    ['no chunk times, first token known', { chunkTimes: null }],
    ['no chunk times, last token known', { chunkTimes: null, lastTokenT: 1.75 }],
    ['no chunk times, no first token', { chunkTimes: null, firstT: null }],
    ['no chunk arrived', { chunkTimes: new Float64Array(0), firstT: null }],
    ['one chunk', { chunkTimes: Float64Array.of(1.25) }],
    ['usage 0', { outputTokens: 0 }],
    ['usage 1', { outputTokens: 1 }],
    ['usage 2', { outputTokens: 2 }],
    ['usage negative', { outputTokens: -1 }],
    ['no usage', { outputTokens: null }],
    ['no usage, no requested length', { outputTokens: null, requestedOutputTokens: null }],
    ['no usage, one chunk', { outputTokens: null, chunkTimes: Float64Array.of(1.25) }],
    ['chunk tokens with an empty chunk first', { chunkTokens: [0, 2, 1] }],
    ['chunk tokens all empty', { chunkTokens: [0, 0, 0] }],
    ['no scheduled time', { dueT: null }],
    ['finished as it was sent', { finishT: 1 }],
    ['last chunk at the send time', { chunkTimes: Float64Array.of(1, 1, 1), firstT: 1 }],
    ['first chunk at the send time', { chunkTimes: Float64Array.of(1, 1.5, 2), firstT: 1 }],
    ['equal chunk times', { chunkTimes: Float64Array.of(1.5, 1.5, 1.5), firstT: 1.5 }],
  ];
  it('on records that hit each way a value can be missing, alone and beside a plain one', () => {
    const bad: string[] = [];
    for (const [what, change] of odd) {
      const r = { ...base, ...change };
      for (const recs of [[r], [base, r], [r, base]]) for (const d of disagreements(recs)) bad.push(`${what} (${recs.length} records): ${d}`);
    }
    expect(disagreements([base])).toEqual([]);
    expect(disagreements([])).toEqual([]);
    expect(bad).toEqual([]);
  });
});
