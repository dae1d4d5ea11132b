/**
 * `stopwatches cache merge DIR…`: copies the verified entries of other cache
 * folders (shards of a build, a downloaded CI artifact) into this project's
 * `.cache/experiments`, so the next `stopwatches run` finds them.
 */
import type { Command } from 'commander';
import { UserError } from '../errors.ts';

export function register(program: Command): void {
  const cache = program.command('cache').description('manage the result cache (.cache/experiments)');
  cache
    .command('merge')
    .description('copy verified entries from other cache folders (a shard\'s project root, its .cache, or .cache/experiments) into this one')
    .argument('<dirs...>', 'cache folders to merge in')
    .action(async (dirs: string[]) => {
      const { mergeCaches } = await import('../pipeline/cache-merge.ts');
      const { cachePaths } = await import('../pipeline/outputs.ts');
      const target = cachePaths(process.cwd()).experiments;
      const report = await mergeCaches(target, dirs);
      const corrupt = report.corrupt.length;
      process.stdout.write(
        `merged ${dirs.length} folder${dirs.length === 1 ? '' : 's'}: ${report.copied} entr${report.copied === 1 ? 'y' : 'ies'} copied, ${report.present} already present` +
          (corrupt ? `, ${corrupt} corrupt skipped` : '') + '\n',
      );
      for (const c of report.corrupt.slice(0, 5)) process.stdout.write(`  skipped ${c}\n`);
      if (corrupt > 5) process.stdout.write(`  … ${corrupt - 5} more\n`);
      if (report.copied + report.present === 0 && corrupt === 0) throw new UserError(`cache merge: no cache entries in ${dirs.join(', ')}`);
    });
}
