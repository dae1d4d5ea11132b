/**
 * A test's own folder under the system's temp folder, removed when it is no
 * longer needed: at the end of the test that asked for it (or of the test a
 * beforeEach asked for it for), or at the end of the file when asked for at
 * its top level or in a describe. A suite that left its folders behind would
 * add dozens to the machine's temp folder on every `npm test`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    // not inside a test: the file's (or the describe's) collection
    afterAll(remove);
  }
  return dir;
}
