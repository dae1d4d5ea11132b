/**
 * Figures of experiments/long-runs.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { NEUTRAL, PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { LongRunsData } from '../long-runs.ts';
import { count, duration, durationMs, ofTotal, plain, range, value } from './lib/words.ts';

/** One colour per load, apart under the common colour-vision deficiencies; each load also has its own panel and label. */
const LOAD_COLORS = [PALETTE.vermillion, PALETTE.blue, PALETTE.green];

type Run = LongRunsData['series'][number];

/** Per load, in the experiment's order: its runs, the bold one, and what the panel says about them. */
function loads(d: LongRunsData) {
  const ids = [...new Set(d.series.map((s: Run) => s.loadPct))];
  return ids.map((load, i) => {
    const runs = d.series.filter((s: Run) => s.loadPct === load);
    const drawn = runs.find((s: Run) => s.drawn)!;
    const collapsed = runs.filter((s: Run) => s.collapsed).length;
    const episodes = runs.filter((s: Run) => !s.collapsed && s.maxWindowS * 1000 > d.collapseMs).length;
    return { load, key: `${load}%`, color: LOAD_COLORS[i % LOAD_COLORS.length]!, runs, drawn, collapsed, episodes };
  });
}

function windowsAlt(d: LongRunsData): string {
  const parts = loads(d).map((l) => {
    const what = [l.collapsed ? `${ofTotal(l.collapsed, l.runs.length, 'runs')} collapsed` : `none of the ${l.runs.length} runs collapsed`, ...(l.episodes ? [`${l.episodes} more had an episode above ${durationMs(d.collapseMs)}`] : [])].join(' and ');
    return `at ${l.load}% of the peak rate ${what}, and the worst windows run ${range(l.runs.map((r: Run) => r.maxWindowS), duration)}; the bold run, seed ${l.drawn.seed}, has the median worst window, ${duration(l.drawn.maxWindowS)}`;
  });
  return plain(`${d.series.length} time series of windowed p99 on a log axis, one panel per load. ${parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('. ')}.`);
}

