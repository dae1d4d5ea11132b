import type { Command } from 'commander';
import { fsErrorLine, UserError } from '../errors.ts';
import { writeFileAtomicSync } from '../fs/atomic.ts';
import { readBoundedText } from '../fs/read.ts';
import { formatInteger } from '../format/text.ts';
import { numberOption } from './options.ts';

interface SimulateFlags {
  out?: string;
  tokens?: boolean;
  steps?: boolean;
  maxSeconds?: number;
  maxOutputMb?: number;
  as?: string;
}

/** The tools' result formats `--as` writes, each as that tool writes its per-request file. */
const AS_FORMATS = ['vllm', 'aiperf'] as const;

/**
 * `stopwatches simulate CASE.json [--out RESULT.json] [--tokens] [--steps]`: replay a case
 * file (the golden schema: config, client, workload; `expected` is ignored) and write the
 * result in the shape of `expected`.
 *
 * Before running, the work and the size of the result are estimated and a case above the
 * limits (src/sim/case.ts, SIMULATE_LIMITS) is refused, so no input hangs or exhausts the
 * machine. `--out` is written by the one writer's rule (src/fs/atomic.ts): a regular file
 * through a temp file renamed into place, so a failure never leaves a partial file; a
 * symbolic link is written through (the link stays); a device or FIFO is written into.
 */
