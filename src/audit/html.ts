/**
 * The audit as HTML: for each run, the summary line, the findings with the
 * numbers behind them, the clauses card and the three figures (./figures.ts).
 * `auditSections` is the body, shared by `stopwatches audit --html` (wrapped
 * by `auditPage` into one self-contained file: inline CSS and SVG, nothing
 * fetched, opens from file://) and the site's "Audit a run" page, which
 * renders the same sections in the reader's browser. The DOM Plot draws in is
 * handed in: linkedom's in Node, the page's own in a browser.
 */
import { formatMessage } from '../format/text.ts';
import { NARROW_MEDIA, type Layout } from '../figure-style.ts';
import { prepareSvg } from '../pipeline/inline-svg.ts';
import { plotSvg } from '../pipeline/plot-svg.ts';
import type { FigureSpec } from '../pipeline/types.ts';
import { inFlightFigure, throughputFigure, ttftFigure } from './figures.ts';
import { CLAUSE_IDS, summaryLine, type AuditNumber, type Finding } from './index.ts';
import type { Audited } from './file.ts';
import { runView, type RunView } from './series.ts';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A number as the page prints it: seconds as milliseconds (the unit the tools print latencies in), others in their own unit. */
export function numberText(x: AuditNumber): string {
  const ms = x.unit === 's';
  const v = (y: number) => formatMessage(ms ? y * 1000 : y);
  const unit = ms ? 'ms' : x.unit === '1' ? '' : x.unit;
  const iv = x.interval ? ` (95%: ${v(x.interval[0])}–${v(x.interval[1])})` : '';
  return `${v(x.value)}${unit ? ` ${unit}` : ''}${iv}`;
}

const VERDICT_TEXT = { warn: 'warn', ok: 'ok', unknown: 'unknown' } as const;

function findingHtml(f: Finding): string {
  const rows = Object.entries(f.numbers).map(([k, x]) =>
    `<tr><th scope="row"><code>${esc(k)}</code></th><td class="num">${esc(numberText(x))}</td><td class="num">${x.n !== undefined ? esc(formatMessage(x.n)) : ''}</td><td>${x.note ? esc(x.note) : ''}</td></tr>`,
  );
  const table = rows.length
    ? `<details><summary>numbers</summary><table class="audit-numbers"><thead><tr><th scope="col">number</th><th scope="col">value</th><th scope="col">n</th><th scope="col">note</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`
    : '';
  return `<li class="finding" data-finding="${esc(f.id)}" data-verdict="${f.verdict}"><span class="verdict verdict-${f.verdict}">${VERDICT_TEXT[f.verdict]}</span> <strong>${esc(f.id)}</strong>: ${esc(f.message)}${table}</li>`;
}

/**
 * A figure drawn twice, for the article's frame and for a phone (CSS shows one, so the other is out of the
 * accessibility tree), each SVG prepared as every figure of the site is (src/pipeline/inline-svg.ts): named by its
 * heading, described by its text description and caption.
 */
function figureHtml(draw: (layout: Layout) => FigureSpec | null, key: string, idPrefix: string, document: Document, missing: string): string {
  const spec = draw('wide');
  if (!spec) return `<figure class="audit-figure" data-figure="${key}" data-empty=""><p class="audit-missing">${esc(missing)}</p></figure>`;
  const narrow = draw('narrow')!;
  const [h, desc, cap] = [`${idPrefix}-h`, `${idPrefix}-desc`, `${idPrefix}-cap`];
  const svg = (f: FigureSpec, prefix: string) => prepareSvg(plotSvg(f, prefix, document), prefix, h, `${desc} ${cap}`);
  return (
    `<figure class="audit-figure" data-figure="${key}"><h3 id="${h}">${esc(spec.title)}</h3>` +
    `<div class="audit-fig-wide">${svg(spec, idPrefix)}</div><div class="audit-fig-narrow">${svg(narrow, `${idPrefix}-n`)}</div>` +
    `<figcaption id="${cap}">${esc(spec.caption)}</figcaption><p class="audit-desc" id="${desc}">${esc(spec.alt)}</p></figure>`
  );
}