export const figures: Figures<LongRunsData> = {
  windows: (d) => {
    const ls = loads(d);
    const rows = (r: Run, key: string) => r.windows.map((w) => ({ h: w.t / 3600, p99: w.p99Ms / 1000, run: r.seed, load: key }));
    const marks = ls.flatMap((l) => [
      Plot.line(
        l.runs.filter((r: Run) => !r.drawn).flatMap((r: Run) => rows(r, l.key)),
        { x: 'h', y: 'p99', z: 'run', fy: 'load', stroke: l.color, strokeOpacity: 0.3, strokeWidth: 0.8 },
      ),
      Plot.line(rows(l.drawn, l.key), { x: 'h', y: 'p99', fy: 'load', stroke: l.color, strokeWidth: 2 }),
      // A halo keeps the label legible where thin lines of early collapses pass under it.
      Plot.text([{ load: l.key }], { fy: 'load', frameAnchor: 'top-left', dx: 6, dy: 4, fill: l.color, stroke: 'white', strokeWidth: 4, paintOrder: 'stroke', text: () => `${l.key} of peak · bold: seed ${l.drawn.seed}` }),
    ]);
    return {
      title: `p99 over ${Math.round(Math.max(...d.series.map((r: Run) => r.windows[r.windows.length - 1]!.t)) / 3600)} simulated hours`,
      caption: plain(
        `p99 time to first token in back-to-back windows of ${count(d.windowRequests)} requests, open loop at ${ls.map((l) => l.key).join(', ')} of the sweep’s peak rate, ${d.runs} runs per load (thin lines). ` +
          `In bold, at each load, the run whose worst window is the median of its ${d.runs} (seeds ${ls.map((l) => l.drawn.seed).join(', ')}); dashed: the ${durationMs(d.collapseMs)} line that defines a collapse. A run that collapses into the preemption spiral stays there.`,
      ),
      // Read from the drawn runs: how many collapsed, the range of worst windows, and the bold run, so the words follow the data.
      alt: windowsAlt(d),
      plot: {
        height: 460,
        marginLeft: 60,
        marginRight: 12,
        x: { label: 'simulated time (h)' },
        y: { type: 'log', label: 'windowed p99 TTFT', grid: true, ticks: 4, tickFormat: (v: number) => (v >= 1 ? `${v} s` : `${Math.round(v * 1000)} ms`) },
        fy: { domain: ls.map((l) => l.key), axis: null, padding: 0.12 },
        marks: [Plot.ruleY([d.collapseMs / 1000], { stroke: NEUTRAL.mid, strokeDasharray: '4,3' }), ...marks, Plot.frame({ stroke: NEUTRAL.grey, strokeOpacity: 0.4 })],
      },
    };
  },
  spread: (d, n) => {
    const band = value(n('correlation.band_pct'), { digits: 0 });
    type Spread = LongRunsData['spreads'][number];
    const bars = (spreads: readonly Spread[], seed: number) =>
      spreads.flatMap((s) => [
        { w: `${s.windowSize}`, kind: 'back-to-back windows', lo: s.windowBand[0], hi: s.windowBand[1], seed },
        { w: `${s.windowSize}`, kind: 'i.i.d. draws', lo: s.iidBand[0], hi: s.iidBand[1], seed },
      ]);
    const rows = bars(d.spreads, d.spreadSeed);
    const others = d.seedSpreads.filter((s: { seed: number }) => s.seed !== d.spreadSeed).flatMap((s: { seed: number; spreads: Spread[] }) => bars(s.spreads, s.seed));
    const windowed = (r: { kind: string }) => r.kind === 'back-to-back windows';
    const wider = d.spreads.filter((s: Spread) => s.windowBand[1] - s.windowBand[0] > s.iidBand[1] - s.iidBand[0]).length;
    const seedsWider = d.seedSpreads.filter((x: { spreads: Spread[] }) => x.spreads.every((s) => s.windowBand[1] - s.windowBand[0] > s.iidBand[1] - s.iidBand[0])).length;
    const factor = (s: Spread) => (s.windowBand[1] - s.windowBand[0]) / (s.iidBand[1] - s.iidBand[0]);
    // Plot's dx is one number per mark, so each kind is its own mark, nudged left or right of the band's centre (bold) and further out (thin).
    const bands = (bold: number, thin: number) => [
      Plot.ruleX(others.filter(windowed), { x: 'w', y1: 'lo', y2: 'hi', stroke: PALETTE.vermillion, strokeOpacity: 0.35, strokeWidth: 1, dx: -thin }),
      Plot.ruleX(others.filter((r) => !windowed(r)), { x: 'w', y1: 'lo', y2: 'hi', stroke: PALETTE.blue, strokeOpacity: 0.35, strokeWidth: 1, dx: thin }),
      Plot.ruleX(rows.filter(windowed), { x: 'w', y1: 'lo', y2: 'hi', stroke: PALETTE.vermillion, strokeWidth: 10, dx: -bold }),
      Plot.ruleX(rows.filter((r) => !windowed(r)), { x: 'w', y1: 'lo', y2: 'hi', stroke: PALETTE.blue, strokeWidth: 10, dx: bold }),
    ];
    const key = (top: number) => [
      Plot.text([`back-to-back windows, seed ${d.spreadSeed}`], { frameAnchor: 'top-right', dx: -8, dy: top, fill: PALETTE.vermillion }),
      Plot.text([`i.i.d. draws, seed ${d.spreadSeed}`], { frameAnchor: 'top-right', dx: -8, dy: top + 16, fill: PALETTE.blue }),
      Plot.text([`thin: the other ${d.seedSpreads.length - 1} seeds`], { frameAnchor: 'top-right', dx: -8, dy: top + 32, fill: NEUTRAL.text }),
    ];
    return {
      title: seedsWider === d.seedSpreads.length ? 'A p99 from neighbours moves more' : 'A p99 from neighbours against one from independent draws',
      caption: plain(
        `Middle ${band} of the p99s of consecutive windows cut from one run at ${d.correlationLoadPct}% of the peak rate, next to the same statistic for random draws of equal size from that run. ` +
          `The run drawn is seed ${d.spreadSeed}, the median of the ${d.runs} runs by how many times wider the windows’ band is at ${count(d.windowRequests)} requests (${value({ value: d.spreadFactor, unit: '×', n: null, interval: null }, { digits: 2 })}); the thin bars are the other ${d.runs - 1} runs’ bands.`,
      ),
      // Read from the bands drawn: at how many sizes the windows' band is the wider, by how much, and in how many runs at every size.
      alt: plain(
        `Pairs of bars per window size, ${d.spreads.map((s: Spread) => count(s.windowSize)).join(', ')} requests. In seed ${d.spreadSeed} the band of windowed p99s is wider than the band of i.i.d. p99s at ${wider === d.spreads.length ? 'every size' : `${wider} of ${d.spreads.length} sizes`}, ` +
          `by a factor ${range(d.spreads.map(factor), (v) => v.toFixed(2))}; it is wider at every size in ${ofTotal(seedsWider, d.seedSpreads.length, 'runs')}. The whole-run p99 is ${durationMs(d.spreads[0]!.truth)}.`,
      ),
      plot: {
        height: 300,
        marginLeft: 60,
        x: { label: 'window (requests)', type: 'band', domain: d.spreads.map((s: Spread) => `${s.windowSize}`) },
        y: { label: 'p99 TTFT (ms)', grid: true },
        marks: [
          ...bands(9, 20),
          Plot.ruleY([d.spreads[0]!.truth], { strokeDasharray: '4,3' }),
          ...key(8),
        ],
      },
      // On a phone the key would cover the bands: it goes above the plot.
      narrow: {
        height: 360,
        marginLeft: 52,
        marginRight: 12,
        marginTop: 84,
        marginBottom: 40,
        x: { label: 'window (requests)', type: 'band', domain: d.spreads.map((s: Spread) => `${s.windowSize}`) },
        y: { label: 'p99 TTFT (ms)', grid: true },
        marks: [...bands(6, 14), Plot.ruleY([d.spreads[0]!.truth], { strokeDasharray: '4,3' }), ...key(-78)],
      },
    };
  },
};
