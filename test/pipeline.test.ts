/**
 * The runner's promises: same bytes whatever the worker order; the cache reruns
 * exactly what changed and says why; corrupt entries are recomputed; an
 * interrupted write leaves no entry; failures name the job.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeResult, encodeResult } from '../src/pipeline/codec.ts';
import { writeFileAtomic } from '../src/fs/atomic.ts';
import { mergeNumbers, validateNumbers } from '../src/pipeline/numbers.ts';
import { normalizeSvg } from '../src/pipeline/render.ts';
import { dependencyOrder } from '../src/pipeline/runner.ts';
import { acceptSnapshot } from '../src/pipeline/snapshot.ts';
import { planOf, tempRoots } from './pipeline-helpers.ts';

const make = tempRoots();
// For tests of the cache, the plan and the numbers: no PNG, which is drawn from the SVG after every job (and is make's subject).
const makeWithoutPng = tempRoots({ png: false });

const OUTPUTS = ['src/generated/numbers.json', 'src/generated/figures/alpha.samples.svg', 'src/generated/figures/alpha.samples.png', 'src/generated/data/alpha.json'];

describe('determinism', () => {
  it('gives the same bytes with 1 or 2 workers, in registry or reverse order, cached or fresh', async () => {
    const a = make();
    const b = make();
    await a.run({ jobs: 1 });
    await b.run({ jobs: 2, submitOrder: 'reverse' });
    for (const f of OUTPUTS) expect(b.read(f).equals(a.read(f)), f).toBe(true);
    const again = await a.run({ jobs: 2, submitOrder: 'reverse', force: true });
    expect(planOf(again.lines, 'alpha')).toBe('forced (3 jobs)');
    const warm = await b.run();
    expect(warm.experiments.map((e) => e.ran)).toEqual([0, 0]);
    for (const f of OUTPUTS) expect(b.read(f).equals(a.read(f)), f).toBe(true);
    const numbers = JSON.parse(a.read('src/generated/numbers.json').toString());
    expect(Object.keys(numbers)).toEqual(['alpha.mean_ms', 'alpha.seeds.count', 'beta.mean']);
    expect(numbers['alpha.mean_ms']).toMatchObject({ unit: 'ms', n: 60000, experiment: 'alpha', intervalKind: 'min–max over 3 seeds' });
    // runtimes live in provenance only
    expect(a.read('src/generated/numbers.json').toString()).not.toMatch(/runtime/);
    const index = JSON.parse(a.read('src/generated/figures/index.json').toString());
    expect(index['alpha.samples'].provenance).toMatchObject({ file: 'experiments/alpha.ts', seeds: [1, 2, 3], jobs: 3 });
    const svg = a.read('src/generated/figures/alpha.samples.svg').toString();
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('id="alpha-samples-1"');
    expect(svg).toContain('aria-label="Dots of 75 exponential draws, coloured by seed."');
    expect(svg).not.toMatch(/="[^"]*\d\.\d{3,}/);
  });
});

describe('cache', () => {
  it('reruns only the experiment whose import closure changed, and says which file', async () => {
    const r = makeWithoutPng();
    const cold = await r.run();
    expect(planOf(cold.lines, 'alpha')).toBe('missing (3 jobs)');
    expect(planOf(cold.lines, 'beta')).toBe('missing');
    const warm = await r.run();
    expect([planOf(warm.lines, 'alpha'), planOf(warm.lines, 'beta')]).toEqual(['fresh', 'fresh']);
    expect(warm.experiments.map((e) => e.ran)).toEqual([0, 0]);

    r.edit('experiments/lib/alpha-only.ts', (t) => t.replace('SCALE_MS = 10', 'SCALE_MS = 12'));
    const edited = await r.run();
    expect(planOf(edited.lines, 'alpha')).toBe('stale: experiments/lib/alpha-only.ts changed (3 jobs)');
    expect(planOf(edited.lines, 'beta')).toBe('fresh');
    expect(edited.experiments.map((e) => e.ran)).toEqual([3, 0]);
    expect(edited.numbers['alpha.mean_ms']!.value).not.toBe(cold.numbers['alpha.mean_ms']!.value);
    expect(edited.numbers['beta.mean']).toEqual(cold.numbers['beta.mean']);

    r.edit('experiments/lib/shared.ts', (t) => `${t}\n// a comment is a change too\n`);
    const shared = await r.run();
    expect(planOf(shared.lines, 'alpha')).toBe('stale: experiments/lib/shared.ts changed (3 jobs)');
    expect(planOf(shared.lines, 'beta')).toBe('stale: experiments/lib/shared.ts changed');

    // Back to the old code: its entries are still there (content-addressed).
    r.edit('experiments/lib/alpha-only.ts', (t) => t.replace('SCALE_MS = 12', 'SCALE_MS = 10'));
    r.edit('experiments/lib/shared.ts', (t) => t.replace('\n// a comment is a change too\n', ''));
    const back = await r.run();
    expect(back.experiments.map((e) => e.ran)).toEqual([0, 0]);
    expect(back.numbers).toEqual(cold.numbers);
  });

  it('reruns on a changed seed or config', async () => {
    const r = makeWithoutPng();
    await r.run();
    r.edit('experiments/alpha.ts', (t) => t.replace('seeds: [1, 2, 3]', 'seeds: [1, 2, 4]'));
    const seeds = await r.run();
    // The config lives in the module, so both are said.
    expect(planOf(seeds.lines, 'alpha')).toBe('stale: config changed, experiments/alpha.ts changed (3 jobs)');
    expect(seeds.experiments[0]!.ran).toBe(3);
    expect(planOf(seeds.lines, 'beta')).toBe('fresh');
    r.edit('experiments/beta.ts', (t) => t.replace('draws: 5_000', 'draws: 5_001'));
    const config = await r.run();
    expect(planOf(config.lines, 'beta')).toBe('stale: config changed, experiments/beta.ts changed');
    expect(planOf(config.lines, 'alpha')).toBe('fresh');
  });

  it('detects a corrupt entry, recomputes it and never trusts it', async () => {
    const r = makeWithoutPng();
    const first = await r.run();
    const dir = join(r.root, '.cache', 'experiments', 'alpha', 'seed-2');
    const [entry] = readdirSync(dir);
    const path = join(dir, entry!);
    const text = readFileSync(path, 'utf8');
    // Same length, one digit changed in the result: only the hash can tell.
    const body = text.indexOf('\n') + 1;
    const at = text.indexOf('"mean":', body) + 8;
    const flipped = text.slice(0, at) + (text[at] === '1' ? '2' : '1') + text.slice(at + 1);
    writeFileSync(path, flipped);
    const again = await r.run();
    expect(planOf(again.lines, 'alpha')).toBe('corrupt: entry of job seed-2 corrupt (hash mismatch) (1 of 3 jobs)');
    expect(again.experiments[0]!.ran).toBe(1);
    expect(again.numbers).toEqual(first.numbers);
    const rewritten = readFileSync(path, 'utf8');
    expect(rewritten.slice(rewritten.indexOf('\n'))).toBe(text.slice(text.indexOf('\n')));
    writeFileSync(path, 'garbage');
    expect(planOf((await r.run()).lines, 'alpha')).toMatch(/^corrupt: entry of job seed-2 corrupt \(unreadable header\)/);
  });

  it('leaves no entry (and no temp file) when a write fails half-way', async () => {
    const r = makeWithoutPng(['experiments/beta.ts']);
    const halfThenFail = async (tmp: string, data: string | Uint8Array) => {
      await writeFile(tmp, typeof data === 'string' ? data.slice(0, data.length >> 1) : data.subarray(0, data.length >> 1));
      throw new Error('disk full');
    };
    await expect(r.run({ effects: { writeCacheEntry: (p, d) => writeFileAtomic(p, d, halfThenFail) } })).rejects.toThrow('disk full');
    expect(r.cacheFiles()).toEqual([]);
    const next = await r.run();
    expect(planOf(next.lines, 'beta')).toBe('missing');
    expect(r.cacheFiles()).toHaveLength(1);
  });
});

describe('failures', () => {
  it('names the job that timed out', async () => {
    const r = makeWithoutPng(['experiments/spin.ts']);
    // Half a second, said as it was set, not rounded to whole seconds.
    await expect(r.run({ timeoutSeconds: 0.5 })).rejects.toThrow(/^job spin\/forever timed out after 0.5 s /);
    expect(r.cacheFiles()).toEqual([]);
  });

  it('keeps NaN, ±Infinity and typed arrays exact through the cache', () => {
    const value = { a: Number.NaN, b: [Number.POSITIVE_INFINITY, -Infinity, 1.5], c: new Float64Array([0.1, Number.NaN]), d: new Uint32Array([4294967295]) };
    const back = decodeResult(encodeResult(value, 'x')) as typeof value;
    expect(back.a).toBeNaN();
    expect(back.b).toEqual([Infinity, -Infinity, 1.5]);
    expect(back.c).toBeInstanceOf(Float64Array);
    expect(Array.from(back.c)).toEqual([0.1, Number.NaN]);
    expect(back.d).toEqual(new Uint32Array([4294967295]));
    expect(() => encodeResult(undefined, 'x')).toThrow('x is undefined');
  });

  it('names the job that threw, and refuses results JSON cannot hold', async () => {
    const r = makeWithoutPng(['experiments/broken.ts']);
    await expect(r.run({ jobs: 1 })).rejects.toThrow(/job broken\/throws failed: the simulator fell over/);
    r.edit('experiments/broken.ts', (t) => t.replace("{ id: 'throws', params: { kind: 'throws' } }, ", ''));
    await expect(r.run()).rejects.toThrow('job broken/map failed: broken/map: runJob\'s result: the value at key "counts" is a Map; return arrays or plain objects');
  });

  it('rejects two experiments with one id, naming both files', async () => {
    const r = makeWithoutPng(['experiments/beta.ts', 'experiments/beta-copy.ts']);
    writeFileSync(join(r.root, 'experiments', 'beta-copy.ts'), readFileSync(join(r.root, 'experiments', 'beta.ts')));
    await expect(r.run()).rejects.toThrow('experiment id beta is used by both experiments/beta.ts and experiments/beta-copy.ts');
  });

  it('rejects duplicate and invalid numbers, naming them', () => {
    const n = { value: 1, unit: 'ms', n: 1, interval: null };
    expect(() => mergeNumbers([{ experiment: 'a', numbers: { 'b.c': n } }, { experiment: 'a.b', numbers: { c: n } }])).toThrow(
      'number id a.b.c is produced by both a and a.b',
    );
    expect(() => validateNumbers('x', { p99: { ...n, value: Number.NaN } })).toThrow('x: number "p99": value is NaN');
    expect(() => validateNumbers('x', { p99: { ...n, interval: [2, 1] } })).toThrow('has low > high');
  });

  it('checks a spread over seeds and writes it in a fixed order after the known fields', () => {
    const n = { value: 40, unit: 'ms', n: 576, interval: null };
    const spread = { max: 59, q3: 52, median: 40, q1: 39, min: 38 };
    // Per-seed values in seed order: seed 1 has the maximum, seed 2 the minimum.
    const perSeed = { seeds: Array.from({ length: 20 }, (_, i) => i + 1), values: [59, 38, ...Array<number>(18).fill(40)] };
    expect(() => validateNumbers('x', { p99: { ...n, seeds: 20, spread, perSeed } })).not.toThrow();
    expect(() => validateNumbers('x', { p99: { ...n, seeds: 20, spread } })).toThrow('seeds is 20 but perSeed is missing');
    expect(() => validateNumbers('x', { p99: { ...n, seeds: 20, spread, perSeed: { ...perSeed, values: perSeed.values.slice(1) } } })).toThrow('perSeed holds 20 seeds and 19 values');
    expect(() => validateNumbers('x', { p99: { ...n, seeds: 20, spread, perSeed: { ...perSeed, seeds: [...perSeed.seeds].reverse() } } })).toThrow('must be ascending integers');
    expect(() => validateNumbers('x', { p99: { ...n, seeds: 20, spread, perSeed: { ...perSeed, values: [60, ...perSeed.values.slice(1)] } } })).toThrow('perSeed.values span 38–60 but spread says 38–59');
    expect(() => validateNumbers('x', { p99: { ...n, seeds: 20 } })).toThrow('x: number "p99": seeds is 20 but spread is missing');
    expect(() => validateNumbers('x', { p99: { ...n, spread } })).toThrow('seeds is undefined');
    expect(() => validateNumbers('x', { p99: { ...n, seeds: 20, spread: { ...spread, q1: 45 } } })).toThrow('is not ordered');
    const modes = [{ min: 38, median: 39, max: 42, seeds: 13 }, { min: 51, median: 55, max: 59, seeds: 6 }] as [never, never];
    expect(() => validateNumbers('x', { p99: { ...n, seeds: 20, spread: { ...spread, modes } } })).toThrow('seeds add up to 20');
    const merged = mergeNumbers([{ experiment: 'a', numbers: { p99: { ...n, perSeed, seeds: 20, spread, level: 0.95 } } }]);
    expect(Object.keys(merged['a.p99']!)).toEqual(['value', 'unit', 'n', 'interval', 'level', 'seeds', 'spread', 'perSeed', 'experiment']);
    expect(merged['a.p99']!.perSeed).toEqual(perSeed);
    expect(Object.keys(merged['a.p99']!.spread!)).toEqual(['min', 'q1', 'median', 'q3', 'max']);
  });
});

describe('--only', () => {
  it('keeps the other experiments\' outputs, and a registry path that does not exist is an error', async () => {
    const r = makeWithoutPng(['experiments/alpha.ts', 'experiments/beta.ts']);
    const full = await r.run();
    r.edit('experiments/beta.ts', (t) => t.replace('draws: 5_000', 'draws: 6_000'));
    const only = await r.run({ only: ['alpha'] });
    expect(only.experiments.map((e) => e.id)).toEqual(['alpha']);
    expect(only.numbers['beta.mean']).toEqual(full.numbers['beta.mean']);
    expect(existsSync(join(r.root, 'src/generated/figures/alpha.samples.svg'))).toBe(true);
    await expect(r.run({ only: ['gamma'] })).rejects.toThrow('--only: no experiment gamma (known: alpha, beta)');
    await expect(r.run({ registry: ['experiments/beta.ts', 'experiments/later.ts'] })).rejects.toThrow('experiments/index.ts: experiments/later.ts does not exist');
    await r.run({ registry: ['experiments/beta.ts'] });
    expect(existsSync(join(r.root, 'src/generated/figures/alpha.samples.svg'))).toBe(false);
  });
});

describe('needs', () => {
  it('combines an experiment after the ones it needs, and pulls them into --only', async () => {
    const r = makeWithoutPng(['experiments/gamma.ts', 'experiments/beta.ts']);
    const all = await r.run();
    expect(all.numbers['gamma.double_mean']!.value).toBe(2 * all.numbers['beta.mean']!.value);
    expect(Object.keys(all.numbers)).toEqual(['beta.mean', 'gamma.double_mean']);
    const only = await r.run({ only: ['gamma'] });
    expect(only.experiments.map((e) => e.id)).toEqual(['gamma', 'beta']);
    r.edit('experiments/gamma.ts', (t) => t.replace("deps.number('beta.mean')", "deps.number('beta.median')"));
    await expect(r.run()).rejects.toThrow('gamma: deps.number("beta.median"): beta has no such number');
    r.edit('experiments/gamma.ts', (t) => t.replace("deps.number('beta.median')", "deps.number('alpha.mean_ms')"));
    await expect(r.run()).rejects.toThrow('gamma: deps.number("alpha.mean_ms"): not a number of an experiment it needs (needs: beta)');
  });

  it('orders by needs and names a cycle', () => {
    expect(dependencyOrder([{ id: 'a', needs: ['c'] }, { id: 'b' }, { id: 'c', needs: ['b'] }])).toEqual(['b', 'c', 'a']);
    expect(() => dependencyOrder([{ id: 'a', needs: ['b'] }, { id: 'b', needs: ['a'] }])).toThrow('experiments need each other in a cycle: a → b → a');
  });
});

describe('npm run snapshot', () => {
  it('copies numbers and figures, says what changed, removes stale figures, refuses under CI', async () => {
    const r = make(['experiments/alpha.ts']);
    await r.run({ png: false });
    const lines: string[] = [];
    expect(() => acceptSnapshot({ root: r.root, env: { CI: 'true' }, log: (l) => lines.push(l) })).toThrow('refusing to write snapshots under CI');
    writeFileSync(join(r.root, 'src/generated/figures/alpha.samples.png'), 'png');
    const first = acceptSnapshot({ root: r.root, env: {}, log: (l) => lines.push(l) });
    expect(first.numbers).toEqual(['alpha.mean_ms', 'alpha.seeds.count']);
    expect(first.figures.added).toEqual(['alpha.samples.narrow.svg', 'alpha.samples.png', 'alpha.samples.svg']);
    expect(r.read('test/snapshots/numbers.json').equals(r.read('src/generated/numbers.json'))).toBe(true);
    writeFileSync(join(r.root, 'test/snapshots/figures/gone.svg'), '<svg/>');
    const second = acceptSnapshot({ root: r.root, env: {}, log: (l) => lines.push(l) });
    expect(second).toEqual({ numbers: [], figures: { changed: [], added: [], removed: ['gone.svg'] } });
    expect(lines[0]).toBe('snapshot: 2 numbers changed; figures: 0 changed, 3 new, 0 removed');
    const after = await r.run({ png: false });
    expect(after.numberChanges).toEqual([]);
    expect(after.figureChanges).toEqual([]);
    expect(after.lines).toContain('numbers and figures match test/snapshots/ (2 numbers, 1 figures)');
  });

  it('never copies a corrupt build into the snapshot; a corrupt old snapshot is simply replaced', async () => {
    const r = make(['experiments/alpha.ts']);
    await r.run({ png: false });
    acceptSnapshot({ root: r.root, env: {}, log: () => {} });
    const good = r.read('test/snapshots/numbers.json');
    r.edit('src/generated/numbers.json', (t) => t.slice(0, t.length >> 1));
    expect(() => acceptSnapshot({ root: r.root, env: {}, log: () => {} })).toThrow(/src\/generated\/numbers\.json is not valid JSON .*rebuild \(npm run build\) and accept again/);
    expect(r.read('test/snapshots/numbers.json').equals(good)).toBe(true);
    await r.run({ png: false });
    writeFileSync(join(r.root, 'test/snapshots/numbers.json'), '{"broken');
    acceptSnapshot({ root: r.root, env: {}, log: () => {} });
    expect(r.read('test/snapshots/numbers.json').equals(r.read('src/generated/numbers.json'))).toBe(true);
  });
});

describe('normalizeSvg', () => {
  it('renumbers ids with the figure prefix and rounds numbers in attributes only', () => {
    const svg =
      '<svg width="640"><clipPath id="plot-clip-7"><rect x="1.23456" /></clipPath>' +
      '<g clip-path="url(#plot-clip-7)" class="plot-d6a7b5"><path d="M0.004,-0.001L10.5,3" /><text x="3.14159">0.12345</text></g></svg>';
    expect(normalizeSvg(svg, 'first-wave.ttft')).toBe(
      '<svg width="640"><clipPath id="first-wave-ttft-1"><rect x="1.23" /></clipPath>' +
        '<g clip-path="url(#first-wave-ttft-1)" class="plot-d6a7b5"><path d="M0,0L10.5,3" /><text x="3.14">0.12345</text></g></svg>',
    );
  });
  it('leaves hex colours alone (#009E73 is not the number 9e73)', () => {
    const svg = '<svg><rect fill="#009E73" stroke="#D55E00" style="color:#56B4E9;opacity:0.123456" /></svg>';
    expect(normalizeSvg(svg, 'x')).toBe('<svg><rect fill="#009E73" stroke="#D55E00" style="color:#56B4E9;opacity:0.12" /></svg>');
  });
});
