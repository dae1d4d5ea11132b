/**
 * The import graph of src/ and experiments/: no cycle, and no edge from a
 * lower layer to a higher one. The layers are listed bottom-up below; a file
 * may import its own layer and any layer beneath it. The graph is read as
 * test/helpers/import-graph.ts reads it (relative specifiers only: packages are
 * outside it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importGraph, ROOT } from './helpers/import-graph.ts';
import { describe, expect, it } from 'vitest';

/**
 * Bottom-up. Each entry: a name and the path prefixes it holds (the longest
 * matching prefix decides a file's layer).
 */
const LAYERS: { name: string; paths: string[] }[] = [
  { name: 'foundations', paths: ['src/errors.ts', 'src/rng/', 'src/stats/', 'src/fs/'] },
  { name: 'simulator', paths: ['src/sim/'] },
  { name: 'tools: shared base (records, capabilities, summaries, readers\u2019 helpers, descriptor type)', paths: ['src/tools/base/'] },
  { name: 'tools: one folder per tool', paths: ['src/tools/'] },
  { name: 'tools: the registry', paths: ['src/tools/registry.ts'] },
  { name: 'over the registry: detection, agreement, the report, Tables 1 and 2', paths: ['src/importers/', 'src/metrics/'] },
  { name: 'tokenizers, experiments and the pipeline', paths: ['src/tokens/', 'src/outline.ts', 'src/figure-style.ts', 'experiments/', 'src/pipeline/', 'src/published.ts', 'src/format/', 'src/published-row/', 'src/claims/', 'src/audit/'] },
  { name: 'site and explorer', paths: ['src/site/', 'src/explorer/', 'src/audit-page/', 'src/article/', 'src/components/', 'src/layouts/', 'src/pages/', 'src/styles/'] },
  { name: 'commands', paths: ['src/commands/'] },
  { name: 'CLI', paths: ['src/cli.ts', 'src/cli-bundle.ts'] },
];

function layerOf(file: string): number {
  let best = -1;
  let len = -1;
  LAYERS.forEach((l, i) => {
    for (const p of l.paths) if ((file === p || (p.endsWith('/') && file.startsWith(p))) && p.length > len) {
      best = i;
      len = p.length;
    }
  });
  return best;
}

/** Upward edges allowed, each with its reason (none today). */
const KNOWN_UPWARD: Record<string, string> = {};

/** Cycles allowed (none today). */
const KNOWN_CYCLES = new Set<string>();

function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components; a component of more than one file is a cycle
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

describe('the import graph', () => {
  const graph = importGraph();
  const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

  it('is read: every file under src/ and experiments/ is placed in a layer, and the readers\u2019 imports are found', () => {
    const unplaced = [...graph.keys()].filter((f) => layerOf(f) < 0);
    expect(unplaced, 'add these files\u2019 folders to LAYERS').toEqual([]);
    expect(graph.get('src/tools/registry.ts')).toContain('src/tools/vllm/descriptor.ts');
    expect(graph.get('src/commands/metrics.ts')).toContain('src/importers/load.ts'); // a dynamic import
  });

  it('has no cycle', () => {
    expect(cycles(graph).map((c) => c.join(' \u2192 ')).filter((c) => !KNOWN_CYCLES.has(c))).toEqual([]);
  });

  it('has no upward edge: a file imports only its own layer and those below it', () => {
    const upward = edges
      .filter(({ from, to }) => layerOf(to) > layerOf(from) && !(`${from} -> ${to}` in KNOWN_UPWARD))
      .map(({ from, to }) => `${from} (${LAYERS[layerOf(from)].name}) imports ${to} (${LAYERS[layerOf(to)].name}), a higher layer`);
    expect(upward).toEqual([]);
  });

  it('keeps the tools below everything that uses them: src/tools never imports the registry\u2019s consumers, the report, the commands or the CLI, nor reads files', () => {
    const above = ['src/importers/', 'src/metrics/', 'src/commands/', 'src/cli.ts'];
    const bad = edges.filter(({ from, to }) => from.startsWith('src/tools/') && above.some((p) => to.startsWith(p))).map(({ from, to }) => `${from} imports ${to}`);
    expect(bad).toEqual([]);
    const fsUsers = [...graph.keys()].filter((f) => f.startsWith('src/tools/') && /from\s+['"](node:)?(fs|fs\/promises|path)['"]/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(fsUsers, 'src/tools runs in a browser too: read files in the command layer (src/importers/load.ts)').toEqual([]);
  });

  it('keeps the shared base free of any tool, and a tool free of the registry', () => {
    const bad = edges
      .filter(({ from, to }) => (from.startsWith('src/tools/base/') && to.startsWith('src/tools/') && !to.startsWith('src/tools/base/')) || (from.startsWith('src/tools/') && from !== 'src/tools/registry.ts' && to === 'src/tools/registry.ts'))
      .map(({ from, to }) => `${from} imports ${to}`);
    expect(bad).toEqual([]);
  });

  it('keeps the pipeline free of the site', () => {
    const bad = edges.filter(({ from, to }) => from.startsWith('src/pipeline/') && to.startsWith('src/site/')).map(({ from, to }) => `${from} imports ${to}`);
    expect(bad.filter((e) => !(e.replace(' imports ', ' -> ') in KNOWN_UPWARD))).toEqual([]);
  });

  it('catches what it is meant to catch: an upward edge and a cycle in a made-up graph', () => {
    expect(layerOf('src/tools/base/records.ts')).toBeLessThan(layerOf('src/tools/vllm/reader.ts'));
    expect(layerOf('src/tools/vllm/reader.ts')).toBeLessThan(layerOf('src/tools/registry.ts'));
    expect(layerOf('src/tools/registry.ts')).toBeLessThan(layerOf('src/metrics/report.ts'));
    expect(cycles(new Map([['a', ['b']], ['b', ['a']], ['c', []]]))).toEqual([['a', 'b']]);
  });
});
