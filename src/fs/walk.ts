/**
 * Walking a folder tree the way every reader of the project's folders must:
 * symbolic links are never followed (a link to a parent folder would make the
 * walk endless), and only regular files are listed (a FIFO or a link to
 * /dev/zero named like a cache entry must never be read). Node's
 * `readdirSync(dir, { recursive: true })` follows links to folders, hence this.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The regular files under `dir`, as paths relative to it, sorted; an unreadable folder is skipped. */
export function walkFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = rel ? join(rel, e.name) : e.name;
      if (e.isDirectory()) visit(path);
      else if (e.isFile()) out.push(path);
    }
  };
  visit('');
  return out.sort();
}
