/**
 * Figures of experiments/first-wave.ts, drawn from its combined data on every build.
 * Not part of any job key: editing this file re-renders, never reruns.
 */
import * as Plot from '@observablehq/plot';
import { PALETTE } from '../../src/figure-style.ts';
import type { Figures } from '../../src/pipeline/types.ts';
import type { FirstWaveData } from '../first-wave.ts';
import { count, durationMs, plain, preciseMs, range } from './lib/words.ts';

export const figures: Figures<FirstWaveData> = {
  ttft: (d) => {
    const f = d.figure;
    const wave = f.ttfts.slice(0, f.slots);
    const rest = f.ttfts.slice(f.slots);
    const seeds = d.seeds as { seed: number; p99All: number; p99After: number }[];
    // The seeds' spread sits right of the last request, in the margin: the run on the left, every run beside it.
    const strip = f.requests * 1.05;
    const ratio = (f.p99All / f.p99After).toFixed(1);
    return {
      title: 'Time to first token, request by request',
      caption: plain(
        `Closed loop, ${f.slots} slots, every slot opened at once: the first ${f.slots} requests queue behind each other’s prefill. Dashed: the whole-run p99; dotted: the p99 without those ${f.slots}. ` +
          `The run drawn is seed ${f.seed}, the median of the ${seeds.length} seeds by the ratio of the two (${ratio}×); right of it, each seed’s two p99s.`,
      ),
      // Read from the run drawn and the seeds beside it.
      alt: plain(
        `Scatter of time to first token against request index for the ${count(f.ttfts.length)} requests of seed ${f.seed}, on a log axis. ` +
          `The first ${f.slots} requests climb a staircase ${range(wave, durationMs)}; the other ${count(rest.length)} run ${range(rest, durationMs)}. ` +
          `The whole-run p99 is ${preciseMs(f.p99All)}, the p99 without the first ${f.slots} ${preciseMs(f.p99After)}. ` +
          `Over the ${seeds.length} seeds the whole-run p99 runs ${range(seeds.map((s) => s.p99All), preciseMs)} and the p99 without the wave ${range(seeds.map((s) => s.p99After), durationMs)}.`,
      ),
      plot: {
        height: 360,
        marginLeft: 56,
        marginRight: 56,
        y: { type: 'log', label: 'TTFT (ms)', grid: true },
        x: { label: 'request index', domain: [0, f.requests] },
        marks: [
          Plot.dot(f.ttfts.map((v: number, i: number) => ({ i, v, wave: i < f.slots })), {
            x: 'i',
            y: 'v',
            r: 1.6,
            fill: (p: { wave: boolean }) => (p.wave ? PALETTE.vermillion : PALETTE.blue),
          }),
          Plot.ruleY([f.p99All], { stroke: PALETTE.vermillion, strokeDasharray: '6,3' }),
          Plot.ruleY([f.p99After], { stroke: PALETTE.blue, strokeDasharray: '2,3' }),
          Plot.text([`whole-run p99, seed ${f.seed}`], { x: f.requests, y: f.p99All, textAnchor: 'end', dy: -6, fill: PALETTE.vermillion }),
          Plot.text([`p99 after the first wave, seed ${f.seed}`], { x: f.requests, y: f.p99After, textAnchor: 'end', dy: -6, fill: PALETTE.blue }),
          Plot.dot(seeds, { x: () => strip, y: 'p99All', stroke: PALETTE.vermillion, r: 2.5 }),
          Plot.dot(seeds, { x: () => strip, y: 'p99After', stroke: PALETTE.blue, r: 2.5 }),
          Plot.text([`${seeds.length} seeds`], { x: strip, y: Math.max(...seeds.map((s) => s.p99All)), dy: -14 }),
        ],
      },
    };
  },
};
