/**
 * The audit's two surfaces in a browser (playwright-core and Debian's Chromium,
 * test/helpers/browser.ts), one browser for the file: the page
 * `stopwatches audit --html` writes, and the site's "Audit a run" page
 * (dist/audit.html, so it needs a built site). Both are opened from file://
 * with every request routed: anything but a file: or data: URL is aborted and
 * fails the test, so nothing leaves the page. The real result files are read
 * from ../shared/real-results/ at run time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './helpers/browser.ts';
import { main } from '../src/cli.ts';
import { auditFile } from '../src/audit/file.ts';
import { importChecked } from '../src/importers/metrics-input.ts';
import { FINDING_IDS } from '../src/audit/index.ts';
import { MIN_FIGURE_TEXT, pageLayout } from './helpers/page-layout.ts';

const ROOT = join(import.meta.dirname, '..');
const DIST = process.env.STOPWATCHES_DIST ?? join(ROOT, 'dist');
const SITE_PAGE = join(DIST, 'audit.html');
const REAL = join(ROOT, '..', 'shared', 'real-results');
const AIPERF = join(REAL, 'aiperf', 'aiperf-examples-run1_profile_export.jsonl');
const VLLM = join(REAL, 'vllm', 'lambdalabs-llama3-8b-h100-len2048.json');
/** The widths the site's pages are held at (as test/site-browser.test.ts): a laptop, and a phone. */
const WIDE = 1280;
const PHONE = 390;

interface Watch {
  errors: string[];
  foreign: string[];
}

describe('the audit pages in a browser', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    if (!existsSync(SITE_PAGE)) throw new Error('audit-browser: dist/audit.html is missing; run `npm run build` before the tests');
    dir = mkdtempSync(join(tmpdir(), 'audit-html-'));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(file: string): Promise<{ page: Page; watch: Watch }> {
    const page = await browser.newPage({ viewport: { width: WIDE, height: 800 } });
    const watch: Watch = { errors: [], foreign: [] };
    page.on('console', (m) => m.type() === 'error' && watch.errors.push(m.text()));
    page.on('pageerror', (e) => watch.errors.push(String(e)));
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
      watch.foreign.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(file).href);
    return { page, watch };
  }

  /** The audit's own verdicts on a file's text, as [id, verdict] pairs. */
  async function verdicts(name: string, text: string): Promise<(string | null)[][]> {
    const [one] = await auditFile(name, (entry) => importChecked(name, text, { entry }));
    return one.report.findings.map((f) => [f.id, f.verdict]);
  }

  /** What the rendered sections show: each run's findings and verdicts, and each figure's marks. */
  async function rendered(page: Page) {
    return page.evaluate(() =>
      [...document.querySelectorAll('.audit-run')].map((s) => ({
        findings: [...s.querySelectorAll('.finding')].map((f) => [f.getAttribute('data-finding'), f.getAttribute('data-verdict')]),
        clauses: s.querySelectorAll('.clauses dt').length,
        figures: [...s.querySelectorAll('.audit-figure')].map((f) => ({
          key: f.getAttribute('data-figure'),
          svg: f.querySelector('svg') !== null,
          marks: f.querySelectorAll('svg circle, svg path, svg rect').length,
        })),
      })),
    );
  }

  it('--html writes one page that opens from file://, fetches nothing, and draws its figures', async () => {
    const out = join(dir, 'two.html');
    const code = await main(['audit', AIPERF, VLLM, '--html', out]);
    expect(code).toBe(0);
    const { page, watch } = await open(out);
    const runs = await rendered(page);
    // one section per file, every finding with a verdict
    expect(runs.map((r) => r.findings.map(([id]) => id))).toEqual([[...FINDING_IDS], [...FINDING_IDS]]);
    for (const r of runs) for (const [, v] of r.findings) expect(['warn', 'ok', 'unknown']).toContain(v);
    // the verdicts on the page are the audit's own
    const expected = await verdicts(AIPERF, readFileSync(AIPERF, 'utf8'));
    expect(runs[0].findings).toEqual(expected);
    expect(runs[0].clauses).toBe(7);
    // the AIPerf export has a shared clock and per-request first tokens: all three figures are drawn, with marks
    expect(runs[0].figures.map((f) => f.key)).toEqual(['ttft', 'in-flight', 'throughput']);
    for (const f of runs[0].figures) {
      expect(f.svg, f.key!).toBe(true);
      expect(f.marks, f.key!).toBeGreaterThan(10);
    }
    expect(watch.foreign).toEqual([]);
    expect(watch.errors).toEqual([]);
    await page.close();
    // and no axe-core violation: axe is injected past the page's own policy, which forbids every script
    const bare = await browser.newPage({ bypassCSP: true, viewport: { width: WIDE, height: 800 } });
    await bare.goto(pathToFileURL(out).href);
    expect((await pageLayout(bare, WIDE, 'figure.audit-figure')).axe).toEqual([]);
    await bare.close();
  });

  it('the site page audits a dropped file and a picked one in the browser, with no request leaving it', async () => {
    const { page, watch } = await open(SITE_PAGE);
    await page.waitForFunction(() => document.getElementById('audit-page')?.dataset.state === 'idle');
    // a drop: the real file's text in a DataTransfer, dispatched on the drop target
    const text = readFileSync(AIPERF, 'utf8');
    await page.evaluate(([name, body]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([body], name, { type: 'application/json' }));
      document.getElementById('audit-drop')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, ['profile_export.jsonl', text] as const);
    await page.waitForFunction(() => document.getElementById('audit-page')?.dataset.state === 'done');
    let runs = await rendered(page);
    const expected = await verdicts('profile_export.jsonl', text);
    expect(runs).toHaveLength(1);
    expect(runs[0].findings).toEqual(expected);
    for (const f of runs[0].figures) expect(f.marks, f.key!).toBeGreaterThan(10);
    // the page with a run drawn is held to the site's checks, on a laptop and on a phone (the phone's figures)
    const wide = await pageLayout(page, WIDE, 'figure.audit-figure');
    await page.setViewportSize({ width: PHONE, height: 844 });
    const phone = await pageLayout(page, PHONE, 'figure.audit-figure');
    await page.setViewportSize({ width: WIDE, height: 800 });
    for (const l of [wide, phone]) {
      expect(l.axe, `axe at ${l.width} px`).toEqual([]);
      expect(l.overlaps, `overlaps at ${l.width} px`).toEqual([]);
      expect(l.widening, `widening at ${l.width} px`).toEqual([]);
    }
    expect(phone.figureText.map((f) => f.key)).toEqual(['ttft', 'in-flight', 'throughput']);
    expect(phone.figureText.filter((f) => f.px < MIN_FIGURE_TEXT).map((f) => `${f.key}: ${f.px.toFixed(1)} px`)).toEqual([]);
    // the file input: a vLLM result picked from disk
    await page.setInputFiles('#audit-file', VLLM);
    await page.waitForFunction(() => document.querySelector('.audit-run code')?.textContent?.includes('lambdalabs'));
    runs = await rendered(page);
    const vllm = await verdicts('lambdalabs-llama3-8b-h100-len2048.json', readFileSync(VLLM, 'utf8'));
    expect(runs[0].findings).toEqual(vllm);
    // a file no reader takes: one line naming it, no sections
    await page.setInputFiles('#audit-file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
    await page.waitForFunction(() => document.getElementById('audit-page')?.dataset.state === 'error');
    expect(await page.textContent('#audit-status')).toMatch(/^notes\.txt: /);
    expect(watch.foreign).toEqual([]);
    expect(watch.errors).toEqual([]);
    await page.close();
  });
});
