/**
 * What both kernels report per engine step: the optional per-step trace (`recordSteps`)
 * and the reused view handed to `onStep`.
 */
import type { StepTrace, StepView } from './types.ts';

/** Growable per-step trace (doubling typed arrays; amortised, not per-step allocation). */
export class TraceBuilder {
  count = 0;
  t = new Float64Array(1024);
  dt = new Float64Array(1024);
  decodes = new Int32Array(1024);
  prefillTokens = new Int32Array(1024);
  running = new Int32Array(1024);
  waiting = new Int32Array(1024);
  usedBlocks = new Int32Array(1024);

  push(t: number, dt: number, dec: number, pre: number, run: number, wait: number, used: number): void {
    if (this.count === this.t.length) this.grow();
    const i = this.count++;
    this.t[i] = t;
    this.dt[i] = dt;
    this.decodes[i] = dec;
    this.prefillTokens[i] = pre;
    this.running[i] = run;
    this.waiting[i] = wait;
    this.usedBlocks[i] = used;
  }

  private grow(): void {
    const m = this.t.length * 2;
    const f = (a: Float64Array) => { const b = new Float64Array(m); b.set(a); return b; };
    const g = (a: Int32Array) => { const b = new Int32Array(m); b.set(a); return b; };
    this.t = f(this.t);
    this.dt = f(this.dt);
    this.decodes = g(this.decodes);
    this.prefillTokens = g(this.prefillTokens);
    this.running = g(this.running);
    this.waiting = g(this.waiting);
    this.usedBlocks = g(this.usedBlocks);
  }

  build(): StepTrace {
    const c = this.count;
    return {
      count: c,
      t: this.t.slice(0, c),
      dt: this.dt.slice(0, c),
      decodes: this.decodes.slice(0, c),
      prefillTokens: this.prefillTokens.slice(0, c),
      running: this.running.slice(0, c),
      waiting: this.waiting.slice(0, c),
      usedBlocks: this.usedBlocks.slice(0, c),
    };
  }
}

/** The one StepView object a run reuses for every step. */
export function newStepView(): StepView {
  return {
    step: 0, t: 0, dt: 0, served: 0, decodes: 0, prefillTokens: 0, tokens: 0,
    running: 0, waiting: 0, usedBlocks: 0, finished: 0, done: 0,
  };
}

/** Fills the observer's view of one step (one object reused for every step, so nothing is allocated per step). */
export function fillStepView(
  view: StepView,
  step: number,
  t: number,
  dt: number,
  served: number,
  decodes: number,
  tokens: number,
  logits: number,
  running: number,
  waiting: number,
  usedBlocks: number,
  finished: number,
  done: number,
): StepView {
  view.step = step;
  view.t = t;
  view.dt = dt;
  view.served = served;
  view.decodes = decodes;
  view.prefillTokens = tokens - decodes;
  view.tokens = logits;
  view.running = running;
  view.waiting = waiting;
  view.usedBlocks = usedBlocks;
  view.finished = finished;
  view.done = done;
  return view;
}
