/**
 * A large list of lists of numbers (vLLM's `itls`: one list of chunk gaps per
 * request, hundreds of thousands of requests) kept as it is parsed: every
 * number in one growable Float64Array, each list a range of it. Parsed into
 * JavaScript arrays instead, every list would live until the whole document
 * is parsed, and the garbage collector would copy each one through the young
 * generation to the old (about a second of a 200 MB file's reading), only for
 * the reader to copy the numbers into one buffer anyway.
 *
 * An element that is not a list of numbers (null, a string, a list holding
 * one) is kept as parsed, so a reader checks it and names it exactly as it
 * would in a plain array. `at(i)` gives any element as the array JSON.parse
 * would have made, for readers that want plain values.
 */
import type { Json } from './json-text.ts';

/**
 * Numbers per block of the store: a list goes whole into one block (a new
 * block when it does not fit in what is left of the last), so the store
 * grows without copying; a list longer than a block is kept as parsed.
 * A builder may be given a smaller block (tests reach the block edges with
 * small lists).
 */
const BLOCK = 1 << 20;

const NO_NUMBERS = new Float64Array(0);

export class NumberLists {
  constructor(
    /** Numbers per block. */
    private readonly blockSize: number,
    /** The numbers of the lists that hold only numbers, list after list, in blocks of `blockSize` numbers. */
    private readonly blocks: Float64Array[],
    /** List i's numbers are [starts[i], ends[i]) of block blocks[⌊starts[i] / blockSize⌋], counted from the first block's start. */
    private readonly starts: Float64Array,
    private readonly ends: Float64Array,
    /** The elements that are not lists of numbers (or are longer than a block), by index, as parsed. */
    private readonly others: Map<number, Json>,
  ) {}

  get length(): number {
    return this.starts.length;
  }

  /** Element i's numbers (a view: never write to it), or null when it is kept as parsed. */
  numbers(i: number): Float64Array | null {
    if (this.others.has(i)) return null;
    const start = this.starts[i];
    // an empty list may sit at the end of the last block
    if (this.ends[i] === start) return NO_NUMBERS;
    const b = Math.floor(start / this.blockSize);
    return this.blocks[b].subarray(start - b * this.blockSize, this.ends[i] - b * this.blockSize);
  }

  /** Element i as parsed, for one kept so (undefined otherwise). */
  other(i: number): Json | undefined {
    return this.others.get(i);
  }

  /** Element i as JSON.parse would have made it (undefined outside the list, like an array's `at`). */
  at(i: number): Json | undefined {
    if (!(Number.isInteger(i) && i >= 0 && i < this.length)) return undefined;
    const numbers = this.numbers(i);
    return numbers ? Array.from(numbers) : this.others.get(i)!;
  }

  /** As the list of lists it stands for, should anything print it. */
  toJSON(): Json[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i)!);
  }
}

/** Whether a parsed value is a {@link NumberLists} (a large document's packed list), not a plain value. */
export function isNumberLists(v: unknown): v is NumberLists {
  return v instanceof NumberLists;
}

/** Builds a {@link NumberLists} from its elements in order, as the JSON parser reads them. */
export class NumberListsBuilder {
  private readonly blocks: Float64Array[] = [];
  private block = new Float64Array(0);
  /** Where the last block starts, and the next free place, counted from the first block's start. */
  private blockStart: number;
  private used = 0;
  private starts: Float64Array = new Float64Array(1 << 12);
  private ends: Float64Array = new Float64Array(1 << 12);
  private count = 0;
  private readonly others = new Map<number, Json>();

  constructor(private readonly blockSize: number = BLOCK) {
    this.blockStart = -blockSize;
  }

  add(element: Json): void {
    if (this.count === this.starts.length) {
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
    }
    if (Array.isArray(element) && element.length <= this.blockSize) {
      const n = element.length;
      if (this.used + n > this.blockStart + this.blockSize) {
        this.blockStart += this.blockSize;
        this.used = this.blockStart;
        this.block = new Float64Array(this.blockSize);
        this.blocks.push(this.block);
      }
      const at = this.used - this.blockStart;
      let k = 0;
      for (; k < n; k++) {
        const x = element[k];
        if (typeof x !== 'number') break;
        this.block[at + k] = x;
      }
      if (k === n) {
        this.starts[this.count] = this.used;
        this.ends[this.count++] = this.used += n;
        return;
      }
    }
    this.others.set(this.count++, element);
  }

  done(): NumberLists {
    // the last block is cut to what it holds (the others are full, up to a list that did not fit)
    const last = this.blocks.length - 1;
    if (last >= 0 && this.used - this.blockStart < this.blockSize / 2) this.blocks[last] = this.blocks[last].slice(0, this.used - this.blockStart);
    return new NumberLists(this.blockSize, this.blocks, this.starts.slice(0, this.count), this.ends.slice(0, this.count), this.others);
  }
}

function grown(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}
