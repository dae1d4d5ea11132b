/**
 * The "Audit a run" page in the reader's browser: a file dropped on the
 * target (or picked with the file input) is read here, recognised, imported
 * and audited by the same modules `stopwatches audit` runs (src/audit/file.ts, over
 * the dropped file's text),
 * and rendered by the same HTML as `--html` (src/audit/html.ts), with Plot
 * drawing in this page's document. Nothing is sent anywhere: the file's text
 * never leaves this script.
 */
import { auditSections } from '../audit/html.ts';
import { auditFile, type Audited } from '../audit/file.ts';
import { importChecked } from '../importers/metrics-input.ts';
import { UserError } from '../errors.ts';

const root = document.getElementById('audit-page')!;
const drop = document.getElementById('audit-drop')!;
const input = document.getElementById('audit-file') as HTMLInputElement;
const status = document.getElementById('audit-status')!;
const out = document.getElementById('audit-out')!;

function setState(state: 'idle' | 'reading' | 'done' | 'error', text: string): void {
  root.dataset.state = state;
  status.textContent = text;
}

/** Lets the status line paint before a long synchronous read. */
const frame = () => new Promise<void>((ok) => setTimeout(ok, 0));

async function audit(files: File[]): Promise<void> {
  if (files.length === 0) return;
  setState('reading', `Reading ${files.length === 1 ? files[0].name : `${files.length} files`}…`);
  await frame();
  const runs: Audited[] = [];
  const problems: string[] = [];
  for (const f of files) {
    try {
      const text = await f.text();
      runs.push(...(await auditFile(f.name, (entry) => importChecked(f.name, text, { entry }))));
    } catch (err) {
      // a file the readers refuse is one line naming it and the fix; anything else is a bug worth showing as it is
      problems.push(err instanceof UserError ? err.message : `${f.name}: ${(err as Error).message}`);
    }
  }
  out.innerHTML = runs.length ? auditSections(runs, document) : '';
  out.hidden = runs.length === 0;
  const done = runs.length ? `Audited ${runs.length} run${runs.length === 1 ? '' : 's'}.` : '';
  if (problems.length) {
    setState('error', [done, ...problems].filter(Boolean).join(' '));
    if (runs.length) root.dataset.state = 'done';
  } else setState('done', done);
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
  void audit([...((e as DragEvent).dataTransfer?.files ?? [])]);
});
input.addEventListener('change', () => {
  void audit([...(input.files ?? [])]);
  input.value = '';
});
setState('idle', 'Drop a result file, or pick one.');
