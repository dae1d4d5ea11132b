/**
 * Conformance: every golden case of the reference simulator (test/fixtures/golden)
 * replayed by both kernels (event and stepwise): same steps, preemptions and per-request preemption counts,
 * times within 1e-9 relative, and the first 64 step records.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { caseFromJson } from '../src/sim/case.ts';
import { simulate } from '../src/sim/index.ts';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/golden');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Indices where the two columns differ beyond the tolerance (empty when they agree). */
function mismatches(expected: number[], got: ArrayLike<number>): number[] {
  const bad: number[] = [];
  for (let i = 0; i < expected.length; i++) if (!close(expected[i], got[i])) bad.push(i);
  return bad;
}

describe('golden cases', () => {
  it('has the nine cases', () => {
    expect(files.length).toBe(9);
  });

  for (const f of files) for (const kernel of ['event', 'stepwise'] as const) {
    it(`${f} (${kernel} kernel)`, () => {
      const json = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const { cfg, workload, client } = caseFromJson(json, f);
      const res = simulate(cfg, workload, client, { kernel, recordSteps: true, recordTokens: true });
      const e = json.expected;
      expect(res.steps).toBe(e.steps);
      expect(res.preemptions).toBe(e.preemptions);
      expect(close(res.makespan, e.makespan)).toBe(true);
      expect(Array.from(res.npre)).toEqual(e.requests.npre);
      expect(mismatches(e.requests.send_t, res.sendT)).toEqual([]);
      expect(mismatches(e.requests.first_t, res.firstT)).toEqual([]);
      expect(mismatches(e.requests.finish_t, res.finishT)).toEqual([]);
      const tr = res.stepTrace!;
      e.first_steps.forEach((row: number[], s: number) => {
        const got = [tr.t[s], tr.dt[s], tr.decodes[s], tr.prefillTokens[s], tr.running[s], tr.waiting[s], tr.usedBlocks[s]];
        expect(got.every((v, j) => close(v, row[j])), `step ${s}: ${got} vs ${row}`).toBe(true);
      });
      // In fact the port is bit-identical, not just within tolerance.
      expect(res.makespan).toBe(e.makespan);
      expect(Array.from(res.finishT)).toEqual(e.requests.finish_t);
    });
  }
});
