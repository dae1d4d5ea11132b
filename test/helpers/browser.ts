/**
 * The one Chromium every browser test drives: Debian's, never a downloaded one.
 *
 * Debian's `chromium-headless-shell` is preferred when it is installed: the same
 * Chromium release as the `chromium` package, built as the headless-only shell
 * (Playwright's own choice for headless runs). It renders with the same Blink, but
 * its browser process does none of the full browser's UI work: over the three
 * browser test files it costs about a quarter less CPU (explorer.test.ts: 29.4 ->
 * 22.6 CPU-s on two cores), and CPU is what bounds the suite's time. `chromium` is
 * used otherwise; CHROMIUM_PATH names another executable.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const SHELL = '/usr/bin/chromium-headless-shell';
const FULL = '/usr/bin/chromium';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(SHELL) ? SHELL : FULL);

/**
 * Flags of every launch: no sandbox (containers), no GPU, nothing fetched in the background, and
 * V8 without its top tier (TurboFan; Maglev is the highest). Every page load is a new context, so
 * axe-core (most of the browser tests' CPU) is compiled afresh on each page and runs for a second
 * or two: TurboFan's background compiles cost more than they give back. axe-core over six pages,
 * in the renderer: 8.1-8.6 CPU-s with TurboFan, 6.8-7.2 without; the three browser files: 38.6 and
 * 42.1 CPU-s -> 36.2 and 40.5. Nothing a test asserts depends on the tier; the explorer's timing
 * artifact names these flags beside the Chromium version.
 */
export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--js-flags=--max-opt=2'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
