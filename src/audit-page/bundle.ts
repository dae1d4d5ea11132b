/**
 * Build-time bundling of the "Audit a run" page's script (runs in Node, from
 * the page's frontmatter), as src/explorer/bundle.ts does: esbuild makes two
 * IIFE bundles, the worker (readers and audit), then the page script (the
 * sections and Plot) with the worker's code as a string constant, inlined in a
 * classic <script> so it runs from file:// and under any sub-path, and nothing
 * is fetched.
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
export function auditScript(root = process.cwd()): Promise<string> {
  cached ??= (async () => {
    const dir = join(root, 'src/audit-page');
    const w = await build({ ...COMMON, entryPoints: [join(dir, 'worker.ts')] });
    const m = await build({ ...COMMON, entryPoints: [join(dir, 'main.ts')], define: { __AUDIT_WORKER__: JSON.stringify(w.outputFiles![0].text) } });
    return m.outputFiles![0].text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  })();
  return cached;
}
