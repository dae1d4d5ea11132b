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

