/**
 * The numbers the site cites, and where: the article's `<Num id>` tags
 * (src/article/), the dossier's entries (`numberId`) and the reproduction page
 * (every published value's id). `stopwatches diff` lists these first: a
 * reviewer cares most about the numbers a reader sees.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOSSIER, type DossierEntry } from './dossier/index.ts';
import { PUBLISHED, type Published } from '../published.ts';

const NUM_TAG = /<Num\s[^>]*?\bid="([^"]+)"/g;

/** Number id → where it is cited (`article: the-first-wave`, `claim: sim-check-decode`, `reproduction page`), sorted. */
export function citedNumbers(root: string, dossier: DossierEntry[] = DOSSIER, published: Published[] = PUBLISHED): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  const add = (id: string, where: string) => out.set(id, (out.get(id) ?? new Set()).add(where));
  const articleDir = join(root, 'src', 'article');
  const files = existsSync(articleDir) ? readdirSync(articleDir) : [];
  for (const f of files.filter((x) => x.endsWith('.astro')).sort()) {
    for (const m of readFileSync(join(articleDir, f), 'utf8').matchAll(NUM_TAG)) add(m[1]!, `article: ${f.replace(/\.astro$/, '')}`);
  }
  for (const c of dossier) if (c.numberId) add(c.numberId, `claim: ${c.id}`);
  for (const p of published) add(p.id, 'reproduction page');
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, where]) => [id, [...where].sort()]));
}
