/**
 * The "Audit a run" page's Web Worker: reads the dropped files and audits
 * them off the page's thread, so a big file does not freeze the page. One
 * message in ({type: 'audit', id, files}); out: throttled progress lines, then
 * each run's report and chart series (src/audit/series.ts `RunView`, plain
 * data) with one line per file that could not be read or audited. The page
 * draws the figures, which need its document. The page cancels by terminating
 * the worker. Bundled into the page as a string and started from a blob URL,
 * so it loads from file:// and from any sub-path.
 */
import { auditFile } from '../audit/file.ts';
import { runView, type RunView } from '../audit/series.ts';
import { importChecked } from '../importers/metrics-input.ts';
import { UserError } from '../errors.ts';
import { formatMessage } from '../format/text.ts';

export type ToWorker = { type: 'audit'; id: number; files: File[] };
export type FromWorker =
  | { type: 'progress'; id: number; text: string }
  | { type: 'done'; id: number; runs: RunView[]; problems: string[] };

interface WorkerScope {
  postMessage(m: FromWorker): void;
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;

/** Progress lines are posted at most this often (ms): often enough to move, rarely enough for a screen reader. */
const PROGRESS_EVERY_MS = 250;

const mb = (bytes: number) => `${formatMessage(bytes / 1e6)} MB`;

/** The file's text (UTF-8, as File.text() decodes it), read in pieces so the page can say how far it got. */
async function readText(f: File, progress: (text: string) => void): Promise<string> {
  const reader = f.stream().getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let read = 0;
  let last = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    read += value.byteLength;
    parts.push(decoder.decode(value, { stream: true }));
    const now = Date.now();
    if (now - last >= PROGRESS_EVERY_MS) {
      last = now;
      progress(`Reading ${f.name}: ${mb(read)} of ${mb(f.size)}…`);
    }
  }
  parts.push(decoder.decode());
  return parts.join('');
}

scope.onmessage = async (e) => {
  const msg = e.data;
  if (msg.type !== 'audit') return;
  const { id, files } = msg;
  const progress = (text: string) => scope.postMessage({ type: 'progress', id, text });
  const runs: RunView[] = [];
  const problems: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = await readText(f, progress);
    } catch (err) {
      // a folder, a file moved or deleted since it was picked, or one the browser may not read
      problems.push(`${f.name}: cannot be read (${(err as Error).name || 'read error'}); drop or pick the file itself again.`);
      continue;
    }
    try {
      progress(`Auditing ${f.name} (${mb(f.size)})…`);
      for (const a of await auditFile(f.name, (entry) => importChecked(f.name, text, { entry }))) runs.push(runView(a));
    } catch (err) {
      // a file the readers refuse is one line naming it and the fix; anything else is a bug worth showing as it is
      problems.push(err instanceof UserError ? err.message : `${f.name}: ${(err as Error).message}`);
    }
  }
  scope.postMessage({ type: 'done', id, runs, problems });
};
