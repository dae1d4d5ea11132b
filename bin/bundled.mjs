// Which start the command line takes (src/cli-bundle.ts says why there are two): the bundle
// named by .cache/cli/current.json when every file it was built from and every file it
// consists of still has the sha256 recorded there; otherwise null, and bin/stopwatches.mjs
// starts the sources through tsx (and has the bundle rebuilt).
// Plain JavaScript: it runs before any TypeScript can be loaded.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Whether a start takes the bundle when there is a verified one (and has it built when there is none). */
export const startsBundled = () => !process.env.STOPWATCHES_NO_BUNDLE;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The verified bundle's entry as a file URL, or null (no bundle, a stale or changed one, or STOPWATCHES_NO_BUNDLE set). */
export function bundledEntry(root) {
  if (!startsBundled()) return null;
  try {
    const base = join(root, '.cache', 'cli');
    const m = JSON.parse(readFileSync(join(base, 'current.json'), 'utf8'));
    for (const [file, hash] of Object.entries(m.inputs)) if (sha256(readFileSync(join(root, file))) !== hash) return null;
    for (const [file, hash] of Object.entries(m.outputs)) if (sha256(readFileSync(join(base, m.dir, file))) !== hash) return null;
    if (!(m.entry in m.outputs)) return null;
    return pathToFileURL(join(base, m.dir, m.entry)).href;
  } catch {
    return null; // absent, unreadable or not a manifest: the sources are started instead
  }
}
