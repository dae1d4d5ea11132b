import type { StepView } from '../../src/sim/index.ts';

/**
 * A step observer that keeps, per engine step, its end time and the output
 * tokens emitted then, plus the running and waiting counts: 16 bytes a step,
 * nothing per token. Enough to compute throughput in any window exactly, and
 * timelines in bins, for runs of any length.
 */
export class StepLog {
  count = 0;
  private tEnd = new Float64Array(1024);
  private tokens = new Int32Array(1024);
  private running = new Int32Array(1024);
  private waiting = new Int32Array(1024);

  /** Pass as `onStep`. */
  readonly onStep = (v: StepView): void => {
    if (this.count === this.tEnd.length) this.grow();
    const i = this.count++;
    this.tEnd[i] = v.t + v.dt;
    this.tokens[i] = v.tokens;
    this.running[i] = v.running;
    this.waiting[i] = v.waiting;
  };

  private grow(): void {
    const n = this.tEnd.length * 2;
    const f = new Float64Array(n);
    f.set(this.tEnd);
    this.tEnd = f;
    for (const k of ['tokens', 'running', 'waiting'] as const) {
      const a = new Int32Array(n);
      a.set(this[k]);
      this[k] = a;
    }
  }

  /** Output tokens emitted at step ends in (start, end]. */
  tokensIn(start: number, end: number): number {
    let s = 0;
    for (let i = 0; i < this.count; i++) {
      const t = this.tEnd[i];
      if (t > start && t <= end) s += this.tokens[i];
    }
    return s;
  }

  totalTokens(): number {
    let s = 0;
    for (let i = 0; i < this.count; i++) s += this.tokens[i];
    return s;
  }

  /**
   * Timeline in bins of `binS` seconds: output tokens/s, and the running and
   * waiting counts of the last step ending in each bin.
   */
  timeline(binS: number): { t: number; tokensPerS: number; running: number; waiting: number }[] {
    const out: { t: number; tokensPerS: number; running: number; waiting: number }[] = [];
    let b = 0;
    let acc = 0;
    let lastRunning = 0;
    let lastWaiting = 0;
    for (let i = 0; i < this.count; i++) {
      const bi = Math.floor(this.tEnd[i] / binS);
      while (b < bi) {
        out.push({ t: b * binS, tokensPerS: acc / binS, running: lastRunning, waiting: lastWaiting });
        acc = 0;
        b++;
      }
      acc += this.tokens[i];
      lastRunning = this.running[i];
      lastWaiting = this.waiting[i];
    }
    out.push({ t: b * binS, tokensPerS: acc / binS, running: lastRunning, waiting: lastWaiting });
    return out;
  }
}
