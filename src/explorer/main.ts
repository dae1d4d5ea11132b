/**
 * The explorer page's script: reads the form (and the URL), validates every
 * field with a message beside it, runs the simulator in a Web Worker with
 * progress and Cancel, and draws what comes back (its figures by the
 * article's renderer), marking it out of date once a field no longer says
 * what it ran. Bundled at build time into one classic inline script
 * (src/site/page-script.ts); the worker's code is a string in it, started from
 * a blob URL — so nothing is fetched, from a sub-path or from file://.
 */
import { formatValue, formatPlain } from '../format/value.ts';
import { FIELDS } from './fields.ts';
import {
  activeKeys, arrivalsClause, defaultParams, describeParams, fromQuery, parseValue, toQuery, validate, valueText, windowClause,
  type Key, type Params, type Problems,
} from './params.ts';
import type { ExplorerResult, SpeedOut } from './run.ts';
import type { FromWorker, ToWorker } from './worker.ts';
import { speedsFigure, throughputFigure, ttftFigure } from './figures.ts';
import { NARROW_MEDIA, type Layout } from '../figure-style.ts';
import { plotSvg } from '../pipeline/plot-svg.ts';
import { prepareSvg } from '../pipeline/inline-svg.ts';
import type { FigureSpec } from '../pipeline/types.ts';

declare const __EXPLORER_WORKER__: string;

interface PageData {
  inflation: number;
  inflationId: string;
  presets: { id: string; label: string; experiment: string; section: string | null; summary: string; query: string }[];
}

const $ = <T extends HTMLElement = HTMLElement>(sel: string) => document.querySelector(sel) as T;
const root = $('#explorer');
const data = JSON.parse($('#explorer-data').textContent ?? '{}') as PageData;
const DEFAULTS = defaultParams(data.inflation);

const input = (k: Key) => document.getElementById(`f-${k}`) as HTMLInputElement | HTMLSelectElement;
const msgOf = (k: Key) => document.getElementById(`m-${k}`) as HTMLElement;

// ------------------------------------------------------------------ form <-> params
function fill(p: Params): void {
  for (const f of FIELDS) input(f.key).value = valueText(f.key, p[f.key]);
}

function read(): Params {
  const p = { ...DEFAULTS } as Params;
  for (const f of FIELDS) (p as unknown as Record<string, unknown>)[f.key] = parseValue(f.key, input(f.key).value);
  return p;
}

function showActive(p: Params): void {
  const on = new Set(activeKeys(p));
  for (const f of FIELDS) {
    const row = document.getElementById(`row-${f.key}`);
    if (row) row.hidden = !on.has(f.key);
  }
}

function showProblems(pr: Problems, extra?: { field: Key; message: string }): void {
  for (const f of FIELDS) {
    const m = pr[f.key] ?? (extra && extra.field === f.key ? extra.message : undefined);
    const el = input(f.key);
    const box = msgOf(f.key);
    box.textContent = m ?? '';
    box.hidden = !m;
    if (m) el.setAttribute('aria-invalid', 'true');
    else el.removeAttribute('aria-invalid');
  }
}

/** The URL's query string carries the configuration (replaceState: no reload, no history entry; works from file:// too). */
function writeUrl(p: Params): void {
  const search = `?${toQuery(p)}`;
  if (location.search === search) return;
  try {
    history.replaceState(null, '', search + location.hash);
  } catch {
    // A browser that refuses to rewrite the URL keeps working; only sharing by address is lost.
  }
}

// ------------------------------------------------------------------ stale results
/** The configuration the results on the page come from (null before the first). */
let shown: Params | null = null;

/**
 * Marks the results out of date as soon as the fields no longer say what they ran, in words (a live region, so a
 * screen reader hears it, and the heading) and by greying the figures; cleared when a run's results are drawn, or
 * when the fields are set back.
 */
function markStale(p: Params): void {
  const res = $('#results');
  const changed = shown ? changedFields(shown, p) : [];
  const stale = changed.length > 0;
  if ((res.dataset.stale === 'true') === stale && (!stale || res.dataset.changed === changed.join(','))) return;
  res.dataset.stale = String(stale);
  res.dataset.changed = changed.join(',');
  $('#stale-tag').hidden = !stale;
  $('#stale-note').textContent = stale
    ? `Out of date: these results are from the previous run; ${changed.join(', ')} changed since. Press Run to update them.`
    : '';
}

