/**
 * The full report: one self-contained HTML file (figures inlined as data
 * URIs, styles and the two slider handlers inline), so it opens from a
 * downloaded CI artifact without a server or a network.
 *
 * Order: what changed and the flags; claims; why, per experiment; the cited
 * numbers that moved; each changed figure (side by side, a slider, an onion
 * skin and pixelmatch's difference image, then its changed data rows); every
 * experiment's numbers under the reason they moved.
 */
import { crossed, inImportanceOrder, type NumberRow } from './numbers.ts';
import type { RowChange } from './data.ts';
import type { FigureDiff } from './figures.ts';
import { formatChange, formatShare, formatSix } from '../../format/text.ts';
import { claimStateText, countsText, exactText, neighbourhoodText, sameValueText, showEntry, showInterval, whyText } from './format.ts';
import { relativeChange } from './numbers.ts';
import { figureChanged, hasChanges, type DiffResult } from './result.ts';

/** The PNGs of one figure on both sides (absent where that side has none). */
export interface FigureImages {
  old?: Buffer;
  new?: Buffer;
  diff?: Buffer;
}

const MAX_DATA_ROWS = 200;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** One pass, and none for text without a special character (most cells of a table of 100,000 numbers). */
const esc = (s: string) => (/[&<>"]/.test(s) ? s.replace(/[&<>"]/g, (c) => ESCAPES[c]!) : s);
const anchor = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
const short = (v: unknown) => {
  const s = typeof v === 'number' ? formatSix(v) : JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
};
/** An image of a figure: its PNG, or for a figure drawn only as SVG (a phone-width drawing) the SVG itself. */
const dataUri = (img: Buffer) => `data:image/${img.subarray(0, 4).toString('latin1') === '\x89PNG' ? 'png' : 'svg+xml'};base64,${img.toString('base64')}`;

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5rem auto;max-width:1400px;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}h3{font-size:1rem;margin-top:1.5rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:13px}th,td{border:1px solid #ddd;padding:3px 7px;vertical-align:top;text-align:left}
th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}code{font-size:12px}
.up{color:#a40000}.down{color:#0047a4}.left{background:#ffe3e3;font-weight:600}.entered{background:#e0f5e0;font-weight:600}.exact{background:#fff0c2;font-weight:600}.muted{color:#777}
.note{background:#fff6d6;padding:.3rem .6rem;border-left:3px solid #e0b000}.why{background:#eef4ff;padding:.3rem .6rem;border-left:3px solid #3b6fd8}
.flags li{margin:.2rem 0}nav a{margin-right:.8rem}
.views>input{margin-left:.8rem}.pane{display:none;margin-top:.5rem}
.views>input.side:checked~.pane.side,.views>input.slide:checked~.pane.slide,.views>input.onion:checked~.pane.onion,.views>input.diff:checked~.pane.diff{display:block}
.side .imgs{display:grid;grid-template-columns:repeat(3,1fr);gap:.75rem}.imgs figure{margin:0}img{max-width:100%;border:1px solid #ccc;background:#fff}
figcaption{font-size:12px;color:#555}
.stack{position:relative;display:inline-block;max-width:100%}.stack img{display:block}.stack img.top{position:absolute;left:0;top:0}
.stack.clip img.top{clip-path:inset(0 calc(100% - var(--p,50%)) 0 0)}.stack.clip::after{content:"";position:absolute;top:0;bottom:0;left:var(--p,50%);border-left:2px solid #d00}
.stack.fade img.top{opacity:var(--o,.5)}input[type=range]{width:min(100%,600px);display:block}
`;

function numbersTable(rows: NumberRow[], farOff: number): string {
  const body = rows
    .map((r) => {
      const cls = r.rel === null || r.rel === 0 ? '' : r.rel > 0 ? 'up' : 'down';
      const notes: string[] = [];
      const hood = neighbourhoodText(r, farOff);
      if (hood) notes.push(`<span class="${r.neighbourhood === 'left' ? 'left' : r.neighbourhood === 'entered' ? 'entered' : 'muted'}">${esc(hood)}</span>`);
      if (r.exact && r.kind === 'changed' && !r.valueSame) notes.push(`<span class="exact">${esc(exactText(r))} changed</span>`);
      else if (r.exact) notes.push(`<span class="muted">${esc(exactText(r))}</span>`);
      if (r.valueSame) notes.push(`<span class="muted">${esc(sameValueText(r))}</span>`);
      const side = (e: NumberRow['old']) => (e ? `${esc(showEntry(e))}<br><span class="muted">${esc(showInterval(e))}</span>` : '<span class="muted">—</span>');
      const delta = r.kind === 'changed' ? esc(formatChange(r.rel)) : r.kind;
      return `<tr><td><code>${esc(r.id)}</code></td><td class="n">${side(r.old)}</td><td class="n">${side(r.new)}</td><td class="n ${cls}">${r.abs === null ? '' : esc(`${r.abs > 0 ? '+' : ''}${formatSix(r.abs)}`)}</td><td class="n ${cls}">${delta}</td><td>${esc(r.citedIn.join(', '))}</td><td>${notes.join('<br>')}</td></tr>`;
    })
    .join('\n');
  return `<table><thead><tr><th>number</th><th>old</th><th>new</th><th>absolute</th><th>relative</th><th>cited in</th><th>notes</th></tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function dataTable(rows: RowChange[]): string {
  const shown = rows.slice(0, MAX_DATA_ROWS);
  const change = (c: RowChange) => {
    if (c.kind !== 'changed') return `<td class="muted">${esc(short(c.kind === 'added' ? c.new : c.old))}</td>`;
    if (c.fields) {
      const o = c.old as Record<string, unknown>;
      const n = c.new as Record<string, unknown>;
      const parts = c.fields.map((k) => {
        const rel = typeof o[k] === 'number' && typeof n[k] === 'number' ? ` (${formatChange(relativeChange(o[k] as number, n[k] as number))})` : '';
        return `<b>${esc(k)}</b>: ${esc(k in o ? short(o[k]) : '—')} → ${esc(k in n ? short(n[k]) : '—')}${esc(rel)}`;
      });
      const same = Object.keys(n).filter((k) => !c.fields!.includes(k) && typeof n[k] !== 'object').slice(0, 6).map((k) => `${k}: ${short(n[k])}`);
      return `<td>${parts.join('<br>')}${same.length ? `<br><span class="muted">${esc(same.join(', '))}</span>` : ''}</td>`;
    }
    const rel = typeof c.old === 'number' && typeof c.new === 'number' ? ` (${formatChange(relativeChange(c.old, c.new))})` : '';
    return `<td>${esc(short(c.old))} → ${esc(short(c.new))}${esc(rel)}</td>`;
  };
  const body = shown.map((c) => `<tr><td><code>${esc(c.path)}</code></td><td>${c.kind}</td>${change(c)}</tr>`).join('\n');
  const more = rows.length > shown.length ? `<p class="muted">… ${rows.length - shown.length} more changed rows not shown (diff.json beside this report has them all).</p>` : '';
  return `<table><thead><tr><th>row</th><th></th><th>change</th></tr></thead><tbody>\n${body}\n</tbody></table>${more}`;
}

function figureViews(f: FigureDiff, img: FigureImages, r: DiffResult): string {
  const a = anchor(f.key);
  const fig = (label: string, png?: Buffer) => `<figure>${png ? `<img src="${dataUri(png)}" alt="${esc(label)}">` : '<p class="muted">(no PNG)</p>'}<figcaption>${esc(label)}</figcaption></figure>`;
  const oldLabel = `old (${r.base})`;
  const newLabel = `new (${r.current})`;
  if (!img.old || !img.new) return `<div class="imgs">${fig(oldLabel, img.old)}${fig(newLabel, img.new)}</div>`;
  const radio = (cls: string, label: string, checked = false) => `<input type="radio" class="${cls}" name="v-${a}" id="v-${a}-${cls}"${checked ? ' checked' : ''}><label for="v-${a}-${cls}">${label}</label>`;
  // The handlers set a CSS variable on the image stack just before the range input.
  const slider = (v: string, value: string) => `<input type="range" min="0" max="100" value="50" aria-label="${v === '--p' ? 'slider position' : 'opacity of the new figure'}" oninput="this.previousElementSibling.style.setProperty('${v}', ${value})">`;
  return `<div class="views">${radio('side', 'side by side', true)}${radio('slide', 'slider')}${radio('onion', 'onion skin')}${radio('diff', 'difference')}
<div class="pane side"><div class="imgs">${fig(oldLabel, img.old)}${fig(newLabel, img.new)}${fig('difference (red: pixels that differ)', img.diff)}</div></div>
<div class="pane slide"><p class="muted">Left of the red line: new; right of it: old.</p><div class="stack clip"><img src="${dataUri(img.old)}" alt="${esc(oldLabel)}"><img class="top" src="${dataUri(img.new)}" alt="${esc(newLabel)}"></div>${slider('--p', "this.value + '%'")}</div>
<div class="pane onion"><p class="muted">The new figure over the old one; the slider sets its opacity.</p><div class="stack fade"><img src="${dataUri(img.old)}" alt="${esc(oldLabel)}"><img class="top" src="${dataUri(img.new)}" alt="${esc(newLabel)}"></div>${slider('--o', 'this.value / 100')}</div>
<div class="pane diff">${img.diff ? fig('difference (red: pixels that differ)', img.diff) : '<p class="muted">(no difference image)</p>'}</div>
</div>`;
}

export function renderHtml(r: DiffResult, images: Map<string, FigureImages>): string {
  const parts: string[] = [];
  const changedFigures = r.figures.filter(figureChanged);
  const band = `±${formatSix(r.farOff * 100)}%`;
  parts.push(`<h1>What this change does to the paper</h1>`);
  parts.push(`<p>Baseline: <b>${esc(r.base)}</b>${r.baseCommit ? ` (inputs compared with commit <code>${esc(r.baseCommit.slice(0, 12))}</code>)` : ''}. Current: <b>${esc(r.current)}</b>. ${esc(countsText(r))}; ${r.sameFigures} figures unchanged.</p>`);
  if (!hasChanges(r)) parts.push(`<p class="note">No number or figure changed.</p>`);

  const flags: string[] = [];
  for (const n of r.numbers.filter(crossed)) flags.push(`<li class="${n.neighbourhood}"><code>${esc(n.id)}</code> ${esc(neighbourhoodText(n, r.farOff))}</li>`);
  const exact = r.numbers.filter((n) => n.exact && n.kind === 'changed' && !n.valueSame);
  if (exact.length) flags.push(`<li class="exact">${exact.length} number${exact.length === 1 ? '' : 's'} exact by construction changed (a setting, a constant or a formula moved): ${exact.map((n) => `<code>${esc(n.id)}</code>`).join(', ')}</li>`);
  const renderOnly = r.figures.filter((f) => f.renderOnly);
  if (renderOnly.length) flags.push(`<li>Rendered to different pixels from an identical SVG (this machine's fonts or librsvg; not a change): ${renderOnly.map((f) => `<code>${esc(f.key)}</code>`).join(', ')}</li>`);
  if (flags.length) parts.push(`<ul class="flags">${flags.join('')}</ul>`);
  parts.push(`<p class="muted">A number is in the published value's neighbourhood when it is within ${band} of the value the article published, compared in the published unit (the reproduction page's line). <i>Cited</i> numbers are the ones the article, the dossier's claims or the reproduction page show. Accept this build as the new baseline with <code>stopwatches snapshot</code> (or <code>stopwatches snapshot --from DIR</code> with the CI artifact this report came in), and give the reason for every changed number in the commit message.</p>`);
  parts.push(`<nav><a href="#why">why</a><a href="#cited">cited numbers</a><a href="#figures">figures</a><a href="#experiments">all numbers by experiment</a></nav>`);

  if (r.claims.length) {
    parts.push(`<h2 id="claims">Claims whose check changed (${r.claims.length})</h2><table><thead><tr><th>claim</th><th>was</th><th>now</th></tr></thead><tbody>${r.claims.map((c) => `<tr><td><code>${esc(c.id)}</code> ${esc(c.claim)}</td><td>${esc(claimStateText(c.old))}</td><td>${esc(claimStateText(c.new))}</td></tr>`).join('')}</tbody></table>`);
  }

  parts.push(`<h2 id="why">Why: the inputs that changed (${r.experiments.length} experiment${r.experiments.length === 1 ? '' : 's'} moved)</h2>`);
  parts.push(r.experiments.length ? `<ul>${r.experiments.map((e) => `<li><a href="#exp-${anchor(e.id)}"><b>${esc(e.id)}</b></a>: ${esc(whyText(e.inputs, r))}</li>`).join('')}</ul>` : '<p class="muted">none</p>');
  if (r.unmoved.length) parts.push(`<p class="muted">Inputs changed, every output the same: ${r.unmoved.map((u) => `<b>${esc(u.experiment)}</b> (${esc(whyText(u.inputs, r))})`).join('; ')}.</p>`);

  const ordered = inImportanceOrder(r.numbers);
  const cited = ordered.filter((n) => n.citedIn.length);
  parts.push(`<h2 id="cited">Cited numbers that moved (${cited.length})</h2>`);
  parts.push(cited.length ? numbersTable(cited, r.farOff) : '<p class="muted">none</p>');

  parts.push(`<h2 id="figures">Figures (${changedFigures.length} changed, new or removed)</h2>`);
  if (!changedFigures.length) parts.push('<p class="muted">none</p>');
  for (const f of changedFigures) {
    const what = [f.svgChanged ? 'SVG' : '', f.pngChanged ? 'PNG' : ''].filter(Boolean).join(' and ');
    parts.push(`<h3 id="fig-${anchor(f.key)}">${esc(f.key)} — ${f.kind}${f.kind === 'changed' ? ` (${what} differ)` : ''}</h3>`);
    if (f.oldSize && f.newSize && (f.oldSize[0] !== f.newSize[0] || f.oldSize[1] !== f.newSize[1])) {
      parts.push(`<p class="note">The PNG sizes differ: ${f.oldSize.join('×')} → ${f.newSize.join('×')} px; the difference is drawn on a ${Math.max(f.oldSize[0], f.newSize[0])}×${Math.max(f.oldSize[1], f.newSize[1])} white canvas, both images at the top left.</p>`);
    }
    if (f.pixels !== null && f.canvas) parts.push(`<p>${f.pixels} of ${f.canvas} pixels differ (${esc(formatShare(f.pixels / f.canvas))}).${f.pixels === 0 ? ' The PNGs are pixel-identical; only the file bytes or the SVG differ.' : ''}</p>`);
    parts.push(figureViews(f, images.get(f.key) ?? {}, r));
    if (f.data) {
      parts.push(`<p>Changed rows of <code>data/${esc(f.experiment)}.json</code> (the data this experiment's figures draw): ${f.data.length}.</p>`);
      if (f.data.length) parts.push(dataTable(f.data));
    } else if (f.dataNote) parts.push(`<p class="note">${esc(f.dataNote)}</p>`);
  }
  if (r.dataOnly.length) {
    parts.push(`<h3>Data changed without a figure change</h3><ul>${r.dataOnly.map((d) => `<li><code>data/${esc(d.experiment)}.json</code>: ${d.rows} rows</li>`).join('')}</ul>`);
  }

  parts.push(`<h2 id="experiments">Every number that moved, by experiment</h2>`);
  if (!r.experiments.length) parts.push('<p class="muted">none</p>');
  // Each experiment's numbers, its cited ones first, each half in review order.
  const byExperiment = new Map<string, { cited: NumberRow[]; internal: NumberRow[] }>();
  for (const n of ordered) {
    let rows = byExperiment.get(n.experiment);
    if (!rows) byExperiment.set(n.experiment, (rows = { cited: [], internal: [] }));
    (n.citedIn.length ? rows.cited : rows.internal).push(n);
  }
  for (const e of r.experiments) {
    const halves = byExperiment.get(e.id);
    const rows = halves ? [...halves.cited, ...halves.internal] : [];
    parts.push(`<h3 id="exp-${anchor(e.id)}">${esc(e.id)}: ${rows.length} number${rows.length === 1 ? '' : 's'}, ${e.figures.length} figure${e.figures.length === 1 ? '' : 's'}, ${e.dataRows} data row${e.dataRows === 1 ? '' : 's'}</h3>`);
    parts.push(`<p class="why">${esc(e.id)}: ${esc(whyText(e.inputs, r))}</p>`);
    if (rows.length) parts.push(numbersTable(rows, r.farOff));
  }
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Paper diff: ${esc(r.current)} against ${esc(r.base)}</title><style>${CSS}</style></head><body>\n${parts.join('\n')}\n</body></html>\n`;
}
