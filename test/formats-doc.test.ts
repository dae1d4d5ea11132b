/**
 * The README's table of formats and versions and `stopwatches metrics --help`
 * both come from the descriptors in the registry, so neither can drift from
 * what is read: a new format (or version line) in a descriptor fails this
 * test until the README's table is regenerated (the expected table is printed).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatTable } from '../src/importers/index.ts';
import { FORMATS, TOOLS } from '../src/tools/registry.ts';
import { runCli } from './helpers/cli.ts';

const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

describe('the formats the README and --help list are the ones read', () => {
  it('README holds the table formatTable() makes from the descriptors', () => {
    const table = formatTable();
    expect(README.includes(table), `README.md's format table differs from the descriptors'; replace it with:\n${table}`).toBe(true);
  });
  it('the table has one row per format and every version line of every tool that reads files', () => {
    const table = formatTable();
    for (const f of FORMATS) expect(table).toContain(`| \`${f.id}\` |`);
    for (const t of TOOLS.filter((x) => x.formats.length > 0)) for (const v of t.versions) expect(table).toContain(v);
  });
  it('`stopwatches metrics --help` lists every format with its description', async () => {
    const r = await runCli(['metrics', '--help']);
    expect(r.code).toBe(0);
    for (const f of FORMATS) expect(r.out).toContain(`  ${f.id}: ${f.description}`);
  });
});
