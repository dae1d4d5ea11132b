/**
 * Figures are stable: the same data gives byte-identical SVG and PNG, rendered
 * twice in one process (Plot's clip-path counters keep counting up across a
 * process; normalizeSvg renumbers them) and in a fresh process (fonts come from
 * the pinned npm DejaVu via fonts/fonts.conf, never from the machine). Uses a
 * real figure with text (the tool labels of definitions.speeds) and its
 * committed data snapshot (figures of experiments/<id>.ts live in experiments/figures/<id>.ts), so `npm run diff` never shows a figure that did not change.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** Renders `<exp>.<fig>` from test/snapshots/data/<exp>.json; prints `{svg, png}` hashes. Run here and in a child. */
const SCRIPT = (exp: string, fig: string) => `
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { renderPng, renderSvg } from ${JSON.stringify(pathToFileURL(join(REPO, 'src/pipeline/render.ts')).href)};
const mod = await import(${JSON.stringify(pathToFileURL(join(REPO, 'experiments', 'figures', `${exp}.ts`)).href)});
const data = JSON.parse(readFileSync(${JSON.stringify(join(REPO, 'test/snapshots/data', `${exp}.json`))}, 'utf8'));
const numbers = JSON.parse(readFileSync(${JSON.stringify(join(REPO, 'test/snapshots/numbers.json'))}, 'utf8'));
const sha = (b) => createHash('sha256').update(b).digest('hex');
const svg = renderSvg(mod.figures[${JSON.stringify(fig)}](data, (id) => numbers[${JSON.stringify(exp)} + '.' + id]), ${JSON.stringify(`${exp}.${fig}`)});
console.log(JSON.stringify({ svg: sha(svg), png: sha(await renderPng(svg)) }));
`;

describe('figures are byte-stable', () => {
  it('the same data gives the same SVG and PNG, twice in one process and in a fresh process', async () => {
    const { renderPng, renderSvg } = await import('../src/pipeline/render.ts');
    const mod = (await import('../experiments/figures/definitions.ts')) as unknown as { figures: import('../src/pipeline/types.ts').Figures };
    const data = JSON.parse(readFileSync(join(REPO, 'test/snapshots/data/definitions.json'), 'utf8'));
    const numbers = JSON.parse(readFileSync(join(REPO, 'test/snapshots/numbers.json'), 'utf8')) as Record<string, import('../src/pipeline/types.ts').NumberValue>;
    const render = async () => {
      const svg = renderSvg(mod.figures.speeds!(data, (id) => numbers[`definitions.${id}`]!), 'definitions.speeds');
      return { svg, png: await renderPng(svg) };
    };
    const a = await render();
    const b = await render();
    expect(b.svg).toBe(a.svg);
    expect(b.png.equals(a.png)).toBe(true);
    expect(a.svg).toContain('<text');
    expect(a.svg).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/); // no timestamps
    // This machine draws the committed PNG from the committed SVG (the snapshot test compares SVGs only).
    const snapSvg = readFileSync(join(REPO, 'test/snapshots/figures/definitions.speeds.svg'), 'utf8');
    if (snapSvg === a.svg) {
      const snapPng = readFileSync(join(REPO, 'test/snapshots/figures/definitions.speeds.png'));
      expect(a.png.equals(snapPng), 'the committed SVG renders to a PNG that differs from test/snapshots/figures/definitions.speeds.png: fonts or librsvg differ from the pinned ones (fonts/fonts.conf, sharp)').toBe(true);
    }

    const dir = mkdtempSync(join(tmpdir(), 'stopwatches-render-'));
    try {
      writeFileSync(join(dir, 'render.mts'), SCRIPT('definitions', 'speeds'));
      // A clean environment: no FONTCONFIG_FILE inherited, the renderer must set its own.
      const env = { ...process.env };
      delete env.FONTCONFIG_FILE;
      const child = spawnSync(join(REPO, 'node_modules', '.bin', 'tsx'), [join(dir, 'render.mts')], { cwd: REPO, encoding: 'utf8', env });
      expect(child.stderr).toBe('');
      expect(child.status).toBe(0);
      expect(JSON.parse(child.stdout.trim().split('\n').at(-1)!)).toEqual({ svg: sha(a.svg), png: sha(a.png) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
