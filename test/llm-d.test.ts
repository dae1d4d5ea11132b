/**
 * llm-d's Benchmark Report v0.2.1: the schema's example (../shared/real-results/llm-d/)
 * is read and passes our encoding of the schema's rules; a broken report is
 * refused naming the rule; `metrics FILE --to br-v0.2.1 OUT` writes our
 * recomputation, which passes the same rules, reads back, and is written
 * atomically, never over anything but a regular file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importResult } from '../src/importers/index.ts';
import { importResultFile } from '../src/importers/load.ts';
import { brProblem } from '../src/tools/llm-d/schema.ts';
import { runCli } from './helpers/cli.ts';
import { scratchDir } from './helpers/scratch.ts';

const REAL = join(import.meta.dirname, '..', '..', 'shared', 'real-results');
if (!existsSync(REAL)) throw new Error(`${REAL} is missing: the real result files live beside the repository (../shared/real-results/)`);
const example = join(REAL, 'llm-d', 'llm-d-benchmark-example_br_v0_2_1_example.yaml');
const lifecycle = join(REAL, 'llm-d', 'llm-d-benchmark-fixture_inference_perf_lifecycle.yaml');
const perRequest = join(REAL, 'inference-perf', 'pr705-corpus-clean-two-stage_per_request_lifecycle_metrics.json');
const vllmNoStarts = join(REAL, 'vllm', 'lambdalabs-llama3-8b-h100-len2048.json');

const tmp = () => scratchDir('sw-brv021-');
const exampleDoc = () => parse(readFileSync(example, 'utf8'));

describe('reading a benchmark report', () => {
  it('the two llm-d files are told apart: the schema example is a report, the other an inference-perf lifecycle report', async () => {
    expect((await importResultFile(example)).format).toBe('br-v0.2.1');
    expect((await importResultFile(lifecycle)).format).toBe('inference-perf-lifecycle');
  });

  it('the example: statistics in SI units as the report declares them, its inconsistencies named', async () => {
    const res = await importResultFile(example);
    const doc = exampleDoc();
    const lat = doc.results.request_performance.aggregate.latency;
    expect(res.version).toMatch(/v0\.2\.1 \(load generator: inference-perf 0\.3\.0\)/);
    expect(res.reported['latency.time_to_first_token.p99']).toEqual({ value: lat.time_to_first_token.p99, unit: 's' });
    expect(lat.time_per_output_token.units).toBe('s/token');
    expect(res.reported['latency.time_per_output_token.mean'].unit).toBe('s');
    expect(res.reported['throughput.request_rate.mean'].unit).toBe('1/s');
    expect(res.reported['requests.input_length.mean'].unit).toBe('tokens');
    expect(res.reported['requests.total']).toEqual({ value: doc.results.request_performance.aggregate.requests.total, unit: 'requests' });
    const notes = res.notes.join(' ');
    expect(notes).toMatch(/run\.time\.duration PT49\.97206788184121S \(49\.97 s\) is not run\.time\.end − run\.time\.start \(981 s\)/);
    expect(notes).toMatch(/request_latency mean equals time_per_output_token mean/);
  });

  it('the example passes our encoding of the schema; each broken rule is named', () => {
    const doc = exampleDoc();
    expect(brProblem(doc)).toBeNull();
    const wrongUnit = exampleDoc();
    wrongUnit.results.request_performance.aggregate.latency.time_per_output_token.units = 's';
    expect(brProblem(wrongUnit)).toBe('results.request_performance.aggregate.latency.time_per_output_token.units: units must be one of: ms/token s/token');
    const noUid = exampleDoc();
    delete noUid.run.uid;
    expect(brProblem(noUid)).toMatch(/^run\.uid: /);
    const extra = exampleDoc();
    extra.results.request_performance.aggregate.latency.ttft = { units: 's', mean: 1 };
    expect(brProblem(extra)).toBe('results.request_performance.aggregate.latency: "ttft" is not a field of the schema (extra fields are forbidden)');
    const negative = exampleDoc();
    negative.results.request_performance.aggregate.requests.total = -1;
    expect(brProblem(negative)).toMatch(/^results\.request_performance\.aggregate\.requests\.total: /);
  });

  it('a broken report is refused with one line naming the file and the rule', () => {
    const text = readFileSync(example, 'utf8').replace(/units: s\/token/, 'units: tokens/s');
    expect(() => importResult('br.yaml', text)).toThrow(/^br\.yaml: breaks the benchmark report v0\.2\.1 schema at results\.request_performance\.aggregate\.latency\.\w+\.units: units must be one of: ms\/token s\/token$/);
    expect(() => importResult('old.json', JSON.stringify({ version: '0.1', run: {}, results: {} }))).toThrow(/^old\.json: version 0\.1: this reader knows the benchmark report v0\.2\.1/);
  });
});

describe('metrics --to br-v0.2.1', () => {
  it('writes our recomputation as a valid report that reads back with the same numbers', async () => {
    const dir = tmp();
    const out = join(dir, 'report.yaml');
    const r = await runCli(['metrics', perRequest, '--to', 'br-v0.2.1', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^wrote .*report\.yaml: llm-d Benchmark Report v0\.2\.1 of 6 requests/);
    expect(readdirSync(dir)).toEqual(['report.yaml']);
    const doc = parse(readFileSync(out, 'utf8'));
    expect(brProblem(doc)).toBeNull();
    expect(doc.results.request_performance.aggregate.latency.time_per_output_token.units).toBe('s/token');
    expect(doc.results.profiling.stopwatches.source.format).toBe('inference-perf-requests');
    // the audit's findings ride along in the free-form metadata, the same as `stopwatches audit --json` gives
    const audit = JSON.parse((await runCli(['audit', perRequest, '--json'])).out);
    expect(doc.results.profiling.stopwatches.audit.findings.map((f: { id: string }) => f.id)).toEqual(audit.findings.map((f: { id: string }) => f.id));
    expect(doc.results.profiling.stopwatches.audit.findings.map((f: { verdict: string }) => f.verdict)).toEqual(audit.findings.map((f: { verdict: string }) => f.verdict));
    expect(doc.results.profiling.stopwatches.audit.clauses).toEqual(audit.clauses);
    // the numbers are inference-perf's definitions on the file's records: the same as its rows in `metrics --json`
    const rows = JSON.parse((await runCli(['metrics', perRequest, '--json'])).out).rows as { tool: string; metric: string; value: number }[];
    const row = (m: string) => rows.find((x) => x.tool === 'inference-perf' && x.metric === m)!.value;
    expect(doc.results.request_performance.aggregate.latency.time_to_first_token.mean).toBe(row('time_to_first_token mean'));
    expect(doc.results.request_performance.aggregate.latency.time_per_output_token.p99).toBe(row('time_per_output_token (tokens) p99'));
    const back = await importResultFile(out);
    expect(back.format).toBe('br-v0.2.1');
    expect(back.version).toMatch(/written by stopwatches/);
    expect(back.reported['latency.request_latency.p50'].value).toBe(row('request_latency median'));
    expect(back.reported['requests.failures'].value).toBe(1);
  });

  it('is deterministic, and writes JSON for a .json name', async () => {
    const dir = tmp();
    for (const name of ['a.yaml', 'b.yaml', 'c.json']) expect((await runCli(['metrics', perRequest, '--to', 'br-v0.2.1', join(dir, name)])).code).toBe(0);
    expect(readFileSync(join(dir, 'a.yaml'), 'utf8')).toBe(readFileSync(join(dir, 'b.yaml'), 'utf8'));
    expect(JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'))).toEqual(parse(readFileSync(join(dir, 'a.yaml'), 'utf8')));
  });

  it('leaves out what the file cannot support: no throughput from requests on their own clocks', async () => {
    const out = join(tmp(), 'vllm.yaml');
    expect((await runCli(['metrics', vllmNoStarts, '--to', 'br-v0.2.1', out])).code).toBe(0);
    const doc = parse(readFileSync(out, 'utf8'));
    expect(brProblem(doc)).toBeNull();
    expect(doc.results.request_performance.aggregate.throughput).toBeUndefined();
    expect(doc.results.profiling.stopwatches.not_written).toEqual({ throughput: 'the file lacks timeline' });
  });

  it('refuses, with one line and nothing written: a directory, a symbolic link, the input itself, an aggregate-only file, a wrong name', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'sub.yaml'));
    writeFileSync(join(dir, 'real.yaml'), 'keep\n');
    symlinkSync(join(dir, 'real.yaml'), join(dir, 'link.yaml'));
    const cases: [string[], RegExp][] = [
      [[perRequest, '--to', 'br-v0.2.1', join(dir, 'sub.yaml')], /sub\.yaml: is not a regular file \(a directory\)/],
      [[perRequest, '--to', 'br-v0.2.1', join(dir, 'link.yaml')], /link\.yaml: is not a regular file \(a symbolic link\)/],
      [[perRequest, '--to', 'br-v0.2.1', join(dir, 'report.txt')], /report\.txt: name the report \.yaml, \.yml or \.json/],
      [[lifecycle, '--to', 'br-v0.2.1', join(dir, 'agg.yaml')], /holds no per-request records, so there is nothing to recompute/],
      [[perRequest, '--to', 'br-v0.3', join(dir, 'x.yaml')], /unknown --to "br-v0\.3"; supported: br-v0\.2\.1/],
      [[perRequest, '--to', 'br-v0.2.1'], /--to br-v0\.2\.1 needs the file to write/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['metrics', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
    const copy = join(dir, 'input.json');
    writeFileSync(copy, readFileSync(perRequest));
    const self = await runCli(['metrics', copy, '--to', 'br-v0.2.1', join(dir, 'input.json').replace('input.json', './input.json')]);
    expect(self.code).toBe(2);
    expect(self.err).toMatch(/is the input file/);
    expect(readFileSync(join(dir, 'real.yaml'), 'utf8')).toBe('keep\n');
    expect(readdirSync(dir).sort()).toEqual(['input.json', 'link.yaml', 'real.yaml', 'sub.yaml']);
  });
});
