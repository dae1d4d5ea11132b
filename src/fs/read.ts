/**
 * Reading a file the user named, within a stated bound: a regular file's size
 * is checked before a byte is read; anything else (a pipe, /dev/stdin, a
 * device such as /dev/zero) is read once, up to the bound, and refused past it.
 * Every refusal is one line naming the path, the limit and the fix.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { UserError } from '../errors.ts';

/** Bytes read per system call. */
export const READ_CHUNK = 1 << 20;

const mib = (bytes: number) => `${+(bytes / 2 ** 20).toFixed(1)} MiB`;

/** `path: cannot read (no such file)`, for the errors open and read raise. */
export function cannotRead(path: string, err: unknown): UserError {
  const code = (err as NodeJS.ErrnoException).code;
  const why: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied: make it readable for this user',
    EISDIR: 'it is a folder: name a file',
    ENOTDIR: 'a part of the path is not a folder',
    ELOOP: 'too many symbolic links',
  };
  // the system's error stays attached (a command may word it its own way)
  return Object.assign(new UserError(`${path}: cannot read (${(code && why[code]) ?? code ?? (err as Error).message})`), { cause: err });
}

/** An open file: its descriptor and whether it is a regular file (with its size). */
export interface Opened {
  fd: number;
  regular: boolean;
  size: number;
}

export function openForReading(path: string): Opened {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw cannotRead(path, err);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw cannotRead(path, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
    return { fd, regular: st.isFile(), size: st.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** Decoded UTF-8 pieces of an open file from `position` (null: where the descriptor is, for a pipe), at most `limit` bytes. */
export function* readPieces(path: string, fd: number, position: number | null, limit = Infinity): Generator<string> {
  const buf = Buffer.allocUnsafe(READ_CHUNK);
  const dec = new StringDecoder('utf8');
  let total = 0;
  let pos = position;
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, Math.min(READ_CHUNK, Math.max(0, limit - total)), pos);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') continue; // a non-blocking pipe with nothing yet
      throw cannotRead(path, err);
    }
    if (n === 0) break;
    total += n;
    if (pos !== null) pos += n;
    const s = dec.write(n === buf.length ? buf : buf.subarray(0, n));
    if (s) yield s;
    if (total >= limit) break;
  }
  const tail = dec.end();
  if (tail) yield tail;
}

/**
 * A whole file's bytes, at most `maxBytes`: a regular file larger than that is
 * refused before reading; a pipe or device is read up to the bound and
 * refused if it holds more. `what` names the input in the message ("a case file").
 */
export function readBoundedBytes(path: string, maxBytes: number, what = 'the file'): Buffer {
  return readBoundedFrom(path, openForReading(path), maxBytes, what);
}

/**
 * {@link readBoundedBytes} on a file already open, and closed here: a pipe or a
 * named FIFO gives its bytes to one open only (a second open of a FIFO waits for
 * a writer that has gone), so whoever opened it to look at it reads it too.
 */
export function readBoundedFrom(path: string, f: Opened, maxBytes: number, what = 'the file'): Buffer {
  try {
    if (f.regular && f.size > maxBytes) {
      throw new UserError(`${path}: ${what} is ${mib(f.size)}, above the limit of ${mib(maxBytes)} for this input`);
    }
    const parts: Buffer[] = [];
    let bytes = 0;
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    let pos = f.regular ? 0 : null;
    for (;;) {
      let n: number;
      try {
        n = readSync(f.fd, buf, 0, READ_CHUNK, pos);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') continue; // a non-blocking pipe with nothing yet
        throw cannotRead(path, err);
      }
      if (n === 0) break;
      if (pos !== null) pos += n;
      bytes += n;
      if (bytes > maxBytes) {
        throw new UserError(
          `${path}: ${f.regular ? what : `not a regular file (a pipe or device); ${what}`} holds more than ${mib(maxBytes)}, the limit for this input` +
            (f.regular ? '' : ': save it to a file first'),
        );
      }
      parts.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(parts, bytes);
  } finally {
    closeSync(f.fd);
  }
}

/** A whole file's text (UTF-8), at most `maxBytes`, as {@link readBoundedBytes} reads it. */
export function readBoundedText(path: string, maxBytes: number, what = 'the file'): string {
  return readBoundedBytes(path, maxBytes, what).toString('utf8');
}

/** The first `n` bytes of a file (fewer when it is shorter); for a regular file only. */
export function readFirstBytes(path: string, n: number): Buffer {
  const f = openForReading(path);
  try {
    const buf = Buffer.alloc(n);
    const got = f.regular ? readSync(f.fd, buf, 0, n, 0) : 0;
    return buf.subarray(0, got);
  } catch (err) {
    throw cannotRead(path, err);
  } finally {
    closeSync(f.fd);
  }
}
