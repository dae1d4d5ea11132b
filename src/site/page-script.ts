/**
 * Build-time bundling of a page that runs its work in a Web Worker (the
 * explorer, "Audit a run"); runs in Node, from the page's frontmatter.
 * esbuild makes two IIFE bundles: the folder's worker.ts, then its main.ts with
 * the worker's code as a string constant. The page inlines the result in a
 * classic <script>: module scripts and module workers do not load from file://
 * in Chromium, and an external script would need a path, so there is none and
 * nothing is fetched.
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

const cached = new Map<string, Promise<string>>();

/**
 * The page script of `folder` (under src/), its worker inlined as the constant
 * `workerConstant`, safe to place inside <script>…</script>.
 */
export function pageScript(folder: string, workerConstant: string, root = process.cwd()): Promise<string> {
  const dir = join(root, 'src', folder);
  let script = cached.get(dir);
  if (!script) {
    script = (async () => {
      const w = await build({ ...COMMON, entryPoints: [join(dir, 'worker.ts')] });
      const m = await build({ ...COMMON, entryPoints: [join(dir, 'main.ts')], define: { [workerConstant]: JSON.stringify(w.outputFiles![0].text) } });
      return m.outputFiles![0].text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
    })();
    cached.set(dir, script);
  }
  return script;
}
