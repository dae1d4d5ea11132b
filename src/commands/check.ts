import type { Command } from 'commander';
import { UserError } from '../errors.ts';

interface CheckFlags {
  concurrency?: string;
  rate?: string;
  latency?: string;
  tolerance?: string;
  perUserTps?: string;
  totalTps?: string;
  model?: string;
  gpu?: string;
  hbmBw?: string;
  modelBytes?: string;
  peakFlops?: string;
  params?: string;
  kvBytesPerToken?: string;
  context?: string;
  gpus?: string;
  json?: boolean;
}

/**
 * `stopwatches check`: the article's two checks for a published table row.
 * Exit status 0 all consistent, 1 an inconsistency, 2 bad input.
 */
export function register(program: Command): void {
  program
    .command('check')
    .description("check a published table row: Little's law and the roofline envelope")
    .option('--concurrency <n>', 'requests in flight (users of a closed loop)')
    .option('--rate <req/s>', 'request throughput (req/s; also 360/min)')
    .option('--latency <time>', 'mean end-to-end latency (s; also 30000ms)')
    .option('--tolerance <fraction>', "Little's law relative tolerance (default 0.1)")
    .option('--per-user-tps <tok/s>', 'per-user decode speed')
    .option('--total-tps <tok/s>', 'total output throughput of one replica')
    .option('--model <name>', 'model preset (llama-3.1-8b-bf16, llama-3.1-70b-bf16)')
    .option('--gpu <name>', 'GPU preset (h100-sxm, h200-sxm, a100-sxm-80gb)')
    .option('--hbm-bw <bw>', 'memory bandwidth per GPU (TB/s if bare; 3350GB/s)')
    .option('--model-bytes <size>', 'weight bytes read per step (GB if bare)')
    .option('--peak-flops <flops>', 'peak FLOP/s per GPU (TFLOP/s if bare)')
    .option('--params <count>', 'parameters multiplied per token (8.03b)')
    .option('--kv-bytes-per-token <bytes>', 'KV-cache bytes per token of context')
    .option('--context <tokens>', 'tokens of context per user (default 0: the loosest envelope)')
    .option('--gpus <n>', 'GPUs serving one replica (default 1)')
    .option('--json', 'print the outcomes as JSON')
    .action(async (flags: CheckFlags) => {
      const { runChecks, exitStatus, formatOutcomes, gpuPreset, modelPreset } = await import('../published-row/index.ts');
      const u = await import('../published-row/units.ts');
      const input: Parameters<typeof runChecks>[0] = {};

      const little = [flags.concurrency, flags.rate, flags.latency];
      if (little.some((x) => x !== undefined)) {
        const names = ['--concurrency', '--rate', '--latency'].filter((_, i) => little[i] === undefined);
        if (names.length) throw new UserError(`Little's law needs --concurrency, --rate and --latency (missing ${names.join(', ')})`);
        input.little = {
          concurrency: u.parseCount('--concurrency', flags.concurrency!),
          rate: u.parseRate('--rate', flags.rate!),
          latency: u.parseDuration('--latency', flags.latency!),
          tolerance: flags.tolerance === undefined ? undefined : u.parseFraction('--tolerance', flags.tolerance),
        };
      } else if (flags.tolerance !== undefined) {
        throw new UserError("--tolerance applies to Little's law; give --concurrency, --rate and --latency");
      }

      if (flags.perUserTps !== undefined || flags.totalTps !== undefined) {
        const model = flags.model ? modelPreset(flags.model) : null;
        const gpu = flags.gpu ? gpuPreset(flags.gpu) : null;
        const weightBytes = flags.modelBytes ? u.parseBytes('--model-bytes', flags.modelBytes) : model?.weightBytes;
        const hbmBw = flags.hbmBw ? u.parseBandwidth('--hbm-bw', flags.hbmBw) : gpu?.hbmBw;
        if (weightBytes === undefined || hbmBw === undefined) {
          const need = [weightBytes === undefined ? '--model or --model-bytes' : '', hbmBw === undefined ? '--gpu or --hbm-bw' : ''].filter(Boolean);
          throw new UserError(`the roofline check needs ${need.join(' and ')}`);
        }
        input.roofline = {
          perUserTps: flags.perUserTps === undefined ? undefined : u.parseTokensPerSecond('--per-user-tps', flags.perUserTps),
          totalTps: flags.totalTps === undefined ? undefined : u.parseTokensPerSecond('--total-tps', flags.totalTps),
          weightBytes,
          hbmBw,
          gpus: flags.gpus === undefined ? 1 : u.parseWhole('--gpus', flags.gpus, ...u.WHOLE_LIMITS.gpus),
          peakFlops: flags.peakFlops ? u.parseFlops('--peak-flops', flags.peakFlops) : gpu?.peakFlops,
          flopParams: flags.params ? u.parseWhole('--params', flags.params, ...u.WHOLE_LIMITS.params) : model?.flopParams,
          kvBytesPerToken: flags.kvBytesPerToken ? u.parseKvBytes('--kv-bytes-per-token', flags.kvBytesPerToken) : model?.kvBytesPerToken,
          context: flags.context === undefined || /^\s*0+(\.0*)?\s*$/.test(flags.context) ? 0 : u.parseWhole('--context', flags.context, ...u.WHOLE_LIMITS.context),
          layers: model?.layers,
          dModel: model?.dModel,
        };
      } else {
        const stray = (['model', 'gpu', 'hbmBw', 'modelBytes', 'peakFlops', 'params', 'kvBytesPerToken', 'context', 'gpus'] as const).filter((k) => flags[k] !== undefined);
        if (stray.length) throw new UserError('the roofline check needs --per-user-tps and/or --total-tps');
      }

      const outcomes = runChecks(input);
      process.stdout.write(flags.json ? JSON.stringify({ ok: exitStatus(outcomes) === 0, checks: outcomes }, null, 2) + '\n' : formatOutcomes(outcomes));
      process.exitCode = exitStatus(outcomes);
    });
}
