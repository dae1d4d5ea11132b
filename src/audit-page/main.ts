/**
 * The "Audit a run" page in the reader's browser: a file dropped on the
 * target (or picked with the file input) is read, recognised, imported and
 * audited in a Web Worker (./worker.ts) by the same modules `stopwatches audit`
 * runs (src/audit/file.ts, over the dropped file's text), with its progress in
 * the status line; this script then renders the same sections as `--html`
 * (src/audit/html.ts), with Plot drawing in this page's document. Nothing is
 * sent anywhere: the file's text never leaves the page.
 */
import { auditSections } from '../audit/html.ts';
import type { FromWorker, ToWorker } from './worker.ts';

declare const __AUDIT_WORKER__: string;

const root = document.getElementById('audit-page')!;
const drop = document.getElementById('audit-drop')!;
const input = document.getElementById('audit-file') as HTMLInputElement;
const status = document.getElementById('audit-status')!;
const out = document.getElementById('audit-out')!;

function setState(state: 'idle' | 'reading' | 'done' | 'error', text: string): void {
  root.dataset.state = state;
  status.textContent = text;
}

let worker: Worker | null = null;
let workerUrl: string | null = null;
/** The audit whose answers the page shows; a new drop supersedes the one running. */
let current = 0;

function startWorker(): Worker {
  workerUrl ??= URL.createObjectURL(new Blob([__AUDIT_WORKER__], { type: 'text/javascript' }));
  const w = new Worker(workerUrl);
  w.onmessage = (e: MessageEvent<FromWorker>) => onWorker(e.data);
  w.onerror = (e) => {
    e.preventDefault();
    w.terminate();
    if (worker === w) worker = null;
    setState('error', `The audit stopped: ${e.message || 'unknown error'}. Reload the page and try again.`);
  };
  return w;
}

function onWorker(m: FromWorker): void {
  if (m.id !== current) return;
  if (m.type === 'progress') {
    status.textContent = m.text;
    return;
  }
  const { runs, problems } = m;
  out.innerHTML = runs.length ? auditSections(runs, document) : '';
  out.hidden = runs.length === 0;
  const done = runs.length ? `Audited ${runs.length} run${runs.length === 1 ? '' : 's'}.` : '';
  if (problems.length) {
    setState('error', [done, ...problems].filter(Boolean).join(' '));
    if (runs.length) root.dataset.state = 'done';
  } else setState('done', done);
}

function audit(files: File[]): void {
  if (files.length === 0) return;
  // a file still being read is dropped for the new one: its answer would only be thrown away
  if (root.dataset.state === 'reading') {
    worker?.terminate();
    worker = null;
  }
  worker ??= startWorker();
  current += 1;
  setState('reading', `Reading ${files.length === 1 ? files[0].name : `${files.length} files`}…`);
  const msg: ToWorker = { type: 'audit', id: current, files };
  worker.postMessage(msg);
}

for (const ev of ['dragenter', 'dragover']) {
  drop.addEventListener(ev, (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
}
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  audit([...((e as DragEvent).dataTransfer?.files ?? [])]);
});
input.addEventListener('change', () => {
  audit([...(input.files ?? [])]);
  input.value = '';
});
setState('idle', 'Drop a result file, or pick one.');
