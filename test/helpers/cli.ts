import { main } from '../../src/cli.ts';

/** Runs the CLI in-process and captures what it prints. */
export async function runCli(args: string[]): Promise<{ code: number; err: string; out: string }> {
  const err: string[] = [];
  const out: string[] = [];
  const we = process.stderr.write.bind(process.stderr);
  const wo = process.stdout.write.bind(process.stdout);
  process.stderr.write = ((s: string) => (err.push(String(s)), true)) as typeof process.stderr.write;
  process.stdout.write = ((s: string) => (out.push(String(s)), true)) as typeof process.stdout.write;
  try {
    return { code: await main(args), err: err.join(''), out: out.join('') };
  } finally {
    process.stderr.write = we;
    process.stdout.write = wo;
  }
}
