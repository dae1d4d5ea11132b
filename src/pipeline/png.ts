/**
 * Decoding a figure's PNG from a file we did not write (a baseline, a CI
 * artifact): its size is read from the header first, and an image larger than
 * any figure could be is refused before a byte of it is inflated (a 1.5 MB file
 * can declare 20,000 × 20,000 pixels, 1.6 GB decoded).
 */
import pngjs from 'pngjs';

const { PNG } = pngjs;
export type Image = InstanceType<typeof PNG>;

/** Largest figure accepted: over ten times the area of the largest the pipeline renders; 100 MB as RGBA. */
export const MAX_FIGURE_PIXELS = 25_000_000;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk, or a reason the header is not a PNG's. */
export function pngSize(buf: Buffer): { width: number; height: number } | { error: string } {
  if (buf.length < 24 || !buf.subarray(0, 8).equals(SIGNATURE)) return { error: 'no PNG signature' };
  if (buf.toString('latin1', 12, 16) !== 'IHDR') return { error: 'no IHDR chunk first' };
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** The decoded image; throws an Error whose message says what is wrong (the caller names the file and the fix). */
export function decodeFigurePng(buf: Buffer): Image {
  const size = pngSize(buf);
  if ('error' in size) throw new Error(size.error);
  if (size.width * size.height > MAX_FIGURE_PIXELS) {
    throw new Error(`${size.width} × ${size.height} pixels, above the ${MAX_FIGURE_PIXELS.toLocaleString('en-US')} a figure may have`);
  }
  return PNG.sync.read(buf);
}
