/**
 * No row is shown with a unit it was not computed in, for the formats of
 * inference-perf, llm-d's Benchmark Report and evalscope: every reported value
 * of every such real file (../shared/real-results/) and of the writer-built
 * evalscope fixtures is walked, and its unit is checked against what the
 * writer computed it in — the report's own `units` field for an llm-d
 * report, the unit in the key's name for evalscope, and for inference-perf
 * the quantity `summarize_requests` (reportgen/base.py @7de5ef2) puts under
 * that name. Times are compared in SI: the writer's ms must come back as s
 * with the number as written kept beside it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { evalscopeDb, evalscopePercentiles, evalscopeSummary } from './helpers/evalscope-fixtures.ts';
import { runCli } from './helpers/cli.ts';
import { scratchDir } from './helpers/scratch.ts';

const REAL = join(import.meta.dirname, '..', '..', 'shared', 'real-results');
if (!existsSync(REAL)) throw new Error(`${REAL} is missing: the real result files live beside the repository (../shared/real-results/)`);

type Reported = Record<string, { value: number; unit: string; written?: { value: number; unit: string } }>;
type Row = { tool: string; unit: string; quantity: string };

async function json(file: string): Promise<{ format: string; reported: Reported | null; rows: Row[] }> {
  const r = await runCli(['metrics', file, '--json']);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
}

/** What inference-perf's summarize_requests computes under each name: the last named part of the path decides. */
function inferencePerfUnit(path: string): string {
  const name = path.replace(/\.(mean|min|max|median|p\d+(\.\d+)?)$/, '').split('.');
  const leaf = name.at(-1)!;
  const under = name.join('.');
  if (/^(count|concurrency|good_requests|total_requests|token_count_mismatches)$/.test(leaf) && !/\.(image|video|audio)\.count$/.test(under)) return 'requests';
  if (/(latency|time_to_first_token|time_per_output_token|schedule_delay|send_duration|benchmark_time_seconds)$/.test(leaf) || under === 'successes.audio.seconds') return 's';
  if (/^(requested_rate|achieved_rate|requests_per_sec|request_goodput)$/.test(leaf)) return '1/s';
  if (/tokens_per_sec$|^token_goodput$/.test(leaf)) return 'tokens/s';
  const media = /^(image|video|audio)s_per_sec$/.exec(leaf);
  if (media) return `${media[1]}s/s`;
  if (/^(prompt_len|output_len|prompt_tokens|output_tokens|total|cached|uncached)$/.test(leaf)) return 'tokens';
  if (/\.(image|video|audio)\.count$/.test(under)) return `${under.split('.').at(-2)}s`;
  if (/bytes$/.test(leaf)) return 'bytes';
  if (leaf === 'pixels') return 'pixels';
  if (leaf === 'frames') return 'frames';
  if (leaf === 'aspect_ratio') return '1';
  if (/percentage$/.test(leaf)) return '%';
  throw new Error(`no expectation for ${path}`);
}

describe('every reported value of the new formats carries its writer’s unit', () => {
  const ipFiles = readdirSync(join(REAL, 'inference-perf')).filter((f) => f.endsWith('_lifecycle_metrics.json') && !f.includes('per_request'));
  it.each([...ipFiles.map((f) => join(REAL, 'inference-perf', f)), join(REAL, 'llm-d', 'llm-d-benchmark-fixture_inference_perf_lifecycle.yaml')])('inference-perf lifecycle: %s', async (file) => {
    const o = await json(file);
    expect(o.format).toBe('inference-perf-lifecycle');
    const keys = Object.keys(o.reported!);
    expect(keys.length).toBeGreaterThan(50);
    for (const k of keys) expect(o.reported![k].unit, k).toBe(inferencePerfUnit(k));
  });

  it('inference-perf per-request rows: its definitions in seconds, as the tool computes them', async () => {
    const o = await json(join(REAL, 'inference-perf', 'pr705-corpus-clean-two-stage_per_request_lifecycle_metrics.json'));
    const mine = o.rows.filter((r) => r.tool === 'inference-perf');
    expect(mine.length).toBeGreaterThan(10);
    for (const r of mine) expect(r.unit).toBe('s');
  });

  it('llm-d report: each statistic in the SI unit of the units the report declares for it', async () => {
    const file = join(REAL, 'llm-d', 'llm-d-benchmark-example_br_v0_2_1_example.yaml');
    const o = await json(file);
    const agg = parse(readFileSync(file, 'utf8')).results.request_performance.aggregate;
    const SI: Record<string, [string, number]> = { s: ['s', 1], ms: ['s', 1e-3], 's/token': ['s', 1], 'ms/token': ['s', 1e-3], 'queries/s': ['1/s', 1], 'tokens/s': ['tokens/s', 1], bytes: ['bytes', 1], pixels: ['pixels', 1], ratio: ['1', 1], 'images/s': ['images/s', 1], 'videos/s': ['videos/s', 1], 'audios/s': ['audios/s', 1] };
    let checked = 0;
    for (const [k, v] of Object.entries(o.reported!)) {
      if (/^requests\.(total|failures|incomplete)$/.test(k)) {
        expect(v.unit).toBe('requests');
        continue;
      }
      const path = k.split('.');
      const stat = path.pop()!;
      const declared = path.reduce((x, p) => x[p], agg);
      expect(declared[stat], k).toBeCloseTo(v.written ? v.written.value : v.value, 12);
      if (declared.units === 'count') expect(v.unit, k).toMatch(/^(tokens|images|videos|frames|audios|1)$/);
      else {
        const [unit, scale] = SI[declared.units];
        expect(v.unit, k).toBe(unit);
        expect(v.value, k).toBeCloseTo(declared[stat] * scale, 12);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('evalscope: each value in the unit its key names, in every file kind and both vintages', async () => {
    const dir = scratchDir('sw-units-');
    const BRACKET: Record<string, string> = { s: 's', ms: 's', 'req/s': '1/s', 'tok/s': 'tokens/s', '%': '%' };
    for (const commit of ['fde259d2', '188bf5fb'] as const) {
      for (const [name, doc] of [['benchmark_summary.json', evalscopeSummary(commit)], ['benchmark_percentile.json', evalscopePercentiles(commit)]] as const) {
        const p = join(dir, `${commit}-${name}`);
        writeFileSync(p, JSON.stringify(doc));
        const o = await json(p);
        for (const [k, v] of Object.entries(o.reported!)) {
          const b = /\(([^)]+)\)(\.[a-z0-9.]+)?$/.exec(k);
          if (b) {
            const expected = BRACKET[b[1]] + (b[1] === 'tok/s' && name.includes('percentile') ? ' per request' : '');
            expect(v.unit, k).toBe(expected);
            if (b[1] === 'ms') expect(v.written, k).toEqual({ value: expect.closeTo(v.value * 1000, 9), unit: 'ms' });
          } else expect(v.unit, k).toMatch(/^(requests|tokens)$/);
        }
      }
      const db = join(dir, `${commit}.db`);
      writeFileSync(db, await evalscopeDb(commit));
      const rows = (await json(db)).rows.filter((r) => r.tool === 'evalscope');
      expect(rows.length).toBeGreaterThan(10);
      for (const r of rows) expect(r.unit).toBe('s');
    }
  });
});