function runHtml(r: RunView, i: number, document: Document): string {
  const { report, series } = r;
  const warn = report.findings.filter((f) => f.verdict === 'warn').length;
  const clauses = CLAUSE_IDS.map((c) => `<dt>${c}</dt><dd>${esc(report.clauses[c])}</dd>`).join('');
  const noClock = 'The file puts its requests on no shared clock, so they cannot be placed in time.';
  return (
    `<section class="audit-run" id="run-${i + 1}" data-warnings="${warn}">` +
    `<h2><code>${esc(report.file)}</code> <span class="audit-format">--format ${esc(report.format)}</span></h2>` +
    `<p class="audit-summary">${esc(summaryLine(report))}</p>` +
    `<ul class="findings">${report.findings.map(findingHtml).join('')}</ul>` +
    `<div class="clauses"><h3>Next to every number from this run</h3><dl>${clauses}</dl></div>` +
    figureHtml((l) => ttftFigure(series, report, l), 'ttft', `audit-${i + 1}-ttft`, document, 'The file has no per-request first-token times: no TTFT to draw.') +
    figureHtml((l) => inFlightFigure(series, l), 'in-flight', `audit-${i + 1}-inflight`, document, noClock) +
    figureHtml((l) => throughputFigure(series, report, l), 'throughput', `audit-${i + 1}-throughput`, document, noClock) +
    `</section>`
  );
}

/** The audit of one or more runs: one section each. */
export function auditSections(runs: RunView[], document: Document): string {
  return `<div class="audit">${runs.map((r, i) => runHtml(r, i, document)).join('')}</div>`;
}

/** The page's styles; the site's custom properties where the page sits in the site, plain colours standing alone. */
export const AUDIT_CSS = `
.audit { font-family: var(--font-ui, system-ui, sans-serif); color: var(--fg, #1d1d1f); }
.audit-run { border-top: 1px solid var(--rule, #d0d0d7); padding-top: 0.6rem; margin-top: 1.2rem; }
.audit-run h2 { font-size: 1.05rem; margin: 0.2rem 0 0.3rem; overflow-wrap: anywhere; }
.audit-format { color: var(--muted, #5b5b66); font-weight: 400; font-size: 0.85rem; }
.audit-summary { font-weight: 600; margin: 0.2rem 0 0.6rem; }
.audit .findings { list-style: none; padding: 0; margin: 0 0 0.8rem; font-size: 0.92rem; }
.audit .finding { margin: 0.3rem 0; }
.audit .verdict { display: inline-block; min-width: 4.6rem; text-align: center; border-radius: 3px; padding: 0 0.3rem; font-size: 0.8rem; font-weight: 650; }
.audit .verdict-warn { background: #D55E00; color: #000; }
.audit .verdict-ok { background: #009E73; color: #000; }
.audit .verdict-unknown { background: var(--panel, #eeeef2); color: var(--fg, #1d1d1f); border: 1px solid var(--rule, #d0d0d7); }
.audit details { margin: 0.2rem 0 0.4rem 5rem; }
.audit summary { cursor: pointer; color: var(--muted, #5b5b66); font-size: 0.82rem; }
.audit-numbers { border-collapse: collapse; font-size: 0.8rem; }
.audit-numbers th, .audit-numbers td { text-align: left; padding: 0.1rem 0.4rem; border-top: 1px solid var(--rule, #d0d0d7); vertical-align: top; }
.audit-numbers td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.audit .clauses { background: var(--panel, #f4f4f7); border-radius: 4px; padding: 0.4rem 0.8rem; margin: 0.6rem 0 1rem; font-size: 0.9rem; }
.audit .clauses h3 { margin: 0.2rem 0 0.3rem; font-size: 0.95rem; }
.audit .clauses dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 0.8rem; margin: 0; }
.audit .clauses dt { font-weight: 650; }
.audit .clauses dd { margin: 0; }
.audit-figure { margin: 0.8rem 0 1.2rem; }
.audit-figure h3 { margin: 0 0 0.3rem; font-size: 0.95rem; }
.audit-figure svg { display: block; max-width: 100%; height: auto; background: #fff; color: #1d1d1f; }
.audit-figure figcaption, .audit-missing { color: var(--muted, #5b5b66); font-size: 0.85rem; }
.audit-fig-narrow { display: none; }
@media ${NARROW_MEDIA} { .audit-fig-wide { display: none; } .audit-fig-narrow { display: block; } }
/* the text description is for screen readers: the figure and its caption say it to the eye */
.audit-desc { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; margin: 0; }
`;

/** One self-contained page: the sections, the styles inline, no script and nothing to fetch. */
export function auditPage(runs: Audited[], document: Document): string {
  const title = runs.length === 1 ? `Audit of ${runs[0].report.file}` : `Audit of ${runs.length} runs`;
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">` +
    `<title>${esc(title)}</title><style>body { max-width: 60rem; margin: 1rem auto; padding: 0 1rem; }${AUDIT_CSS}</style></head>` +
    `<body><main><h1 style="font-family: system-ui, sans-serif; font-size: 1.4rem">${esc(title)}</h1>` +
    `<p style="font-family: system-ui, sans-serif; color: #5b5b66">Written by <code>stopwatches audit</code>: each finding is warn (the run has the pitfall), ok, or unknown (the file cannot tell, with the reason).</p>` +
    `${auditSections(runs.map(runView), document)}</main></body></html>\n`
  );
}