/** Labels of the fields whose value differs between two configurations (those either reads). */
function changedFields(a: Params, b: Params): string[] {
  const keys = new Set([...activeKeys(a), ...activeKeys(b)]);
  return FIELDS.filter((f) => keys.has(f.key) && valueText(f.key, a[f.key]) !== valueText(f.key, b[f.key])).map((f) => f.label);
}

function refresh(): { p: Params; problems: Problems } {
  const p = read();
  markStale(p);
  showActive(p);
  const problems = validate(p);
  showProblems(problems);
  $('#config-line').textContent = Object.keys(problems).length ? 'This configuration has problems: see the marked fields.' : describeParams(p);
  writeUrl(p);
  return { p, problems };
}

// ------------------------------------------------------------------ worker
let worker: Worker | null = null;
let workerUrl: string | null = null;
let runId = 0;
let running: { id: number; p: Params; t0: number } | null = null;

function ensureWorker(): Worker {
  if (worker) return worker;
  if (!workerUrl) workerUrl = URL.createObjectURL(new Blob([__EXPLORER_WORKER__], { type: 'text/javascript' }));
  worker = new Worker(workerUrl);
  worker.onmessage = (e: MessageEvent<FromWorker>) => onWorker(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    fail(`the worker stopped: ${e.message || 'unknown error'}`, null);
    worker?.terminate();
    worker = null;
  };
  return worker;
}

function setState(state: 'idle' | 'running' | 'done' | 'error' | 'cancelled' | 'invalid', text: string): void {
  root.dataset.state = state;
  $('#status').textContent = text;
  ($('#run') as HTMLButtonElement).disabled = state === 'running';
  ($('#cancel') as HTMLButtonElement).disabled = state !== 'running';
  $('#progress').hidden = state !== 'running';
}

function start(): void {
  const { p, problems } = refresh();
  const bad = Object.keys(problems);
  if (bad.length) {
    setState('invalid', `Not run: ${bad.length === 1 ? 'one field needs' : `${bad.length} fields need`} fixing (${bad.map((k) => FIELDS.find((f) => f.key === k)?.label ?? k).join(', ')}).`);
    (input(bad[0] as Key) as HTMLElement).focus();
    return;
  }
  const id = ++runId;
  root.dataset.run = String(id);
  running = { id, p, t0: performance.now() };
  delete root.dataset.elapsedMs;
  delete root.dataset.roundtripMs;
  delete root.dataset.speedsMs;
  const prog = $('#progress') as HTMLProgressElement;
  prog.max = p.requests;
  prog.value = 0;
  setState('running', `Simulating ${formatPlain(p.requests, 0)} requests…`);
  $('#speeds-status').textContent = '';
  const msg: ToWorker = { type: 'run', id, params: p };
  ensureWorker().postMessage(msg);
}

function cancel(): void {
  if (!running) return;
  worker?.terminate();
  worker = null;
  running = null;
  setState('cancelled', 'Cancelled; the worker was stopped. Change something or press Run again.');
}

function fail(message: string, field: string | null): void {
  running = null;
  if (field) showProblems(validate(read()), { field: field as Key, message });
  setState('error', `Refused: ${message}`);
}

function onWorker(m: FromWorker): void {
  if (!running || m.id !== running.id) return;
  const p = running.p;
  if (m.type === 'progress') {
    ($('#progress') as HTMLProgressElement).value = m.done;
    $('#status').textContent = `Simulating: ${formatPlain(m.done, 0)} of ${formatPlain(m.n, 0)} requests finished…`;
  } else if (m.type === 'result') {
    const rt = performance.now() - running.t0;
    root.dataset.elapsedMs = String(m.result.timing.totalMs);
    root.dataset.roundtripMs = String(rt);
    drawResult(p, m.result);
    setState('running', 'Computing the seven definitions…');
    $('#timing').textContent =
      `Simulated in ${formatValue(m.result.timing.totalMs, 'ms')} in the worker ` +
      `(draws ${formatValue(m.result.timing.drawMs, 'ms')}, simulator ${formatValue(m.result.timing.simMs, 'ms')}, ` +
      `statistics ${formatValue(m.result.timing.statsMs, 'ms')}); ${formatValue(rt, 'ms')} from Run to the figures' data.`;
  } else if (m.type === 'speeds') {
    root.dataset.speedsMs = String(m.ms);
    drawSpeeds(p, m.rows, m.note);
    root.dataset.doneRun = String(m.id);
    running = null;
    setState('done', 'Done.');
    if (m.rows) $('#timing').textContent += ` The seven definitions took ${formatValue(m.ms, 'ms')} more.`;
  } else if (m.type === 'error') {
    fail(m.message, m.field);
  }
}

