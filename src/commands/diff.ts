/**
 * `stopwatches diff [BASE] [--md FILE] [--out DIR] [--report-url URL] [--all]`:
 * what the current build does to the paper's numbers and figures against a
 * baseline (src/pipeline/diff/). This command is where the site's knowledge
 * meets the pipeline's comparison: the published values, the reproduction
 * page's neighbourhood and the cited ids come from src/site and are handed in
 * as a context (src/pipeline imports nothing from src/site).
 * Exit status 0 whether or not anything changed (it is a report); 2 when a
 * side is missing or corrupt.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.ts';

export interface DiffFlags {
  md?: string;
  out?: string;
  reportUrl?: string;
  all?: boolean;
  buildOutcome?: string;
  testOutcome?: string;
}

const OUTCOMES = ['success', 'failure', 'cancelled', 'skipped'] as const;
type Outcome = (typeof OUTCOMES)[number];

function outcome(flag: string, v: string | undefined): Outcome | undefined {
  if (v === undefined) return undefined;
  if ((OUTCOMES as readonly string[]).includes(v)) return v as Outcome;
  throw new UserError(`diff: ${flag} ${JSON.stringify(v)} is not one of ${OUTCOMES.join(', ')} (a GitHub step's outcome)`);
}

export function register(program: Command): void {
  program
    .command('diff')
    .description('compare the build (src/generated/) with a baseline: changed numbers, figures and data, and why')
    .argument('[base]', 'a git revision (its test/snapshots/) or a folder laid out like test/snapshots/ (default: the committed snapshots)')
    .option('--md <file>', 'also write a Markdown summary that fits one pull-request comment')
    .option('--out <dir>', 'report folder (default dist/diff)')
    .option('--report-url <url>', 'link to the full report given in the Markdown (e.g. the CI run)')
    .option('--all', 'print every changed number, not only the largest')
    .option('--build-outcome <outcome>', "how this commit's build ended (success, failure, …): the Markdown opens with that verdict")
    .option('--test-outcome <outcome>', "how this commit's tests ended (success, failure, skipped, …)")
    .action(async (base: string | undefined, flags: DiffFlags) => {
      await diffCommand(base, flags, process.cwd());
    });
}

/** The site's view of the numbers, for the diff. */
type Side = import('../pipeline/diff/sides.ts').Side;

export async function siteContext(root: string): Promise<import('../pipeline/diff/index.ts').DiffContext> {
  const { PUBLISHED } = await import('../published.ts');
  const { FAR_OFF, toUnit } = await import('../site/reproduction.ts');
  const { citedNumbers } = await import('../site/cited.ts');
  const { claimChangesFromNumbers } = await import('../claims/diff.ts');
  const { ARTICLE_CHECKS } = await import('../article/checks.ts');
  const published = new Map<string, { value: number; unit: string }>();
  for (const p of PUBLISHED) if (!published.has(p.id)) published.set(p.id, { value: p.published, unit: p.unit });
  // Today's checked sentences evaluated on both sides' numbers: which sentences the change of numbers moved.
  // The seed verdict ("holds in k of n seeds") goes with the margin, so the report shows it wherever it shows a claim.
  const state = (c: { status: string; margin: string; seeds: string } | null) => (c ? { status: c.status, margin: `${c.margin}${c.seeds ? `; ${c.seeds}` : ''}` } : null);
  const claimChanges = (base: Side, cur: Side) =>
    claimChangesFromNumbers(ARTICLE_CHECKS, base.numbers, cur.numbers).map((c) => ({ id: c.id, claim: c.says, change: c.change, old: state(c.before), new: state(c.after) }));
  return { published, farOff: FAR_OFF, toUnit, cited: citedNumbers(root), claimChanges };
}

export async function diffCommand(base: string | undefined, flags: DiffFlags, root: string): Promise<void> {
  const { runDiff } = await import('../pipeline/diff/index.ts');
  const build = outcome('--build-outcome', flags.buildOutcome);
  const tests = outcome('--test-outcome', flags.testOutcome);
  if (build === 'failure' && flags.md && (await noBuild(root, base, flags))) return;
  runDiff({
    ...(build ? { build } : {}),
    ...(tests ? { tests } : {}),
    root,
    ...(base !== undefined ? { base } : {}),
    ...(flags.out ? { outDir: resolve(root, flags.out) } : {}),
    ...(flags.md ? { markdown: resolve(root, flags.md) } : {}),
    ...(flags.reportUrl ? { reportUrl: flags.reportUrl } : {}),
    all: !!flags.all,
    context: await siteContext(root),
  });
}

/**
 * A build that failed before it wrote its numbers still gets its review: the
 * verdict alone, naming the commit (the pull request then never keeps an
 * older comment that looks current). True when that is what was written.
 */
async function noBuild(root: string, base: string | undefined, flags: DiffFlags): Promise<boolean> {
  const { outputPaths, GENERATED_DIR } = await import('../pipeline/outputs.ts');
  if (existsSync(outputPaths(join(root, GENERATED_DIR)).numbers)) return false;
  const { renderNoBuild } = await import('../pipeline/diff/markdown.ts');
  const { resolveCommit } = await import('../pipeline/diff/sides.ts');
  const { writeFileAtomicSync } = await import('../fs/atomic.ts');
  mkdirSync(dirname(resolve(root, flags.md!)), { recursive: true });
  writeFileAtomicSync(resolve(root, flags.md!), renderNoBuild(resolveCommit(root, 'HEAD'), base ?? 'test/snapshots', flags.reportUrl ? { reportUrl: flags.reportUrl } : {}));
  console.log(`diff: the build wrote no numbers; ${flags.md} says the build fails and names the commit`);
  return true;
}
