import { defineConfig } from 'astro/config';

// Static output to dist/. `SITE_BASE` lets the site be served from a sub-path.
export default defineConfig({
  output: 'static',
  outDir: 'dist',
  base: process.env.SITE_BASE ?? '/',
  build: { format: 'file' },
  trailingSlash: 'ignore',
});
