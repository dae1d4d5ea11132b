/**
 * Nothing wrong is ever published: a corrupt bundle, PNG or SVG, and a build
 * killed between an SVG and its PNG, are each detected and repaired by the next
 * build, which ends byte-identical to a clean one; two cold builds in different
 * folders write the same bytes; file-system faults and failing user code are
 * one line each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../src/errors.ts';
import { writeFileAtomic } from '../src/fs/atomic.ts';
import { workerCount } from '../src/pipeline/runner.ts';
import { generatedOutputs, planOf, referenceOutputs, REPO, tempRoots, type TempRoot } from './pipeline-helpers.ts';

const make = tempRoots();

/** src/generated of a clean build in another folder (pipeline-helpers.ts: built once per test worker). */
let reference: ReadonlyMap<string, string>;
beforeAll(async () => {
  reference = await referenceOutputs();
});

/** Every file under a folder of a root, path → bytes. */
function tree(r: TempRoot, dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const abs = join(r.root, dir);
  for (const f of (readdirSync(abs, { recursive: true }) as string[]).sort()) {
    const p = join(abs, f);
    try {
      out.set(f, readFileSync(p));
    } catch {
      /* a folder */
    }
  }
  return out;
}

/** `r`'s src/generated holds exactly the files of the clean build, byte for byte. */
function expectClean(r: TempRoot): void {
  const got = generatedOutputs(r.root);
  expect([...got.keys()]).toEqual([...reference.keys()]);
  for (const [f, bytes] of reference) expect(got.get(f) === bytes, `src/generated/${f}`).toBe(true);
}

/** The clean build's bytes of a file under src/generated/figures. */
const cleanFigure = (name: string) => Buffer.from(reference.get(`figures/${name}`)!, 'base64');

const FIG = 'src/generated/figures/alpha.samples';
const bundles = (r: TempRoot) => readdirSync(join(r.root, '.cache', 'bundles')).filter((f) => /^alpha-[0-9a-f]{16}\.mjs$/.test(f));

describe('determinism across folders', () => {
  it('two cold builds in different folders write byte-identical src/generated/, run times kept apart', async () => {
    const a = make();
    await a.run({ jobs: 1 });
    expectClean(a);
    expect([...tree(a, 'src/generated').keys()]).toEqual([
      'data/alpha.json', 'data/beta.json', 'experiments.json', 'figures/alpha.samples.narrow.svg', 'figures/alpha.samples.png', 'figures/alpha.samples.svg', 'figures/index.json', 'number-ids.d.ts', 'numbers.json',
    ]);
    for (const [f, bytes] of tree(a, 'src/generated')) if (!f.endsWith('.png')) expect(bytes.toString(), f).not.toMatch(/runtime/i);
    expect(Object.keys(JSON.parse(a.read('.cache/runtimes.json').toString()))).toEqual(['alpha', 'beta']);
    expect(a.read('src/generated/number-ids.d.ts').toString()).toContain('export type NumberId =\n  | "alpha.mean_ms"\n  | "alpha.seeds.count"\n  | "beta.mean";\n');
    // A typo in an id is a type error, with the nearest id suggested.
    writeFileSync(join(a.root, 'ids.ts'), "import type { NumberId } from './src/generated/number-ids';\nexport const ok: NumberId = 'alpha.mean_ms';\nexport const typo: NumberId = 'alpha.mean_sm';\n");
    // Only ids.ts and the generated declarations: without `types` tsc would also check every @types package the
    // linked node_modules holds (@types/node alone is 60 files), and the DOM library, which neither file uses (5 s of CPU).
    writeFileSync(join(a.root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [], lib: ['es2022'] }, files: ['ids.ts'] }));
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: a.root, encoding: 'utf8' });
    expect(tsc.status).not.toBe(0);
    expect(tsc.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^ids\.ts\(3,14\): error TS\d+: Type '"alpha\.mean_sm"' is not assignable to type 'NumberId'\. Did you mean '"alpha\.mean_ms"'\?$/)]);
  });
});

