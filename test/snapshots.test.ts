/**
 * The paper's numbers and figures against the committed baseline (test/snapshots/).
 * Runs the pipeline first (the cache makes that cheap when nothing changed), so
 * the comparison is always of the current code. On drift: a readable diff for
 * numbers (id: old → new), and `<key>-changed.svg|png` beside each figure snapshot
 * (ignored by git). Accept with `npm run snapshot`; this test never writes snapshots.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRegistry } from '../src/commands/run.ts';
import { changedFileName, compareOutputs, describeNumberChanges, GENERATED_DIR, outputPaths, readOutputDir, SNAPSHOT_DIR, type Comparison, type OutputSet } from '../src/pipeline/outputs.ts';
import { plainReporter } from '../src/pipeline/progress.ts';
import { runPipeline } from '../src/pipeline/runner.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ACCEPT = 'accept with `npm run snapshot` (then review `git diff test/snapshots` and commit)';

let build: OutputSet;
let comparison: Comparison;

beforeAll(async () => {
  await runPipeline({
    root: ROOT,
    registry: await loadRegistry(ROOT),
    effects: { reporter: plainReporter((l) => console.log(l)) },
  });
  const snapshot = readOutputDir(join(ROOT, SNAPSHOT_DIR), SNAPSHOT_DIR, ACCEPT);
  build = readOutputDir(join(ROOT, GENERATED_DIR), GENERATED_DIR, 'build first: `npm run build`');
  comparison = compareOutputs(snapshot, build);
}, 3 * 60 * 60 * 1000);

describe('snapshots', () => {
  it('numbers.json matches test/snapshots/numbers.json', () => {
    const lines = describeNumberChanges(comparison.numbers);
    expect(lines, `${lines.length} number(s) differ from the snapshot; ${ACCEPT}:\n  ${lines.join('\n  ')}\n`).toEqual([]);
  });

  it('every figure matches its snapshot (its SVG; a PNG alone that differs is reported apart)', () => {
    const snapshotFigures = outputPaths(join(ROOT, SNAPSHOT_DIR)).figures;
    // The outputs contract's figure rule: a PNG that differs under an identical SVG is another renderer, not a change.
    if (comparison.renderOnly.length) console.warn(`figures whose PNG alone differs from ${SNAPSHOT_DIR} (not a change): ${comparison.renderOnly.join(', ')}`);
    const changed = new Set([...comparison.figures.map((f) => f.key), ...comparison.renderOnly]);
    for (const [name, bytes] of build.figures) {
      const at = join(snapshotFigures, changedFileName(name));
      if (changed.has(name.replace(/\.(svg|png)$/, ''))) writeFileSync(at, bytes);
      else rmSync(at, { force: true });
    }
    const problems = comparison.figures.map((f) =>
      f.kind === 'changed'
        ? `${f.key}: ${[f.svg ? 'SVG' : '', f.png ? 'PNG' : ''].filter(Boolean).join(' and ')} differ; new version: ${SNAPSHOT_DIR}/figures/${changedFileName(`${f.key}.svg`)}`
        : f.kind === 'added'
          ? `${f.key}: no snapshot (${SNAPSHOT_DIR}/figures/${f.key}.svg)`
          : `${f.key}: snapshot of a figure the build no longer makes`,
    );
    expect(problems, `${problems.length} figure(s) differ from the snapshots; ${ACCEPT}:\n  ${problems.join('\n  ')}\n`).toEqual([]);
  });

  it('the combined data matches test/snapshots/data/', () => {
    expect(comparison.data, `data of ${comparison.data.join(', ')} differ from the snapshot; ${ACCEPT}`).toEqual([]);
  });
});
