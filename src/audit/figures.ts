/**
 * The audit page's three figures for one run, as Plot options in the paper's
 * figure style (src/figure-style.ts; drawn like experiments/figures/): TTFT by
 * issue order with the first wave and the steady window marked (the paper's
 * first-wave figure for the user's run), requests in flight over time, and
 * output throughput over time. Each returns null when the file cannot give
 * its data; the page says so instead. Each is drawn in the layout it is shown
 * in (src/figure-style.ts `figureFrame`): the page carries both and shows the
 * phone's at phone width, as the article does.
 */
import * as Plot from '@observablehq/plot';
import { figureFrame, PALETTE, type Layout } from '../figure-style.ts';
import { formatMessage } from '../format/text.ts';
import type { FigureSpec } from '../pipeline/types.ts';
import type { AuditReport } from './index.ts';
import type { AuditSeries } from './series.ts';

/** Above this many requests the TTFT scatter keeps, per column of the plot, its lowest and highest point: the envelope a reader sees, in an SVG a browser still opens. */
export const MAX_DOTS = 4000;
/** Columns of the thinned scatter: more than the figure has pixels across its frame, so no column merges two a reader could tell apart. */
export const DOT_COLUMNS = 2000;

const SHADE = { fill: PALETTE.green, fillOpacity: 0.09 };

interface Dot {
  i: number;
  v: number;
  wave: boolean;
}

/** TTFT (ms) by issue position, every point or the per-column envelope; zeros left out (log axis). */
function dots(s: AuditSeries): Dot[] {
  const n = s.ttft.length;
  const at = (i: number): Dot => ({ i, v: s.ttft[i] * 1000, wave: s.inWave[i] === 1 });
  if (n <= MAX_DOTS) return Array.from({ length: n }, (_, i) => at(i)).filter((d) => d.v > 0);
  const out: Dot[] = [];
  for (let c = 0; c < DOT_COLUMNS; c++) {
    const a = Math.floor((c * n) / DOT_COLUMNS);
    const b = Math.floor(((c + 1) * n) / DOT_COLUMNS);
    let lo = -1;
    let hi = -1;
    for (let i = a; i < b; i++) {
      if (!(s.ttft[i] > 0)) continue;
      if (lo < 0 || s.ttft[i] < s.ttft[lo]) lo = i;
      if (hi < 0 || s.ttft[i] > s.ttft[hi]) hi = i;
    }
    if (lo >= 0) out.push(at(lo));
    if (hi >= 0 && hi !== lo) out.push(at(hi));
  }
  return out.sort((p, q) => p.i - q.i);
}

/** The printed percentile the `first-wave` finding moved most, with and without the wave (s), when it reports one. */
function waveRule(report: AuditReport): { p: string; with: number; without: number } | null {
  const n = report.findings.find((f) => f.id === 'first-wave')?.numbers ?? {};
  let best: { p: string; with: number; without: number } | null = null;
  for (const k of Object.keys(n)) {
    const m = /^ttft_(p[\d.]+)_with$/.exec(k);
    const other = m && n[`ttft_${m[1]}_without`];
    if (!m || !other || n[k].unit !== 's' || other.unit !== 's') continue;
    const cand = { p: m[1], with: n[k].value, without: other.value };
    if (!best || Math.abs(cand.with - cand.without) > Math.abs(best.with - best.without)) best = cand;
  }
  return best;
}

export function ttftFigure(s: AuditSeries, report: AuditReport, layout: Layout): FigureSpec | null {
  const n = s.ttft.length;
  if (n === 0) return null;
  const data = dots(s);
  if (data.length === 0) return null;
  const waveN = s.inWave.reduce((a, b) => a + b, 0);
  const rule = waveRule(report);
  const order = s.order === 'send' ? 'issue order (send time)' : 'the file’s order (the file has no shared clock)';
  const marks: Plot.Markish[] = [];
  if (s.steadyIndex && s.steadyIndex[1] > s.steadyIndex[0]) {
    marks.push(Plot.rectX([{ x1: s.steadyIndex[0], x2: s.steadyIndex[1] - 1 }], { x1: 'x1', x2: 'x2', ...SHADE }));
    marks.push(Plot.text(['steady window'], { x: s.steadyIndex[0], frameAnchor: 'top', textAnchor: 'start', dx: 4, dy: 4, fill: PALETTE.green }));
  }
  marks.push(
    Plot.dot(data, { x: 'i', y: 'v', r: 1.6, fill: (d: Dot) => (d.wave ? PALETTE.vermillion : PALETTE.blue) }),
  );
  if (waveN > 0) marks.push(Plot.text([`first wave (${waveN})`], { x: 0, frameAnchor: 'bottom', textAnchor: 'start', dx: 4, dy: -4, fill: PALETTE.vermillion }));
  if (rule) {
    marks.push(
      Plot.ruleY([rule.with * 1000], { stroke: PALETTE.vermillion, strokeDasharray: '6,3' }),
      Plot.ruleY([rule.without * 1000], { stroke: PALETTE.blue, strokeDasharray: '2,3' }),
      Plot.text([`${rule.p} with the wave`], { x: n - 1, y: rule.with * 1000, textAnchor: 'end', dy: -6, fill: PALETTE.vermillion }),
      Plot.text([`${rule.p} without it`], { x: n - 1, y: rule.without * 1000, textAnchor: 'end', dy: 12, fill: PALETTE.blue }),
    );
  }
  const thinned = n > MAX_DOTS ? ` Of ${formatMessage(n)} requests, each of ${DOT_COLUMNS} columns shows its lowest and highest TTFT.` : '';
  return {
    title: 'Time to first token, request by request',
    caption:
      `Successful requests in ${order}; ${waveN > 0 ? `the ${waveN} of the first wave in orange-red` : 'no first wave'}` +
      `${s.steadyIndex ? ', the requests sent in the steady window shaded' : ''}` +
      `${rule ? `; the ${rule.p} with the wave (dashed) and without it (dotted)` : ''}.${thinned}`,
    alt: `Scatter of time to first token (log scale, ms) against request position for ${formatMessage(n)} requests${waveN > 0 ? `, the first ${waveN} marked as the opening wave` : ''}.`,
    plot: {
      ...figureFrame(layout, { top: 20, right: 20, bottom: 30, left: 56 }),
      height: 340,
      y: { type: 'log', label: 'TTFT (ms)', grid: true },
      x: { label: s.order === 'send' ? 'request, in issue order' : 'request, in file order' },
      marks,
    },
  };
}