export function register(program: Command): void {
  program
    .command('simulate')
    .description('simulate one benchmark run described by a case file (golden-case schema)')
    .argument('<case>', 'case file: {config, client, workload} as in test/fixtures/golden')
    .option('--out <file>', 'write the result here instead of stdout')
    .option('--tokens', 'add requests.token_times: every output token time per request')
    .option('--steps', 'add step_trace: one row per engine step')
    .option('--max-seconds <s>', 'refuse runs estimated to take longer than this on the simulator (default 60)', numberOption('--max-seconds', { min: 0, above: true }))
    .option('--as <tool>', `write the result as ${AS_FORMATS.join(' or ')} writes its per-request file (vllm: --save-result --save-detailed JSON; aiperf: profile_export.jsonl), for \`stopwatches metrics\` and \`audit\``)
    .option('--max-output-mb <mb>', 'refuse results larger than this many MB (default 256)', numberOption('--max-output-mb', { min: 0, above: true }))
    .action(async (file: string, opts: SimulateFlags) => {
      const { caseFromJson, estimateWork, kernelSeconds, nonFiniteTime, resultChunks, SIMULATE_LIMITS, STEP_ROW_BYTES } = await import('../sim/case.ts');
      const { runEngine, SimulationError } = await import('../sim/engine.ts');
      if (opts.as !== undefined && !(AS_FORMATS as readonly string[]).includes(opts.as)) {
        throw new UserError(`--as ${JSON.stringify(opts.as)}: unknown; use ${AS_FORMATS.join(' or ')}`);
      }
      const maxSeconds = opts.maxSeconds ?? SIMULATE_LIMITS.seconds;
      const maxOutputBytes = (opts.maxOutputMb ?? SIMULATE_LIMITS.outputMB) * 1e6;

      let text: string;
      try {
        // a pipe or device is read up to the limit, never to its end
        text = readBoundedText(file, MAX_CASE_BYTES, 'the case file');
      } catch (err) {
        const cause = (err as { cause?: unknown }).cause;
        if (err instanceof UserError && cause === undefined) throw err; // above the limit
        throw new UserError(`${file}: ${readProblem(cause ?? err)}`);
      }
      let json: unknown;
      try {
        json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      } catch (err) {
        throw new UserError(`${file}: not valid JSON (${(err as Error).message.split('\n')[0]})`);
      }
      const c = caseFromJson(json, file); // validates everything runEngine assumes
      // A tool's file carries every chunk's time, so --as records them.
      const output = { tokens: !!opts.tokens || opts.as !== undefined, steps: !!opts.steps && opts.as === undefined };

      const work = estimateWork(c, output);
      const secs = (x: number) => `${x < 0.01 ? x.toExponential(1) : x < 10 ? x.toPrecision(2) : formatInteger(Math.round(x))} s`;
      if (work.seconds > maxSeconds) {
        throw new UserError(
          `${file}: the run would take at least ${secs(work.seconds)} (${requestsText(work.requests)}, at least ${formatInteger(work.steps)} engine steps` +
            `${output.tokens ? `, ${formatInteger(work.tokenRecords)} token times` : ''}), above the limit of ${secs(maxSeconds)}; shorten the workload or raise --max-seconds`,
        );
      }
      if (output.tokens && work.tokenRecords > MAX_TOKEN_RECORDS) {
        throw new UserError(
          `${file}: --tokens would record ${formatInteger(work.tokenRecords)} token times; the simulator indexes them with 32-bit offsets, ` +
            `so at most ${formatInteger(MAX_TOKEN_RECORDS)}: leave out --tokens or shorten the workload`,
        );
      }
      const mb = (b: number) => `${formatInteger(Math.ceil(b / 1e6))} MB`;
      if (work.outputBytes > maxOutputBytes) {
        const what = [output.tokens ? `${formatInteger(work.tokenRecords)} token times` : '', output.steps ? `at least ${formatInteger(work.steps)} step rows` : '']
          .filter(Boolean).join(' and ');
        throw new UserError(
          `${file}: the result would take about ${mb(work.outputBytes)} (${requestsText(work.requests)}${what ? `, ${what}` : ''}), ` +
            `above the limit of ${mb(maxOutputBytes)}; ${output.tokens || output.steps ? 'leave out --tokens/--steps, ' : ''}shorten the workload or raise --max-output-mb`,
        );
      }

      // The estimate is a lower bound (preemptions recompute, a queue can idle the batch): count the work as the run goes and stop at the limit.
      let tokenTimes = 0;
      let steps = 0;
      const withoutSteps = estimateWork(c, { ...output, steps: false }).outputBytes;
      const progress = progressLine(work.steps);
      const onStep = (v: { tokens: number }) => {
        steps++;
        if (output.tokens) tokenTimes += v.tokens;
        if ((steps & 4095) === 0) progress(steps);
        if (kernelSeconds(steps, work.requests, tokenTimes) > maxSeconds) {
          throw new UserError(
            `${file}: stopped after ${formatInteger(steps)} engine steps, more than the ${formatInteger(work.steps)} estimated before the run: ` +
              `at least ${secs(kernelSeconds(steps, work.requests, tokenTimes))} of work, above the limit of ${secs(maxSeconds)}; raise --max-seconds`,
          );
        }
        if (output.steps && withoutSteps + steps * STEP_ROW_BYTES > maxOutputBytes) {
          throw new UserError(`${file}: stopped after ${formatInteger(steps)} steps: the step trace would exceed ${mb(maxOutputBytes)}; leave out --steps or raise --max-output-mb`);
        }
      };
      let result;
      try {
        result = runEngine(c.cfg, c.workload, c.client, { recordTokens: output.tokens, recordSteps: output.steps, onStep });
      } catch (err) {
        if (err instanceof SimulationError) throw new UserError(`${file}: ${err.message}`);
        throw err;
      } finally {
        progress(null);
      }
      const bad = nonFiniteTime(result);
      if (bad) throw new UserError(`${file}: the run's ${bad} is not a finite time; check the units of config.hw and config.model`);

      const chunks = opts.as ? [await asTool(opts.as, result, c.client)] : resultChunks(result, output);
      if (opts.out) writeOut(opts.out, chunks);
      else for (const piece of buffered(chunks)) process.stdout.write(piece);
    });
}

/** The largest case file read (2×10^7 requests' lengths fit in about 200 MB). */
const MAX_CASE_BYTES = 256 * 2 ** 20;

