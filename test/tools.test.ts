/**
 * The registry's descriptors are complete: a new tool or format that forgets a
 * field, a sniff, a reader, a description or a per-user speed's needs fails
 * here rather than in a user's run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TABLE1, TABLE2 } from '../src/metrics/index.ts';
import { metricsReport } from '../src/metrics/report.ts';
import { fromSimResult } from '../src/metrics/index.ts';
import { CAPABILITY_WORDS } from '../src/importers/metrics-input.ts';
import { FORMATS, TOOLS } from '../src/tools/registry.ts';
import { defaultServerConfig, fixedLengths, simulate } from '../src/sim/index.ts';

const CAPABILITIES = Object.keys(CAPABILITY_WORDS);

const FIELDS = ['id', 'name', 'source', 'table1', 'table2', 'report', 'speeds', 'formats', 'versions'] as const;

describe('the tool registry', () => {
  it('every descriptor states every field (null where it has none) and at least one version', () => {
    for (const t of TOOLS) {
      for (const f of FIELDS) expect(t[f], `${t.id}.${f}`).not.toBeUndefined();
      expect(t.id).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(t.name.length).toBeGreaterThan(2);
      expect(t.versions.length, `${t.id}.versions`).toBeGreaterThan(0);
      if (t.source) {
        expect(t.source.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
        expect(t.source.files.length).toBeGreaterThan(0);
      }
      // a tool in Table 1 is in Table 2 too, with its source
      expect(t.table2 === null, `${t.id}: Table 1 and Table 2 rows go together`).toBe(t.table1 === null);
      if (t.table1) expect(t.source, `${t.id}: a Table 1 row cites its source`).not.toBeNull();
    }
  });

  it('ids are unique: tools, and formats over the whole registry', () => {
    const tools = TOOLS.map((t) => t.id);
    expect(new Set(tools).size).toBe(tools.length);
    const formats = FORMATS.map((f) => f.id);
    expect(new Set(formats).size).toBe(formats.length);
  });

  it('every format has a description, a name for sentences, a sniff, a reader and says whether it checks its aggregates', () => {
    for (const f of FORMATS) {
      expect(f.description.length, f.id).toBeGreaterThan(20);
      expect(f.nameInSentence, f.id).toMatch(/^(a|an) /);
      expect(f.sniff.text ?? f.sniff.json, `${f.id}: recognised by content`).toBeTypeOf('function');
      expect(f.read, f.id).toBeTypeOf('function');
      expect(typeof f.aggregates, f.id).toBe('boolean');
      expect(f.agreement === null || typeof f.agreement === 'function', f.id).toBe(true);
    }
  });

  it('every tool of Table 1 has a descriptor, and Tables 1 and 2 come from them in the registry\u2019s order', () => {
    const withTable = TOOLS.filter((t) => t.table1 !== null).map((t) => t.id);
    expect(TABLE1.map((r) => r.tool)).toEqual(withTable);
    expect(TABLE2.map((r) => r.tool)).toEqual(withTable);
    expect(withTable).toEqual(['vllm', 'sglang', 'inferencex', 'aiperf', 'guidellm', 'llmperf', 'mlperf']);
    for (const r of TABLE1) {
      // the implementation Table 1 names exists and defines the functions it names
      const [path, ...fns] = r.implementation.split(/[ ,()]+/).filter((w) => w && !/^(code|article)$/.test(w));
      const text = readFileSync(join(__dirname, '..', path), 'utf8');
      for (const fn of fns) expect(text, `${path} defines ${fn}`).toMatch(new RegExp(`export (function|const) ${fn}\\b`));
    }
  });

  it('every per-user speed row names a metric its tool declared, with needs that are capabilities', () => {
    for (const t of TOOLS) {
      if (!t.speeds) continue;
      for (const [m, needs] of Object.entries(t.speeds.needs)) {
        expect(needs.length, `${t.id} ${m}`).toBeGreaterThan(0);
        for (const c of needs) expect(CAPABILITIES, `${t.id} ${m}: ${c}`).toContain(c);
      }
    }
    const res = simulate(defaultServerConfig(), { isl: fixedLengths(40, 256), osl: fixedLengths(40, 32) }, { kind: 'closed', slots: 4 }, { recordTokens: true });
    const run = fromSimResult(res, { client: { kind: 'closed', slots: 4 } });
    for (const llama2Inflation of [null, 1.2]) {
      for (const t of TOOLS) {
        for (const row of t.speeds?.rows(run, { llama2Inflation }) ?? []) {
          expect(row.tool).toBe(t.id);
          expect(Object.keys(t.speeds!.needs), `${t.id} ${row.metric}`).toContain(row.metric);
        }
      }
      // the report's speed rows carry exactly the declared needs
      const rows = metricsReport(run, { llama2Inflation }).filter((r) => r.quantity === 'per-user speed' && r.metric.startsWith('per-user speed: '));
      expect(rows.length).toBeGreaterThan(7);
      for (const r of rows) {
        const metric = r.stat.replace(/^per-user speed: /, '');
        expect(r.needs).toEqual([...TOOLS.find((t) => t.id === r.tool)!.speeds!.needs[metric]]);
      }
    }
  });
});