// ------------------------------------------------------------------ drawing
/** Phones get the figures laid out for their width, as the article's (text of at least 11 px there). */
const narrowQuery = window.matchMedia(NARROW_MEDIA);
const layout = (): Layout => (narrowQuery.matches ? 'narrow' : 'wide');
/** What the figures were last drawn from, to draw them again when the layout changes. */
let drawn: { p: Params; r: ExplorerResult; rows: SpeedOut[] | null } | null = null;

/** Draws a figure into `#<id>-chart`, named by its heading `#<id>-h` and described by `#<id>-desc` (and its caption, when it has one), as the article's. */
function figure(id: string, spec: FigureSpec): void {
  const cap = document.getElementById(`${id}-cap`);
  $(`#${id}-desc`).textContent = spec.alt;
  if (cap) cap.textContent = spec.caption;
  $(`#${id}-chart`).innerHTML = prepareSvg(plotSvg(spec, `ex-${id}`, document), `ex-${id}`, `${id}-h`, cap ? `${id}-desc ${id}-cap` : `${id}-desc`);
}

function drawRunFigures(): void {
  if (!drawn) return;
  const { p, r } = drawn;
  figure('ttft', ttftFigure(r, r.dueDiffers && p.client !== 'closed', layout()));
  figure('tput', throughputFigure(r, layout()));
}

function drawSpeedsFigure(): void {
  const primary = drawn?.rows?.filter((x) => x.primary);
  if (primary) figure('speeds', speedsFigure(primary, layout()));
  else $('#speeds-chart').innerHTML = '';
}
narrowQuery.addEventListener('change', () => {
  drawRunFigures();
  drawSpeedsFigure();
});

function pctText(q: ExplorerResult['p99Send']): string {
  const [lo, hi] = q.interval;
  const iv = q.supported
    ? `order-statistic 95% interval ${formatValue(lo, 'ms', { bare: true })}–${formatValue(hi, 'ms')} (ranks ${q.ranks[0]} and ${q.ranks[1]} of ${formatPlain(q.n, 0)})`
    : `no interval: ${q.reason}`;
  return `${iv}; n = ${formatPlain(q.n, 0)}`;
}

function drawResult(p: Params, r: ExplorerResult): void {
  const set = (sel: string, v: number, text: string, detail: string) => {
    const el = $(sel);
    el.dataset.raw = String(v);
    el.querySelector('.v')!.textContent = text;
    el.querySelector('.d')!.textContent = detail;
  };
  set('#p99-send', r.p99Send.value, formatValue(r.p99Send.value, 'ms'), pctText(r.p99Send));
  const dueNote = p.client === 'closed' ? ' (closed loop: every request is due at t = 0, so this times the wait for a free slot too)' : '';
  set('#p99-due', r.p99Due.value, formatValue(r.p99Due.value, 'ms'), pctText(r.p99Due) + dueNote);
  set('#mean-send', r.meanSendMs, formatValue(r.meanSendMs, 'ms'), `median ${formatValue(r.medianSendMs, 'ms')}`);
  set(
    '#run-facts', r.makespan, formatValue(r.makespan, 's'),
    `${formatPlain(r.steps, 0)} engine steps, ${formatPlain(r.preemptions, 0)} preemptions, ` +
      `${formatValue(r.achievedReqPerS, 'req/s')} completed, ${formatPlain(r.outputTokens, 0)} output tokens`,
  );
  $('#window-line').textContent = `Statistics: ${windowClause(p)}. Arrivals: ${arrivalsClause(p)}. p99 by numpy’s linear rule.`;
  $('#results').hidden = false;
  // The definitions of this run come next: until then the previous run's are not shown beside this run's figures.
  $('#speeds-body').innerHTML = '';
  $('#speeds-other').innerHTML = '';
  $('#speeds-status').textContent = 'Computing the seven definitions for this run…';
  drawn = { p, r, rows: null };
  drawRunFigures();
  drawSpeedsFigure();
  shown = p;
  markStale(read());
}

