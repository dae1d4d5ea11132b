#!/usr/bin/env node
// Entry point of `npx stopwatches`: runs the TypeScript CLI through tsx, so the
// published sources are what runs (no separate compile step). A start takes a verified bundle
// of those same sources when there is one (bin/bundled.mjs, src/cli-bundle.ts), and has it
// built when there is none.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledEntry, startsBundled } from './bundled.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const argv = process.argv.slice(2);
const entry = bundledEntry(root);
let cli;
if (entry) cli = await import(entry);
else {
  const { register } = await import('tsx/esm/api');
  register();
  if (startsBundled()) {
    // for the next start; a folder that cannot be written (an installed package) only means tsx each time
    await (await import('../src/cli-bundle.ts')).buildCliBundle(root).catch(() => {});
  }
  cli = await import('../src/cli.ts');
}
cli.guardStandardStreams();
process.exitCode = await cli.main(argv);
