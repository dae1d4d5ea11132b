/**
 * Reading the YAML some tools' users keep their results in (llm-d's benchmark
 * reports; inference-perf lifecycle reports re-saved as YAML). YAML 1.2 core
 * schema (the `yaml` package's default): `.inf` is Infinity, an unquoted
 * ISO date stays a string, and a duplicate key is an error rather than a
 * silent overwrite. A problem is one line naming the file and the line.
 */
import { parseDocument } from 'yaml';
import { fail } from './reading.ts';
import { stripBom, type Json } from './json-text.ts';

export function parseYaml(file: string, text: string): Json {
  const doc = parseDocument(stripBom(text), { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line;
    fail(file, `invalid YAML${line ? ` at line ${line}` : ''}: ${e.message.split('\n')[0]}`);
  }
  return doc.toJS({ maxAliasCount: 100 }) as Json;
}

/** Whether the text's top level has every one of these keys at column 0 (`key:`), without parsing it. */
export function yamlTopKeys(text: string, keys: readonly string[]): boolean {
  return keys.every((k) => new RegExp(`^${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:`, 'm').test(text));
}
