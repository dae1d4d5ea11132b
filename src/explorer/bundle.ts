/**
 * Build-time bundling of the explorer's script (runs in Node, from the page's
 * frontmatter). esbuild makes two IIFE bundles: the worker, then the page
 * script with the worker's code as a string constant. The page inlines the
 * result in a classic <script>: module scripts and module workers do not load
 * from file:// in Chromium, and an external script would need a path — so
 * there is none, and nothing is fetched.
 */
import { build, type BuildOptions } from 'esbuild';
import { join } from 'node:path';

const COMMON: BuildOptions = {
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'silent',
  charset: 'utf8',
};

let cached: Promise<string> | null = null;

/** The page script (worker included), safe to place inside <script>…</script>. */
export function explorerScript(root = process.cwd()): Promise<string> {
  cached ??= (async () => {
    const dir = join(root, 'src/explorer');
    const w = await build({ ...COMMON, entryPoints: [join(dir, 'worker.ts')] });
    const workerCode = w.outputFiles![0].text;
    const m = await build({ ...COMMON, entryPoints: [join(dir, 'main.ts')], define: { __EXPLORER_WORKER__: JSON.stringify(workerCode) } });
    return m.outputFiles![0].text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  })();
  return cached;
}
