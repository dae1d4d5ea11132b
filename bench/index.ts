/**
 * `npm run bench`: every benchmark of the project, in order. Each bench/*.bench.ts
 * exports `default async function (): Promise<void>` that prints its own figures.
 * Performance targets are measured here, never in timed unit tests.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts')).sort();
for (const f of files) {
  const name = f.replace(/\.bench\.ts$/, '');
  if (only.length && !only.includes(name)) continue;
  console.log(`\n## ${name}`);
  const mod = await import(join(here, f));
  await mod.default();
}