describe('fault injection', () => {
  it('a corrupt bundle, PNG and SVG, and a kill between an SVG and its PNG: each repaired, ending identical to a clean build', async () => {
    const r = make();
    await r.run();
    expectClean(r);

    // 1. A bundle edited in place (a changed unit factor): detected, rebuilt, numbers unchanged.
    const [bundle] = bundles(r);
    const bundlePath = join(r.root, '.cache', 'bundles', bundle!);
    writeFileSync(bundlePath, readFileSync(bundlePath, 'utf8').replace('SCALE_MS = 10', 'SCALE_MS = 11'));
    const edited = await r.run();
    expect(edited.lines).toContain(`corrupt: bundle .cache/bundles/${bundle} (hash mismatch); rebuilt`);
    expect(planOf(edited.lines, 'alpha')).toBe('fresh');
    expectClean(r);

    // ...and truncated, with --force too: no crash, rebuilt, the same outputs.
    truncateSync(bundlePath, 100);
    const forced = await r.run({ force: true });
    expect(forced.lines).toContain(`corrupt: bundle .cache/bundles/${bundle} (hash mismatch); rebuilt`);
    expect(planOf(forced.lines, 'alpha')).toBe('forced (3 jobs)');
    expectClean(r);

    // 2. Two bytes flipped in the PNG: redrawn.
    const png = readFileSync(join(r.root, `${FIG}.png`));
    png[png.length >> 1] ^= 0xff;
    png[(png.length >> 1) + 1] ^= 0xff;
    writeFileSync(join(r.root, `${FIG}.png`), png);
    expect((await r.run()).pngsDrawn).toEqual(['alpha.samples']);
    expectClean(r);

    // 3. The SVG corrupted: rewritten; its PNG, drawn from the right SVG, is kept.
    writeFileSync(join(r.root, `${FIG}.svg`), readFileSync(join(r.root, `${FIG}.svg`), 'utf8').replace('<svg', '<svg data-x="1"'));
    expect((await r.run()).pngsDrawn).toEqual([]);
    expectClean(r);

    // 4. Killed between writing an SVG and its PNG: restyle, then go back to the old style and die
    //    before the PNG is written. The old (restyled) PNG is beside the new SVG: redrawn next time.
    r.edit('experiments/figures/alpha.ts', (t) => t.replace("label: 'latency (ms)'", "label: 'latency (milliseconds)'"));
    await r.run();
    r.edit('experiments/figures/alpha.ts', (t) => t.replace("label: 'latency (milliseconds)'", "label: 'latency (ms)'"));
    const killed = (p: string, d: string | Uint8Array) => (p.endsWith('.png') ? Promise.reject(new Error('killed')) : writeFileAtomic(p, d));
    await expect(r.run({ effects: { writeFile: killed } })).rejects.toThrow('killed');
    expect(r.read(`${FIG}.svg`).equals(cleanFigure('alpha.samples.svg'))).toBe(true);
    expect(r.read(`${FIG}.png`).equals(cleanFigure('alpha.samples.png'))).toBe(false);
    expect((await r.run()).pngsDrawn).toEqual(['alpha.samples']);
    expectClean(r);

    // 5. A PNG deleted, or the figure index gone: redrawn.
    rmSync(join(r.root, `${FIG}.png`));
    expect((await r.run()).pngsDrawn).toEqual(['alpha.samples']);
    writeFileSync(join(r.root, 'src/generated/figures/index.json'), '{"truncated');
    const noIndex = await r.run();
    expect(noIndex.lines.some((l) => /^corrupt: src\/generated\/figures\/index\.json is not valid JSON \(.*\); every PNG is redrawn$/.test(l))).toBe(true);
    expect(noIndex.pngsDrawn).toEqual(['alpha.samples']);
    expectClean(r);
  });

  it('the snapshot comparison reads PNGs and reports one that alone differs apart, not as a change (the figure rule)', async () => {
    const r = make(['experiments/alpha.ts']);
    await r.run();
    mkdirSync(join(r.root, 'test/snapshots/figures'), { recursive: true });
    writeFileSync(join(r.root, 'test/snapshots/numbers.json'), r.read('src/generated/numbers.json'));
    writeFileSync(join(r.root, 'test/snapshots/figures/alpha.samples.svg'), r.read(`${FIG}.svg`));
    writeFileSync(join(r.root, 'test/snapshots/figures/alpha.samples.narrow.svg'), r.read(`${FIG}.narrow.svg`));
    const png = r.read(`${FIG}.png`);
    png[png.length >> 1] ^= 0xff;
    writeFileSync(join(r.root, 'test/snapshots/figures/alpha.samples.png'), png);
    const res = await r.run();
    expect(res.figureChanges).toEqual([]);
    expect(res.lines).toContain('figures whose PNG alone differs from test/snapshots/ (SVG identical, not a change): alpha.samples');
    const index = JSON.parse(r.read('src/generated/experiments.json').toString());
    expect(index.experiments[0].snapshot).toEqual({ status: 'match', numbers: 0, figures: 0 });
    // The SVG is what counts: change it and the figure differs.
    writeFileSync(join(r.root, 'test/snapshots/figures/alpha.samples.svg'), `${r.read(`${FIG}.svg`).toString()}<!-- -->`);
    const svg = await r.run();
    expect(svg.figureChanges).toEqual(['alpha.samples']);
    expect(svg.lines).toContain('  figures: alpha.samples (SVG, PNG)');
  });

  it('sweeps temp files of killed writers from every folder the build writes', async () => {
    const r = make(['experiments/beta.ts']);
    await r.run();
    // pid 2^22 + 1 is above Linux's pid_max ceiling: no live process has it.
    const orphan = 'x.json.tmp-4194305-deadbeef';
    const dirs = ['src/generated', 'src/generated/data', '.cache/bundles', '.cache/experiments/beta', '.cache'];
    for (const d of dirs) writeFileSync(join(r.root, d, orphan), 'half');
    await r.run();
    for (const d of dirs) expect(existsSync(join(r.root, d, orphan)), d).toBe(false);
  });
});

