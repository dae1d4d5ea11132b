/**
 * A mistake in what the user gave us (a bad file, a bad flag, a bad field).
 * The CLI prints its message on one line and exits with status 2, never a stack trace.
 * Messages name the file, the field and the fix: `case.json: workload.isl[3] is 0; lengths must be ≥ 1`.
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}
