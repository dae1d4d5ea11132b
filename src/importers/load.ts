/**
 * The one node-only step of reading a result file: opening it as a
 * ResultInput (src/tools/base/input.ts). A regular file is streamed from disk
 * in pieces, as often as a reader asks, so its size is bounded by the
 * records it holds, not by its bytes. Anything else (a pipe, /dev/stdin, a
 * device) is read once, up to MAX_STREAM_BYTES, and refused past it.
 * Everything after this (recognition, readers, agreement, definitions) works
 * on the input and runs in a browser too.
 */
import { closeSync, readFileSync } from 'node:fs';
import { cannotRead, openForReading, readBoundedText, readPieces } from '../fs/read.ts';
import { HEAD_CHARS, MAX_TEXT_BYTES, textInput, tooLargeForText, type ResultInput } from '../tools/base/input.ts';
import type { ImportOptions, ImportResult } from '../tools/base/result.ts';
import { importResult } from './index.ts';
import { metricsInput, type MetricsInput } from './metrics-input.ts';

/** The most read from a pipe or device (it cannot be read twice, so it is held). */
export const MAX_STREAM_BYTES = MAX_TEXT_BYTES;

/** A result file as an input: streamed when it is a regular file, else held up to MAX_STREAM_BYTES. */
export function openResultInput(path: string): ResultInput {
  const f = openForReading(path);
  if (!f.regular) {
    closeSync(f.fd);
    return textInput(path, readBoundedText(path, MAX_STREAM_BYTES, 'the input'));
  }
  let head = '';
  try {
    for (const s of readPieces(path, f.fd, 0, HEAD_CHARS)) head += s;
  } finally {
    closeSync(f.fd);
  }
  const size = f.size;
  const whole = size <= HEAD_CHARS;
  return {
    file: path,
    bytes: size,
    head,
    whole,
    *chunks() {
      if (whole) {
        yield head;
        return;
      }
      const g = openForReading(path);
      try {
        yield* readPieces(path, g.fd, 0);
      } finally {
        closeSync(g.fd);
      }
    },
    text() {
      if (whole) return head;
      if (size > MAX_TEXT_BYTES) throw tooLargeForText(path, `the file (${(size / 2 ** 20).toFixed(0)} MiB)`);
      try {
        return readFileSync(path, 'utf8');
      } catch (err) {
        throw cannotRead(path, err);
      }
    },
  };
}

/** A file's whole text (at most MAX_TEXT_BYTES), or one line saying why it cannot be read. */
export function readResultText(path: string): string {
  return readBoundedText(path, MAX_TEXT_BYTES, 'the file');
}

/** Read and import a result file; the format is detected unless given. */
export async function importResultFile(path: string, opts: ImportOptions = {}): Promise<ImportResult> {
  return importResult(path, openResultInput(path), opts);
}

/** Open a file and prepare it for `stopwatches metrics`. */
export function loadMetricsInput(path: string, opts: { format?: string; entry?: number }): MetricsInput {
  return metricsInput(path, openResultInput(path), opts);
}

