/**
 * Figures of experiments/long-runs.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import { formatValue } from '../../src/format/value.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { LongRunsData, WindowRow } from '../long-runs.ts';

/** Okabe–Ito: warm colours for the 98% runs, cool for 95% and 90%. */
const SERIES_COLORS = [PALETTE.vermillion, PALETTE.purple, PALETTE.orange, PALETTE.blue, PALETTE.sky, PALETTE.green];

/** The series in words: per load, the lowest and highest windowed p99 drawn (values in seconds). */
function windowsAlt(rows: readonly { p99: number; run: string; load: number }[]): string {
  const s = (v: number) => formatValue(v, 's', v < 1 ? { as: 'ms', digits: 0 } : { digits: 1 });
  const loads = [...new Set(rows.map((r) => r.load))].sort((a, b) => b - a);
  const runs = new Set(rows.map((r) => r.run)).size;
  const parts = loads.map((l) => {
    const v = rows.filter((r) => r.load === l).map((r) => r.p99);
    return `at ${l}% the windows run from ${s(Math.min(...v))} to ${s(Math.max(...v))}`;
  });
  return `${runs} time series of windowed p99 on a log axis; ${parts.join('; ')}.`.replace(/\u00a0/g, ' '); // plain spaces: the description is an attribute of the SVG
}

export const figures: Figures<LongRunsData> = {
  windows: (d) => {
    const rows = d.series.flatMap((s: { label: string; loadPct: number; windows: WindowRow[] }) =>
      s.windows.map((w) => ({ h: w.t / 3600, p99: w.p99Ms / 1000, run: s.label, load: s.loadPct })),
    );
    return {
      title: 'p99 over four simulated hours',
      caption:
        'p99 time to first token in back-to-back windows of 1,000 requests, open loop near the sweep’s peak rate. A run that collapses into the preemption spiral stays there.',
      // Read from the drawn windows: the range of each load's worst window, so the words follow the data.
      alt: windowsAlt(rows),
      plot: {
        height: 360,
        marginLeft: 60,
        x: { label: 'simulated time (h)' },
        y: { type: 'log', label: 'windowed p99 TTFT', grid: true, tickFormat: (v: number) => (v >= 1 ? `${v} s` : `${Math.round(v * 1000)} ms`) },
        color: { type: 'ordinal', domain: d.series.map((s: { label: string }) => s.label), range: SERIES_COLORS },
        marks: [
          Plot.line(rows, { x: 'h', y: 'p99', stroke: 'run', strokeWidth: 1.2 }),
          Plot.ruleY([d.collapseMs / 1000], { strokeDasharray: '4,3' }),
          ...d.series.map((s: { label: string }, i: number) =>
            Plot.text([s.label], { frameAnchor: 'top-left', dx: 8, dy: 6 + 14 * i, fill: SERIES_COLORS[i % SERIES_COLORS.length] }),
          ),
        ],
      },
    };
  },
  spread: (d) => {
    const rows = d.spreads.flatMap((s: { windowSize: number; windowBand: [number, number]; iidBand: [number, number] }) => [
      { w: `${s.windowSize}`, kind: 'back-to-back windows', lo: s.windowBand[0], hi: s.windowBand[1] },
      { w: `${s.windowSize}`, kind: 'i.i.d. draws', lo: s.iidBand[0], hi: s.iidBand[1] },
    ]);
    return {
      title: 'A p99 from neighbours moves more',
      caption:
        'Middle 90% of the p99s of consecutive windows cut from a single run at 90% of the peak rate, next to the same statistic for random draws of equal size from that run.',
      alt: 'For each window size, the band of windowed p99s is wider than the band of i.i.d. p99s.',
      plot: {
        height: 300,
        marginLeft: 60,
        x: { label: 'window (requests)', type: 'band', domain: d.spreads.map((s: { windowSize: number }) => `${s.windowSize}`) },
        y: { label: 'p99 TTFT (ms)', grid: true },
        marks: [
          // Plot's dx is one number per mark, so each kind is its own mark, nudged left or right of the band's centre.
          Plot.ruleX(rows.filter((r: { kind: string }) => r.kind !== 'i.i.d. draws'), { x: 'w', y1: 'lo', y2: 'hi', stroke: PALETTE.vermillion, strokeWidth: 10, dx: -9 }),
          Plot.ruleX(rows.filter((r: { kind: string }) => r.kind === 'i.i.d. draws'), { x: 'w', y1: 'lo', y2: 'hi', stroke: PALETTE.blue, strokeWidth: 10, dx: 9 }),
          Plot.ruleY([d.spreads[0].truth], { strokeDasharray: '4,3' }),
          Plot.text(['back-to-back windows'], { frameAnchor: 'top-right', dx: -8, dy: 8, fill: PALETTE.vermillion }),
          Plot.text(['i.i.d. draws'], { frameAnchor: 'top-right', dx: -8, dy: 24, fill: PALETTE.blue }),
        ],
      },
    };
  },
};
