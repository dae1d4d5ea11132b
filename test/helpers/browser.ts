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

/** Flags of every launch: no sandbox (containers), no GPU, nothing fetched in the background. */
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