function drawSpeeds(p: Params, rows: SpeedOut[] | null, note: string | null): void {
  const body = $('#speeds-body');
  const other = $('#speeds-other');
  body.innerHTML = '';
  other.innerHTML = '';
  if (drawn) drawn.rows = rows;
  drawSpeedsFigure();
  if (!rows) {
    $('#speeds-status').textContent = `Not computed: ${note ?? 'no token times'}.`;
    return;
  }
  $('#speeds-status').textContent = '';
  const primary = rows.filter((r) => r.primary);
  const arrivals = arrivalsClause(p);
  const window = windowClause(p);
  const row = (r: SpeedOut) => {
    const tr = document.createElement('tr');
    tr.dataset.tool = r.tool;
    const cells = [r.toolName, r.metric, r.formula, r.tokPerS === null ? `— (${r.reason ?? 'not computed'})` : formatPlain(r.tokPerS), formatPlain(r.n, 0)];
    cells.forEach((c, i) => {
      const td = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) td.setAttribute('scope', 'row');
      td.textContent = c;
      if (i === 1 || i === 2) td.className = 'mono';
      if (i >= 3) td.className = 'numcell';
      if (i === 3 && r.tokPerS !== null) td.dataset.raw = String(r.tokPerS);
      tr.appendChild(td);
    });
    const clause = document.createElement('tr');
    clause.className = 'clause';
    const td = document.createElement('td');
    td.colSpan = 5;
    td.textContent = `arrivals: ${arrivals} · clock: ${r.tool === 'mlperf' ? 'from the scheduled (due) time' : `from send — ${r.clock}`} · window: ${window}`;
    clause.appendChild(td);
    return [tr, clause];
  };
  for (const r of primary) body.append(...row(r));
  for (const r of rows.filter((x) => !x.primary)) other.append(...row(r));
}

// ------------------------------------------------------------------ wiring
function applyUrl(): boolean {
  const { params, found } = fromQuery(location.search || location.hash, DEFAULTS);
  fill(params);
  return found;
}

// While the pointer is down on Run, the form is not laid out anew: a message that appears or goes
// (the field just left fires `change`, a debounced `input` lands) would move the button from under
// the pointer, and the press would end on another element: no click. The refresh waits for the release.
let pressing = false;
let deferred = false;
function refreshUnlessPressing(): void {
  if (pressing) deferred = true;
  else refresh();
}
$('#run').addEventListener('pointerdown', () => {
  pressing = true;
});
const release = () => {
  if (!pressing) return;
  pressing = false;
  // After the click this release leads to (which refreshes as it starts the run), or alone when the press ended elsewhere.
  if (deferred) window.setTimeout(() => {
    deferred = false;
    if (!pressing) refresh();
  }, 0);
};
window.addEventListener('pointerup', release, true);
window.addEventListener('pointercancel', release, true);

let debounce: number | undefined;
$('#explorer-form').addEventListener('input', () => {
  // Out of date at the first keystroke; the messages wait for the typing to pause.
  markStale(read());
  clearTimeout(debounce);
  debounce = window.setTimeout(refreshUnlessPressing, 120);
});
$('#explorer-form').addEventListener('change', () => refreshUnlessPressing());
$('#explorer-form').addEventListener('submit', (e) => {
  e.preventDefault();
  clearTimeout(debounce);
  start();
});
$('#cancel').addEventListener('click', cancel);
$('#reset').addEventListener('click', () => {
  fill(DEFAULTS);
  refresh();
});
for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-preset]')) {
  a.addEventListener('click', (e) => {
    e.preventDefault();
    const pr = data.presets.find((x) => x.id === a.dataset.preset);
    if (!pr) return;
    fill(fromQuery(pr.query, DEFAULTS).params);
    if (running) cancel();
    root.dataset.preset = pr.id;
    start();
    // The presets sit after the results: bring the results (marked out of date until this run's arrive) into view.
    const res = $('#results');
    if (!res.hidden && res.getBoundingClientRect().top < 0) res.scrollIntoView({ block: 'start' });
  });
}
applyUrl();
refresh();
root.dataset.ready = 'true';
start();
