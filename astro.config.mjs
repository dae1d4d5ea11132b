import { defineConfig } from 'astro/config';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the pipeline's output is read (same rule as src/site/data.ts). */
const generated = () => (process.env.STOPWATCHES_GENERATED ? resolve(process.env.STOPWATCHES_GENERATED) : resolve('src/generated'));

/** Copies the figures' PNGs next to the pages (dist/figures/), where each figure's footer links them. */
function figurePngs() {
  return {
    name: 'stopwatches:figure-pngs',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const src = join(generated(), 'figures');
        if (!existsSync(src)) return;
        const out = join(fileURLToPath(dir), 'figures');
        mkdirSync(out, { recursive: true });
        const pngs = readdirSync(src).filter((f) => f.endsWith('.png')).sort();
        for (const f of pngs) copyFileSync(join(src, f), join(out, f));
        logger.info(`copied ${pngs.length} figure PNGs to figures/`);
      },
    },
  };
}

// A build sends nothing anywhere: Astro's usage telemetry stays off even when
// astro is run directly rather than through `npm run build`.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

// Static output to dist/. `SITE_BASE` lets the site be served from a sub-path.
// Styles are inlined and every link is relative, so pages also work from file://.
export default defineConfig({
  output: 'static',
  outDir: 'dist',
  base: process.env.SITE_BASE ?? '/',
  build: { format: 'file', inlineStylesheets: 'always' },
  trailingSlash: 'ignore',
  devToolbar: { enabled: false },
  integrations: [figurePngs()],
});
