/**
 * Which format a result file is: by content first (each format's sniff in
 * its tool's descriptor; the lowest rank wins, ties go to the registry's
 * order), by file name only as a fallback (so a truncated
 * `profile_export.jsonl` still reaches the AIPerf reader, which then names the
 * problem). A file is recognised once, here; readers are told the outcome.
 */
import { parsePythonJson, stripBom, type Json } from '../tools/base/json-text.ts';
import { textInput, type ResultInput } from '../tools/base/input.ts';
import { isJsonLines, readJsonDocument } from '../tools/base/reading.ts';
import type { ResultFormat, Sniff } from '../tools/base/descriptor.ts';
import type { Recognition } from '../tools/base/result.ts';
import { FORMATS } from '../tools/registry.ts';

function best(test: (s: Sniff) => number | null): ResultFormat | null {
  let found: ResultFormat | null = null;
  let rank = Infinity;
  for (const f of FORMATS) {
    const r = test(f.sniff);
    if (r !== null && r < rank) {
      rank = r;
      found = f;
    }
  }
  return found;
}

/** The format of one parsed JSON value (a whole document or one JSON line), or null. */
export function sniffValue(v: Json): string | null {
  return best((s) => (s.json ? s.json(v) : null))?.id ?? null;
}

function firstLine(text: string): string | undefined {
  return text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
}

/** The file-name conventions of each tool's writer. */
export function formatFromName(path: string): string | null {
  const name = path.split(/[\\/]/).pop()!.toLowerCase();
  return best((s) => (s.fileName ? s.fileName(name) : null))?.id ?? null;
}

/** Content-based detection of a whole file's text: the text tests first, then the whole document as JSON, else its first line. */
export function sniffText(raw: string): string | null {
  return sniffInput(textInput('', raw));
}

/**
 * Content-based detection of an input: the text tests on its head, then (a
 * file within the head) the whole document as JSON, else its first line; a
 * larger file is JSON lines by its first line, else one document, parsed once
 * (the reader is handed the same parse).
 */
export function sniffInput(input: ResultInput): string | null {
  const text = stripBom(input.head);
  const head = firstLine(text);
  if (head === undefined) return null;
  const byText = best((s) => (s.text ? s.text(text, head) : null));
  if (byText) return byText.id;
  if (!input.whole) {
    if (isJsonLines(input)) return sniffValue(parsePythonJson(head));
    if (!/^[[{]/.test(text.trimStart())) return null;
    try {
      return sniffValue(readJsonDocument(input));
    } catch {
      return null; // broken JSON: the reader names where
    }
  }
  try {
    return sniffValue(parsePythonJson(text));
  } catch {
    /* not one JSON document: try the first line (JSON lines) */
  }
  try {
    return sniffValue(parsePythonJson(head));
  } catch {
    return null;
  }
}

/** The format of a result file, or null when neither content nor name tells. */
export function detectFormat(path: string, text: string | ResultInput): string | null {
  return (typeof text === 'string' ? sniffText(text) : sniffInput(text)) ?? formatFromName(path);
}

/** What a file of a format is called in a sentence. */
export function nameOf(format: string): string {
  return FORMATS.find((f) => f.id === format)!.nameInSentence;
}

/** What a reader is told: how the registry recognises a value, and " (it looks like …: --format …)" for its errors, or ''. */
export function recognition(seen: string | null): Recognition {
  return { recognise: sniffValue, looksLike: seen ? ` (it looks like ${nameOf(seen)}: --format ${seen})` : '' };
}

/** For errors under an explicit --format: " (it looks like an AIPerf file: --format aiperf)" or "". */
export function looksLike(text: string): string {
  return recognition(sniffText(text)).looksLike;
}
