/**
 * The paper's numbers and figures against the committed baseline (test/snapshots/).
 * Runs the pipeline first (the cache makes that cheap when nothing changed), so
 * the comparison is always of the current code. On drift: a readable diff for
 * numbers (id: old → new), and `<name>-changed.svg` beside each figure snapshot
 * (ignored by git). Accept with `npm run snapshot`; this test never writes snapshots.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRegistry } from '../src/commands/run.ts';
import { describeNumberChanges, diffNumbers } from '../src/pipeline/numbers.ts';
import { plainReporter } from '../src/pipeline/progress.ts';
import { runPipeline } from '../src/pipeline/runner.ts';
import type { NumbersFile } from '../src/pipeline/types.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GENERATED = join(ROOT, 'src', 'generated');
const SNAPSHOTS = join(ROOT, 'test', 'snapshots');
const ACCEPT = 'accept with `npm run snapshot` (then review `git diff test/snapshots` and commit)';

const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T;

beforeAll(async () => {
  await runPipeline({
    root: ROOT,
    registry: await loadRegistry(ROOT),
    effects: { reporter: plainReporter((l) => console.log(l)) },
  });
}, 3 * 60 * 60 * 1000);

describe('snapshots', () => {
  it('numbers.json matches test/snapshots/numbers.json', () => {
    const snapPath = join(SNAPSHOTS, 'numbers.json');
    if (!existsSync(snapPath)) throw new Error(`no baseline at test/snapshots/numbers.json; ${ACCEPT}`);
    const lines = describeNumberChanges(diffNumbers(readJson<NumbersFile>(snapPath), readJson<NumbersFile>(join(GENERATED, 'numbers.json'))));
    expect(lines, `${lines.length} number(s) differ from the snapshot; ${ACCEPT}:\n  ${lines.join('\n  ')}\n`).toEqual([]);
  });

  it('every figure SVG matches its snapshot', () => {
    const index = readJson<Record<string, { svg: string; png: string | null }>>(join(GENERATED, 'figures', 'index.json'));
    const problems: string[] = [];
    for (const [key, entry] of Object.entries(index)) {
      const snap = join(SNAPSHOTS, 'figures', entry.svg);
      const changed = snap.replace(/\.svg$/, '-changed.svg');
      const current = readFileSync(join(GENERATED, 'figures', entry.svg));
      if (!existsSync(snap)) {
        problems.push(`${key}: no snapshot (test/snapshots/figures/${entry.svg})`);
        continue;
      }
      const expected = readFileSync(snap);
      if (expected.equals(current)) {
        rmSync(changed, { force: true });
        continue;
      }
      writeFileSync(changed, current);
      if (entry.png && existsSync(join(GENERATED, 'figures', entry.png))) {
        writeFileSync(changed.replace(/\.svg$/, '.png'), readFileSync(join(GENERATED, 'figures', entry.png)));
      }
      let at = 0;
      while (at < expected.length && expected[at] === current[at]) at++;
      const near = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, at - 40), at + 40).toString('utf8'));
      problems.push(`${key}: differs from byte ${at}\n    was ${near(expected)}\n    now ${near(current)}\n    new version: test/snapshots/figures/${entry.svg.replace(/\.svg$/, '-changed.svg')}`);
    }
    const generated = new Set(Object.values(index).map((e) => e.svg));
    const snaps = existsSync(join(SNAPSHOTS, 'figures')) ? readdirSync(join(SNAPSHOTS, 'figures')) : [];
    for (const f of snaps) if (f.endsWith('.svg') && !f.endsWith('-changed.svg') && !generated.has(f)) problems.push(`${f}: snapshot of a figure the build no longer makes`);
    expect(problems, `${problems.length} figure(s) differ from the snapshots; ${ACCEPT}:\n  ${problems.join('\n  ')}\n`).toEqual([]);
  });
});
