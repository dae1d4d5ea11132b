/**
 * `stopwatches claims [--dir DIR]`: checks every comparative sentence of the
 * article (src/article/checks.ts) on the build's numbers (src/claims/) and
 * writes DIR/claims.json, which the site reads.
 * Exit status 0 when every claim holds or is marked as the original article's
 * and contradicted; 1 with one line per failing claim; 2 when numbers.json is
 * missing or unreadable.
 */
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('claims')
    .description('check the article’s comparative sentences on the numbers and write claims.json')
    .option('--dir <dir>', 'directory holding numbers.json (default: src/generated, or STOPWATCHES_GENERATED)')
    .action(async (flags: { dir?: string }) => {
      const { checkClaims } = await import('../claims/build.ts');
      const { ARTICLE_CHECKS } = await import('../article/checks.ts');
      const { generatedDir } = await import('../site/data.ts');
      const { file, failures, written } = await checkClaims(flags.dir ?? generatedDir(), ARTICLE_CHECKS);
      const s = file.summary;
      process.stdout.write(
        `claims: ${s.checked} checked, ${s.hold} hold, ${s.contradicted} of the original article’s contradicted by this build, ${s.fail} fail → ${written}\n`,
      );
      // The article's statements this build contradicts are printed on the page too; listed here so a reviewer sees them in the log.
      for (const c of file.claims.filter((x) => x.status === 'contradicted')) {
        process.stdout.write(`  contradicted: ${c.section}/${c.id}: the original article: “${c.article}” (${c.margin})\n`);
      }
      for (const line of failures) process.stderr.write(`${line}\n`);
      if (failures.length) process.exitCode = 1;
    });
}
