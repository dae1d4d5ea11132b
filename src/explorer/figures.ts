/**
 * The explorer's three figures for one run, as Plot options in the article's
 * figure style (src/figure-style.ts; drawn like experiments/figures/ and the
 * audit page's src/audit/figures.ts): the page renders them with the site's
 * own renderer (src/pipeline/plot-svg.ts) in its document, so fonts, marks,
 * axes and their units are the article's. Each takes the layout it is drawn
 * for: the article's frame, or the phone's (its width and text size, as the
 * article's narrow figures).
 */
import * as Plot from '@observablehq/plot';
import { figureFrame, NEUTRAL, PALETTE, type Layout } from '../figure-style.ts';
import { formatPlain } from '../format/value.ts';
import type { FigureSpec } from '../pipeline/types.ts';
import type { ExplorerResult, SpeedOut } from './run.ts';

/** Above this many requests the scatter keeps, per column, its lowest and highest point (the audit page's rule, src/audit/figures.ts). */
export const MAX_DOTS = 4000;
/** Columns of a thinned scatter: more than the frame has pixels across. */
export const DOT_COLUMNS = 2000;

interface Dot {
  i: number;
  v: number;
  kind: 'kept' | 'left-out' | 'due';
}

/** Requests [a, b) of `y` as dots: every one, or each column's lowest and highest when there are more than MAX_DOTS in all; zeros left out (log axis). */
function dots(y: ArrayLike<number>, a: number, b: number, n: number, kind: Dot['kind']): Dot[] {
  const out: Dot[] = [];
  if (n <= MAX_DOTS) {
    for (let i = a; i < b; i++) if (y[i] > 0) out.push({ i, v: y[i], kind });
    return out;
  }
  for (let c = 0; c < DOT_COLUMNS; c++) {
    const lo0 = Math.max(a, Math.floor((c * n) / DOT_COLUMNS));
    const hi0 = Math.min(b, Math.floor(((c + 1) * n) / DOT_COLUMNS));
    let lo = -1;
    let hi = -1;
    for (let i = lo0; i < hi0; i++) {
      if (!(y[i] > 0)) continue;
      if (lo < 0 || y[i] < y[lo]) lo = i;
      if (hi < 0 || y[i] > y[hi]) hi = i;
    }
    if (lo >= 0) out.push({ i: lo, v: y[lo], kind });
    if (hi >= 0 && hi !== lo) out.push({ i: hi, v: y[hi], kind });
  }
  return out;
}

const FILL: Record<Dot['kind'], string> = { kept: PALETTE.blue, 'left-out': NEUTRAL.grey, due: PALETTE.orange };

/**
 * TTFT of every request against its index in send order, log scale, with the p99s as rules. From-due times are
 * drawn for open and capped clients only: a closed loop's requests are all due at t = 0 (the simulator's rule),
 * so from due there only says when each slot got to them.
 */
export function ttftFigure(r: ExplorerResult, drawDue: boolean, layout: Layout): FigureSpec {
  const { n, from, to } = r;
  const data: Dot[] = [
    ...dots(r.ttftSendMs, 0, from, n, 'left-out'),
    ...(drawDue ? dots(r.ttftDueMs, from, to, n, 'due') : []),
    ...dots(r.ttftSendMs, from, to, n, 'kept'),
    ...dots(r.ttftSendMs, to, n, n, 'left-out'),
  ];
  const last = Math.max(1, n - 1);
  const marks: Plot.Markish[] = [
    Plot.dot(data, { x: 'i', y: 'v', r: 1.6, fill: (d: Dot) => FILL[d.kind] }),
    Plot.ruleY([r.p99Send.value], { stroke: PALETTE.blue, strokeDasharray: '6,3' }),
    Plot.text(['p99 from send'], { x: last, y: r.p99Send.value, textAnchor: 'end', dy: -6, fill: PALETTE.blue }),
  ];
  if (drawDue) {
    marks.push(
      Plot.ruleY([r.p99Due.value], { stroke: PALETTE.vermillion, strokeDasharray: '2,3' }),
      Plot.text(['p99 from due'], { x: last, y: r.p99Due.value, textAnchor: 'end', dy: r.p99Due.value >= r.p99Send.value ? -6 : 12, fill: PALETTE.vermillion }),
    );
  }
  const leftOut = from > 0 || to < n;
  const thinned = n > MAX_DOTS ? ` Of ${formatPlain(n, 0)} requests, each of ${DOT_COLUMNS} columns shows its lowest and highest TTFT.` : '';
  return {
    title: 'Time to first token, request by request',
    caption:
      `TTFT from send of the requests the statistics keep, in blue${leftOut ? '; the warmup and cooldown left out, in grey' : ''}` +
      `${drawDue ? '; the same requests timed from their due time, in orange' : ''}; the p99 from send dashed` +
      `${drawDue ? ', from due dotted' : ''}.${thinned}`,
    alt: `Scatter of ${formatPlain(n, 0)} requests' time to first token (log scale, ms) against request index in send order, with the p99 as a dashed line.`,
    plot: {
      ...figureFrame(layout, { top: 20, right: 20, bottom: 34, left: 56 }),
      height: layout === 'narrow' ? 340 : 320,
      y: { type: 'log', label: 'TTFT (ms)', grid: true },
      x: { label: 'request index (send order)' },
      marks,
    },
  };
}