/**
 * The result as the tool's own per-request file: the client's settings as
 * the tool records them (a closed loop is rate inf with a cap of its slots;
 * a schedule's rate is its mean, (n − 1) ÷ (last due − first due)), the run's
 * clock starting where the client's schedule starts (t = 0).
 */
async function asTool(tool: string, result: import('../sim/types.ts').SimResult, client: import('../sim/types.ts').ClientSpec): Promise<string> {
  const { fromSimResult } = await import('../tools/sim/from-sim.ts');
  let requestRate: number | null = null;
  if (client.kind !== 'closed') {
    const t = client.times;
    requestRate = t.length > 1 && t[t.length - 1] > t[0] ? (t.length - 1) / (t[t.length - 1] - t[0]) : Infinity;
  }
  const run = fromSimResult(result, { client, requestRate: client.kind === 'closed' ? Infinity : requestRate, source: 'simulator' });
  run.startT = 0;
  if (tool === 'vllm') {
    const { toVllmResult } = await import('../tools/vllm/reader.ts');
    return JSON.stringify(toVllmResult(run, { model: 'simulated', percentiles: [99] }));
  }
  const { toAiperfJsonl } = await import('../tools/aiperf/writer.ts');
  return toAiperfJsonl(run);
}

/** Token times the engine can index (its per-request offsets are an Int32Array). */
const MAX_TOKEN_RECORDS = 2 ** 31 - 1;

const requestsText = (n: number): string => `${formatInteger(n)} request${n === 1 ? '' : 's'}`;

/**
 * Progress on a terminal for runs longer than a couple of seconds: one line on stderr,
 * rewritten in place and erased at the end (never mixed into the result on stdout, never
 * written to a pipe or a file). Call with the engine steps done so far, or null when done.
 */
function progressLine(least: number): (done: number | null) => void {
  const tty = !!process.stderr.isTTY;
  const t0 = Date.now();
  let shown = false;
  let last = 0;
  return (done) => {
    if (!tty) return;
    if (done === null) {
      if (shown) process.stderr.write('\r\x1b[K');
      return;
    }
    const now = Date.now();
    if (now - t0 < 2000 || now - last < 250) return;
    last = now;
    shown = true;
    const share = Math.min(99, Math.floor((100 * done) / least));
    process.stderr.write(`\rsimulate: ${formatInteger(done)} engine steps of at least ${formatInteger(least)} (${share}%), ${((now - t0) / 1000).toFixed(0)} s\x1b[K`);
  };
}

function readProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file; check the path';
  if (code === 'EISDIR') return 'is a directory; give a case file';
  if (code === 'EACCES') return 'cannot be read (permission denied); make it readable (chmod) or copy it';
  if (code === 'ERR_STRING_TOO_LONG') return 'is too large to read (over 500 MB); split the workload into several cases';
  return `cannot be read (${(err as Error).message.split('\n')[0]})`;
}

/** Joins small pieces into writes of about a megabyte (one system call each, not one per number). */
function* buffered(chunks: Iterable<string>): Generator<string> {
  let buf = '';
  for (const c of chunks) {
    buf += c;
    if (buf.length >= 1 << 20) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf}\n`;
}

/**
 * `--out` goes through the one writer (src/fs/atomic.ts): a regular file is replaced
 * atomically keeping its permissions, a link is written through, a device or FIFO
 * is written into; its name is made durable too, as the result is the user's.
 */
function writeOut(out: string, chunks: Iterable<string>): void {
  try {
    writeFileAtomicSync(out, buffered(chunks), { syncDir: true });
  } catch (err) {
    throw new UserError(cannotWrite(out, err));
  }
}

function cannotWrite(out: string, err: unknown): string {
  if (err instanceof UserError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return `${out}: is a directory; give a file path for --out`;
  if (code === 'ENOTSUP') return `${out}: is a socket; give a file path for --out`;
  return `cannot write the result: ${fsErrorLine(err, out) ?? `${out}: ${(err as Error).message}`}`;
}