describe('limits and one-line errors', () => {
  it('caps --jobs at the jobs to run and the cores, and says so', async () => {
    expect(workerCount(10_000, 3, 2)).toBe(2);
    expect(workerCount(10_000, 1, 8)).toBe(1);
    expect(workerCount(undefined, 50, 4)).toBe(4);
    const r = make(['experiments/alpha.ts']);
    const res = await r.run({ jobs: 10_000, png: false });
    expect(res.lines.find((l) => l.startsWith('running '))).toMatch(/^running 3 jobs on [123] workers? \(--jobs 10000 capped at [123]: 3 jobs to run, \d+ cores?\)$/);
  });

  it('a read-only output folder, a folder where a cache entry belongs, a full disk: one line naming the path', async () => {
    const r = make(['experiments/beta.ts']);
    const denied = (code: string) => (p: string) => Promise.reject(Object.assign(new Error(`${code}: ${p}`), { code, path: `${p}.tmp-1-abcd` }));
    await expect(r.run({ effects: { writeFile: denied('EACCES') } })).rejects.toThrow(
      /^cannot write src\/generated\/data\/beta\.json: permission denied; make it writable \(chmod -R u\+w\) or run as its owner \(EACCES\)$/,
    );
    await expect(r.run({ force: true, effects: { writeFile: denied('ENOSPC') } })).rejects.toThrow(/^cannot write src\/generated\/data\/beta\.json: the disk is full; .* \(ENOSPC\)$/);
    // A real EISDIR: the cache entry's path is a folder.
    const dir = join(r.root, '.cache', 'experiments', 'beta', 'all');
    const [entry] = readdirSync(dir);
    rmSync(join(dir, entry!));
    mkdirSync(join(dir, entry!, 'x'), { recursive: true });
    const err = await r.run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(`cannot write .cache/experiments/beta/all/${entry}: a folder is where a file belongs; remove that folder (EISDIR)`);
  });

  it('a combine or a figure that throws is one line; a failing job never crashes the pool', async () => {
    const r = make(['experiments/beta.ts']);
    r.edit('experiments/beta.ts', (t) => t.replace('combine(config, [r]) {', 'combine(config, [r]) {\n    (null as unknown as { x: number }).x;'));
    await expect(r.run()).rejects.toThrow(/^beta: combine failed: TypeError: Cannot read properties of null \(reading 'x'\)$/);
    const a = make(['experiments/alpha.ts']);
    a.edit('experiments/figures/alpha.ts', (t) => t.replace('samples: (data) => ({', 'samples: (data) => ({ ...(data as unknown as { no: { x: 1 } }).no.x,'));
    await expect(a.run()).rejects.toThrow(/^figure alpha\.samples failed: TypeError: /);
    // Two failing jobs on two workers, several times: the second one's reply may arrive after it was aborted.
    const b = make(['experiments/broken.ts']);
    for (let i = 0; i < 4; i++) await expect(b.run({ jobs: 2 })).rejects.toThrow(/^job broken\/(throws|map) failed: /);
  });
});
