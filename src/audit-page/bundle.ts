/**
 * Build-time bundling of the "Audit a run" page's script (runs in Node, from
 * the page's frontmatter): one IIFE bundle of ./main.ts with the readers, the
 * audit and Plot, inlined in a classic <script> so it runs from file:// and
 * under any sub-path, and nothing is fetched (as src/explorer/bundle.ts does).
 */
import { build } from 'esbuild';
import { join } from 'node:path';

let cached: Promise<string> | null = null;

/** The page script, safe to place inside <script>…</script>. */
export function auditScript(root = process.cwd()): Promise<string> {
  cached ??= (async () => {
    const m = await build({
      entryPoints: [join(root, 'src/audit-page/main.ts')],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
      charset: 'utf8',
    });
    return m.outputFiles![0].text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  })();
  return cached;
}
