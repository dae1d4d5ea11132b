/**
 * Progress while a large result file is read, on a terminal only: one line
 * on stderr (never mixed into the report or --json on stdout, never written
 * to a pipe or a file), shown after two seconds, rewritten at most four times
 * a second and erased when each pass over the file ends.
 */
import { terminalText } from '../format/text.ts';
import type { ReadProgress } from '../importers/load.ts';

export function readingProgress(command: string, file: string): ReadProgress | undefined {
  if (!process.stderr.isTTY) return undefined;
  const t0 = Date.now();
  let last = 0;
  let shown = false;
  return (read, bytes) => {
    if (read === null) {
      if (shown) process.stderr.write('\r\x1b[K');
      shown = false;
      return;
    }
    const now = Date.now();
    if (now - t0 < 2000 || now - last < 250) return;
    last = now;
    shown = true;
    const mb = (b: number) => `${Math.round(b / 2 ** 20)} MiB`;
    process.stderr.write(`\r${command}: reading ${terminalText(file)}: ${mb(read)} of ${mb(bytes)} (${Math.floor((100 * read) / bytes)}%), ${Math.round((now - t0) / 1000)} s\x1b[K`);
  };
}
