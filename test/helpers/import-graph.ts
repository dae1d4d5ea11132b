/**
 * The import graph of src/ and experiments/, read with a regex: static
 * `import … from`, `export … from`, side-effect `import '…'` and dynamic
 * `import('…')`, relative specifiers only (packages are outside the graph).
 * test/structure.test.ts holds its layers; other tests read one file's closure.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const EXT = /\.(ts|mts|tsx|mjs|js|astro)$/;

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name === 'node_modules' || name === 'generated') continue;
      out.push(...walk(p));
    } else if (EXT.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** file (repo-relative) → the repo-relative files it imports. */
export function importGraph(): Map<string, string[]> {
  const files = [...walk(join(ROOT, 'src')), ...walk(join(ROOT, 'experiments'))];
  const known = new Set(files.map((f) => relative(ROOT, f)));
  const graph = new Map<string, string[]>();
  for (const abs of files) {
    const text = readFileSync(abs, 'utf8');
    const deps = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith('.')) continue;
      const target = relative(ROOT, resolve(dirname(abs), spec.split('?')[0]));
      if (known.has(target)) deps.add(target);
    }
    graph.set(relative(ROOT, abs), [...deps]);
  }
  return graph;
}

/** Every file `file` imports, directly or not, and itself (repo-relative, sorted). */
export function importClosure(graph: Map<string, string[]>, file: string): string[] {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const d of graph.get(f) ?? []) visit(d);
  };
  visit(file);
  return [...seen].sort();
}
