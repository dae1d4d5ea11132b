/** The outcome of one consistency check on a published table row. */
export interface CheckOutcome {
  check: 'littles-law' | 'roofline-per-user' | 'roofline-total';
  /** pass: consistent; fail: inconsistent; skipped: not enough inputs (the reason is the message). */
  status: 'pass' | 'fail' | 'skipped';
  /** One line for people: PASS/FAIL reasoning with the numbers. */
  message: string;
  /** How far apart the claim and the bound are (> 1 means over by that factor); null when skipped or when no bound exists. */
  ratio: number | null;
  /** Inputs and derived values, SI units (s, req/s, tok/s, B, B/s, FLOP/s). */
  values: Record<string, number>;
}

/** Numbers for messages: 3 significant digits, thousands separated. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 1000) return Math.round(x).toLocaleString('en-US');
  if (a >= 100) return (Math.round(x * 10) / 10).toString();
  return Number(x.toPrecision(4)).toString();
}

/** Bytes and bandwidths for messages (GB, TB/s). */
export function fmtBytes(b: number): string {
  return b >= 1e12 ? `${fmt(b / 1e12)} TB` : b >= 1e9 ? `${fmt(b / 1e9)} GB` : b >= 1e6 ? `${fmt(b / 1e6)} MB` : `${fmt(b)} B`;
}