/** Output tokens per second in equal time bins over the run, a step area like the audit page's. */
export function throughputFigure(r: ExplorerResult, layout: Layout): FigureSpec {
  const t = r.throughput;
  const rows = Array.from(t.start, (s, i) => ({ t: s, v: t.tokPerS[i] }));
  if (rows.length) rows.push({ t: t.start[t.start.length - 1] + t.width, v: t.tokPerS[t.tokPerS.length - 1] });
  return {
    title: 'Throughput over time',
    caption: `Output tokens emitted per second, in ${formatPlain(t.start.length, 0)} bins of ${formatPlain(t.width, 3)} s over the whole run.`,
    alt: `Step area of output tokens per second over ${formatPlain(r.makespan, 2)} s of the run, in ${t.start.length} equal bins.`,
    plot: {
      ...figureFrame(layout, { top: 20, right: 20, bottom: 34, left: 60 }),
      height: 240,
      x: { label: 'time since the run started (s)' },
      y: { label: 'output tokens/s', grid: true, zero: true },
      marks: [
        Plot.areaY(rows, { x: 't', y: 'v', fill: PALETTE.green, fillOpacity: 0.25, curve: 'step-after' }),
        Plot.lineY(rows, { x: 't', y: 'v', stroke: PALETTE.green, curve: 'step-after' }),
      ],
    },
  };
}

/** Each tool's headline per-user speed of this run, one bar each, as the article's Figure of the seven definitions. */
export function speedsFigure(rows: SpeedOut[], layout: Layout): FigureSpec {
  const label = (b: SpeedOut) => `${b.toolName} · ${b.metric}`;
  const domain = rows.map(label);
  const computed = rows.filter((b) => b.tokPerS !== null);
  const missing = rows.filter((b) => b.tokPerS === null);
  const value = (b: SpeedOut) => formatPlain(b.tokPerS as number);
  const common = [
    Plot.barX(computed, { y: label, x: 'tokPerS', fill: PALETTE.blue }),
    Plot.text(missing, { y: label, x: 0, text: (b: SpeedOut) => `not computed: ${b.reason ?? 'no value'}`, textAnchor: 'start', dx: 4, fontStyle: 'italic' }),
    Plot.ruleX([0]),
  ];
  const x = { label: 'tokens/s per user', grid: true };
  const alt = `Horizontal bars of the per-user speed each tool's headline definition gives for this run: ${rows.map((b) => `${b.toolName} ${b.tokPerS === null ? 'not computed' : value(b)}`).join('; ')}.`;
  const caption = 'The same requests (those the statistics keep) measured with each tool’s headline per-token definition, converted to tokens per second per user.';
  if (layout === 'narrow') {
    // On a phone the labels go above their bars, as the article's narrow figure: beside them they would leave the bars no room.
    return {
      title: 'Seven per-user speeds of this run', caption, alt,
      plot: {
        ...figureFrame('narrow', { top: 18, right: 44, bottom: 30, left: 3 }),
        height: 70 + rows.length * 58,
        x,
        y: { axis: null, domain, padding: 0.55 },
        marks: [
          ...common,
          Plot.text(rows, { y: label, x: 0, text: label, textAnchor: 'start', lineAnchor: 'bottom', dy: -16 }),
          Plot.text(computed, { y: label, x: 'tokPerS', text: value, textAnchor: 'start', dx: 4 }),
        ],
      },
    };
  }
  return {
    title: 'Seven per-user speeds of this run', caption, alt,
    plot: {
      ...figureFrame('wide', { top: 20, right: 50, bottom: 34, left: 300 }),
      height: 60 + rows.length * 34,
      x,
      y: { label: null, domain },
      marks: [...common, Plot.text(computed, { y: label, x: 'tokPerS', text: value, textAnchor: 'start', dx: 4 })],
    },
  };
}