function steadyMarks(s: AuditSeries): Plot.Markish[] {
  if (!s.steady) return [];
  return [Plot.rectX([s.steady], { x1: 'start', x2: 'end', ...SHADE })];
}

export function inFlightFigure(s: AuditSeries, layout: Layout): FigureSpec | null {
  const b = s.bins;
  if (!b) return null;
  const rows = Array.from(b.start, (t, i) => ({ t, v: b.inFlight[i] }));
  rows.push({ t: b.start[b.start.length - 1] + b.width, v: b.inFlight[b.inFlight.length - 1] });
  const marks: Plot.Markish[] = [...steadyMarks(s), Plot.lineY(rows, { x: 't', y: 'v', stroke: PALETTE.blue, curve: 'step-after' })];
  if (s.maxConcurrency !== null) {
    marks.push(
      Plot.ruleY([s.maxConcurrency], { stroke: PALETTE.vermillion, strokeDasharray: '6,3' }),
      Plot.text([`client cap ${s.maxConcurrency}`], { x: rows[rows.length - 1].t, y: s.maxConcurrency, textAnchor: 'end', dy: -6, fill: PALETTE.vermillion }),
    );
  }
  return {
    title: 'Requests in flight',
    caption: `Mean number of requests sent and not yet finished in each ${formatMessage(b.width)} s bin${s.steady ? '; the steady window shaded' : ''}${s.maxConcurrency !== null ? '; the client’s cap dashed' : ''}.`,
    alt: `Step line of requests in flight over ${formatMessage(rows[rows.length - 1].t)} s of the run, in ${b.start.length} bins.`,
    plot: {
      ...figureFrame(layout, { top: 20, right: 20, bottom: 30, left: 56 }),
      height: layout === 'narrow' ? 260 : 220,
      x: { label: 'time since the run started (s)' },
      y: { label: 'requests in flight', grid: true, zero: true },
      marks,
    },
  };
}

const PLACED: Record<string, string> = {
  chunks: 'output tokens counted at their chunks’ arrival',
  spread: 'each request’s output tokens spread evenly from its first token to its finish (the file keeps no chunk times)',
  completions: 'completions (the file counts no output tokens)',
};

export function throughputFigure(s: AuditSeries, report: AuditReport, layout: Layout): FigureSpec | null {
  const b = s.bins;
  if (!b) return null;
  const unit = b.placement === 'completions' ? '1/s' : 'tokens/s';
  const rows = Array.from(b.start, (t, i) => ({ t, v: b.rate[i] }));
  rows.push({ t: b.start[b.start.length - 1] + b.width, v: b.rate[b.rate.length - 1] });
  const w = report.findings.find((f) => f.id === 'window')?.numbers ?? {};
  const marks: Plot.Markish[] = [
    ...steadyMarks(s),
    Plot.areaY(rows, { x: 't', y: 'v', fill: PALETTE.blue, fillOpacity: 0.25, curve: 'step-after' }),
    Plot.lineY(rows, { x: 't', y: 'v', stroke: PALETTE.blue, curve: 'step-after' }),
  ];
  // the finding's averages only where they count the same thing as the bins
  const whole = w.whole_run_throughput?.unit === unit ? w.whole_run_throughput.value : null;
  const steady = w.steady_throughput?.unit === unit ? w.steady_throughput.value : null;
  if (whole !== null) marks.push(Plot.ruleY([whole], { stroke: PALETTE.vermillion, strokeDasharray: '6,3' }), Plot.text(['whole-run average'], { x: 0, y: whole, textAnchor: 'start', dx: 30, dy: 12, fill: PALETTE.vermillion }));
  if (steady !== null) marks.push(Plot.ruleY([steady], { stroke: PALETTE.green, strokeWidth: 2, strokeDasharray: '4,2' }), Plot.text(['steady-window average'], { x: 0, y: steady, textAnchor: 'start', dx: 30, dy: -10, fill: PALETTE.green }));
  return {
    title: b.placement === 'completions' ? 'Completions over time' : 'Output throughput over time',
    caption: `${PLACED[b.placement]}, per second, in ${formatMessage(b.width)} s bins${s.steady ? '; the steady window shaded' : ''}${whole !== null ? '; the whole-run average dashed' : ''}${steady !== null ? ', the steady window’s dotted' : ''}.`.replace(/^./, (c) => c.toUpperCase()),
    alt: `Step area of ${unit === '1/s' ? 'completions' : 'output tokens'} per second over ${formatMessage(rows[rows.length - 1].t)} s of the run, in ${b.start.length} bins.`,
    plot: {
      ...figureFrame(layout, { top: 20, right: 20, bottom: 30, left: 60 }),
      height: layout === 'narrow' ? 300 : 260,
      x: { label: 'time since the run started (s)' },
      y: { label: unit === '1/s' ? 'completions/s' : 'output tokens/s', grid: true, zero: true },
      marks,
    },
  };
}
