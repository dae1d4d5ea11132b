/**
 * The outline (src/outline.ts) is the one statement of the paper's structure;
 * these tests hold everything that cannot import it to it: the partials'
 * <Figure> and <Subhead> tags, the experiment modules and their ids, and the
 * committed figure snapshots.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPERIMENT_ORDER, FIGURES, HEADINGS, OUTLINE, PROSE_SECTIONS, heading, outlineFigure } from '../src/outline.ts';
import { experiments as registry } from '../experiments/index.ts';

const ROOT = join(import.meta.dirname, '..');
const partial = (id: string) => readFileSync(join(ROOT, 'src/article', `${id}.astro`), 'utf8');
const tags = (src: string, re: RegExp) => [...src.matchAll(re)].map((m) => m.slice(1).join('/'));

describe('outline', () => {
  it('lists every experiment once, and the registry runs them in its order', () => {
    expect(new Set(EXPERIMENT_ORDER).size).toBe(EXPERIMENT_ORDER.length);
    expect(registry).toEqual(EXPERIMENT_ORDER.map((id) => `experiments/${id}.ts`));
  });

  it('names each experiment by its module’s own id', () => {
    const problems: string[] = [];
    for (const id of EXPERIMENT_ORDER) {
      const file = join(ROOT, 'experiments', `${id}.ts`);
      if (!existsSync(file)) problems.push(`${id}: experiments/${id}.ts does not exist`);
      else if (!new RegExp(`^\\s+id: '${id}',$`, 'm').test(readFileSync(file, 'utf8'))) problems.push(`${id}: experiments/${id}.ts declares another id`);
    }
    const modules = readdirSync(join(ROOT, 'experiments')).filter((f) => f.endsWith('.ts') && f !== 'index.ts').map((f) => f.replace(/\.ts$/, ''));
    for (const m of modules) if (!EXPERIMENT_ORDER.includes(m)) problems.push(`experiments/${m}.ts is in no section of the outline`);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('has unique anchors and titles of its own, distinct from the article’s headings it cites', () => {
    const ids = HEADINGS.map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The dossier keeps the name of the table it holds; every other heading is ours.
    const echoed = HEADINGS.filter((h) => h.article && h.article.toLowerCase() === h.title.toLowerCase() && h.id !== 'confidence-dossier');
    expect(echoed.map((h) => h.title)).toEqual([]);
  });

  it('each prose section places exactly its outline figures, in order, and each subsection heading', () => {
    const problems: string[] = [];
    for (const s of PROSE_SECTIONS) {
      const src = partial(s.id);
      const placed = tags(src, /<Figure exp="([^"]+)" name="([^"]+)"\s*\/>/g);
      const want = s.figures.map((f) => `${f.exp}/${f.name}`);
      if (JSON.stringify(placed) !== JSON.stringify(want)) problems.push(`${s.id}: places [${placed.join(', ')}], the outline says [${want.join(', ')}]`);
      if (/<Figure\b[^>]*\blabel=/.test(src)) problems.push(`${s.id}: a <Figure> types its label; the outline holds it`);
      const subs = tags(src, /<Subhead id="([^"]+)"\s*\/>/g);
      const wantSubs = (s.sub ?? []).map((x) => x.id);
      if (JSON.stringify(subs) !== JSON.stringify(wantSubs)) problems.push(`${s.id}: subheads [${subs.join(', ')}], the outline says [${wantSubs.join(', ')}]`);
      if (/<h[23]\b/.test(src)) problems.push(`${s.id}: a heading typed by hand; use <Subhead id> and the outline`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('places every committed figure and no other, each under the section of its experiment', () => {
    const snapshots = readdirSync(join(ROOT, 'test/snapshots/figures')).filter((f) => f.endsWith('.svg') && !f.endsWith('.narrow.svg')).map((f) => f.replace(/\.svg$/, '').replace('.', '/'));
    expect(FIGURES.map((f) => `${f.exp}/${f.name}`).sort()).toEqual(snapshots.sort());
    for (const f of FIGURES) expect(f.section.experiments, `${f.exp}/${f.name}`).toContain(f.exp);
  });

  it('labels agree with the article figure they cite', () => {
    const problems = FIGURES.filter((f) => f.label && f.article !== undefined && !new RegExp(`^Figure ${f.article}[a-z]?$`).test(f.label)).map(
      (f) => `${f.exp}/${f.name}: label ${f.label}, article figure ${f.article}`,
    );
    const labels = FIGURES.flatMap((f) => (f.label ? [f.label] : []));
    expect(new Set(labels).size).toBe(labels.length);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('fails clearly on what it does not hold', () => {
    expect(() => outlineFigure('first-wave', 'nope')).toThrow(/places no figure first-wave\/nope/);
    expect(() => heading('nope')).toThrow(/no heading with id "nope"/);
    expect(OUTLINE.at(-1)!.experiments).toContain('constants');
  });
});
