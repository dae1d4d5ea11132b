/**
 * The explorer in a browser (playwright-core and Debian's Chromium,
 * test/helpers/browser.ts). dist/ is served under a sub-path by a tiny static
 * server, every request to another origin is blocked and recorded; one test
 * opens the page from file://.
 *
 * One page serves every test: each test navigates it to its own address,
 * which gives it the same fresh state a new page would (the page keeps
 * nothing between loads), without a new browser context and renderer per
 * test. The phone layout needs a mobile context, made once.
 *
 * Needs a built dist/ (CI runs `npm run build` before `npm test`; locally
 * `node bin/stopwatches.mjs run && npx astro build`). Nothing is skipped: without
 * dist/explorer.html the suite fails and says so.
 *
 * Timing: the in-browser time of the first test's 640-request, 64-slot run
 * (the first-wave preset) is written to test-artifacts/explorer-timing.json and
 * printed; nothing is asserted about speed (npm run bench measures it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ARGS, launchBrowser } from './helpers/browser.ts';
import { axeViolations } from './helpers/page-layout.ts';
import { formatValue } from '../src/format/value.ts';
import { defaultParams, fromQuery, toQuery, type Params } from '../src/explorer/params.ts';
import { runExplorer } from '../src/explorer/run.ts';

const ROOT = join(import.meta.dirname, '..');
/** The built site; STOPWATCHES_DIST points elsewhere (e.g. a private `astro build --outDir`). */
const DIST = process.env.STOPWATCHES_DIST ? normalize(process.env.STOPWATCHES_DIST) : join(ROOT, 'dist');
const PAGE = join(DIST, 'explorer.html');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const PREFIX = '/explorer/sub-path/';
/** The window of a new page (Playwright's default), which every test starts from. */
const VIEWPORT = { width: 1280, height: 720 };
const NUMBERS = join(ROOT, 'src/generated/numbers.json');

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

function serve(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!url.pathname.startsWith(PREFIX)) return void res.writeHead(404).end('outside the base');
    let rel = decodeURIComponent(url.pathname.slice(PREFIX.length)) || 'index.html';
    if (rel.endsWith('/')) rel += 'index.html';
    const file = normalize(join(DIST, rel));
    if (!file.startsWith(DIST) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

interface Watch {
  errors: string[];
  foreign: string[];
  failed: string[];
}

describe('explorer in a browser', () => {
  let server: Server;
  let browser: Browser;
  let origin: string;
  /** The page every test navigates; `phone`, a page in a mobile context for the layout test. */
  let page: Page;
  let phoneContext: BrowserContext | undefined;
  const watches: Watch[] = [];

  beforeAll(async () => {
    if (!existsSync(PAGE)) throw new Error('explorer: dist/explorer.html is missing; run `npm run build` (or `npx astro build`) before the tests');
    if (!existsSync(NUMBERS)) throw new Error('explorer: src/generated/numbers.json is missing; run `node bin/stopwatches.mjs run` first');
    server = await serve();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    page = await watched(await browser.newPage({ viewport: VIEWPORT }));
  });

  afterAll(async () => {
    await phoneContext?.close();
    await browser?.close();
    await new Promise((ok) => (server ? server.close(ok) : ok(null)));
  });

  /** Makes `p` record console errors and failed requests, and block (and record) any request to another origin. */
  async function watched(p: Page): Promise<Page> {
    const w: Watch = { errors: [], foreign: [], failed: [] };
    watches.push(w);
    p.on('console', (m) => { if (m.type() === 'error') w.errors.push(m.text()); });
    p.on('pageerror', (e) => w.errors.push(String(e)));
    p.on('response', (r) => { if (r.status() >= 400) w.failed.push(`${r.url()} → ${r.status()}`); });
    await p.route('**/*', (route) => {
      const u = route.request().url();
      if (u.startsWith(origin) || u.startsWith('file:') || u.startsWith('blob:') || u.startsWith('data:')) return route.continue();
      w.foreign.push(u);
      return route.abort();
    });
    return p;
  }

  /** Loads `url` into `p` (the shared page unless given), at a new page's window size, and waits until its script is ready. */
  async function open(url: string, p = page): Promise<Page> {
    if (p === page) await p.setViewportSize(VIEWPORT);
    await p.goto(url, { waitUntil: 'load' });
    await p.waitForFunction(() => document.getElementById('explorer')?.dataset.ready === 'true');
    return p;
  }

  const url = (search = '') => `${origin}${PREFIX}explorer.html${search}`;
  const runOf = (p: Page) => p.evaluate(() => Number(document.getElementById('explorer')!.dataset.run ?? 0));

  /** Waits until run `id` has finished (both the statistics and the definitions). */
  async function finished(p: Page, id: number): Promise<void> {
    await p.waitForFunction(
      (want) => {
        const d = document.getElementById('explorer')!.dataset;
        if (d.state === 'error' && d.run === String(want)) throw new Error(`run failed: ${document.getElementById('status')!.textContent}`);
        return d.state === 'done' && d.doneRun === String(want);
      },
      id,
      { timeout: 60_000 },
    );
  }

  async function fields(p: Page): Promise<Record<string, string>> {
    return p.$$eval('#explorer-form input, #explorer-form select', (els) =>
      Object.fromEntries(els.map((e) => [(e as HTMLInputElement).name, (e as HTMLInputElement).value])),
    );
  }

  async function clickPreset(p: Page, id: string): Promise<void> {
    const before = await runOf(p);
    await p.click(`a[data-preset="${id}"]`);
    await p.waitForFunction((b) => Number(document.getElementById('explorer')!.dataset.run) > b, before);
    await finished(p, await runOf(p));
  }

  /** Writes the in-browser time of the run on the page (the first-wave preset) for a reader of the CI run; the bench, not this test, holds speed. */
  async function reportTiming(p: Page): Promise<void> {
    const run = await p.evaluate(() => {
      const d = document.getElementById('explorer')!.dataset;
      return { workerMs: Number(d.elapsedMs), roundtripMs: Number(d.roundtripMs), definitionsMs: Number(d.speedsMs) };
    });
    const report = {
      run: 'first-wave preset: closed loop, 64 slots, 640 requests, InferenceX 1024/1024 ratio 0.8, seed 1',
      note: 'workerMs = draws + simulator + TTFT statistics inside the worker; roundtripMs = from Run to the result in the page; definitionsMs = the seven per-token definitions, computed after',
      chromium: browser.version(),
      flags: ARGS,
      ...run,
    };
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'explorer-timing.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`explorer timing (ms): ${JSON.stringify(run)} — test-artifacts/explorer-timing.json`);
  }

  it('runs the first-wave preset and reads back the p99 TTFT the build computed', async () => {
    const numbers = JSON.parse(readFileSync(NUMBERS, 'utf8')) as Record<string, { value: number; n: number; interval: [number, number] | null }>;
    const want = numbers['first-wave.slots64.seed1.p99_all_ms'];
    expect(want, 'numbers.json lacks first-wave.slots64.seed1.p99_all_ms: run `node bin/stopwatches.mjs run --only first-wave`').toBeDefined();
    const p = await open(url());
    await clickPreset(p, 'first-wave');
    await reportTiming(p);
    const got = await p.$eval('#p99-send', (e) => ({ raw: Number((e as HTMLElement).dataset.raw), text: e.querySelector('.v')!.textContent, detail: e.querySelector('.d')!.textContent }));
    expect(Math.abs(got.raw - want.value) / want.value).toBeLessThan(1e-9);
    expect(got.text).toBe(formatValue(want.value, 'ms'));
    expect(got.detail).toContain(`n = ${want.n}`);
    // The same interval as the build's, printed by the same rule.
    expect(got.detail).toContain(`${formatValue(want.interval![0], 'ms', { bare: true })}–${formatValue(want.interval![1], 'ms')}`);
    // The preset's configuration is in the URL.
    const search = await p.evaluate(() => location.search);
    expect(fromQuery(search, defaultParams()).params.slots).toBe(64);
    expect(fromQuery(search, defaultParams()).params.requests).toBe(640);
    // Figures drawn by the article's renderer (Plot: its marks' groups), and the seven definitions, each with its clause line.
    expect(await p.$$eval('#ttft-chart circle', (els) => els.length)).toBe(640);
    expect(await p.$$eval('#tput-chart g[fill-opacity] path', (els) => els.length)).toBe(1);
    expect(await p.$$eval('#speeds-chart rect', (els) => els.length)).toBe(7);
    expect(await p.$eval('#ttft-chart svg', (e) => [e.getAttribute('role'), e.getAttribute('font-family'), document.getElementById(e.getAttribute('aria-labelledby')!)?.textContent])).toEqual(['img', 'system-ui, sans-serif', 'Time to first token, request by request']);
    expect(await p.$$eval('#ttft-chart svg text', (els) => els.map((e) => e.textContent))).toEqual(expect.arrayContaining(['↑ TTFT (ms)', 'request index (send order) →']));
    const tools = await p.$$eval('#speeds-body tr[data-tool]', (rows) => rows.map((r) => (r as HTMLElement).dataset.tool));
    expect(tools).toEqual(['vllm', 'sglang', 'inferencex', 'aiperf', 'guidellm', 'llmperf', 'mlperf']);
    const clauses = await p.$$eval('#speeds-body tr.clause', (rows) => rows.map((r) => r.textContent ?? ''));
    expect(clauses).toHaveLength(7);
    for (const c of clauses) expect(c).toMatch(/^arrivals: closed loop, 64 slots.* · clock: .* · window: whole run, 640 requests$/);
  });

  it('runs every preset to its results, the Figure 6 one with its seven definitions', async () => {
    const p = await open(url('?requests=10&slots=4'));
    await finished(p, await runOf(p));
    const ids = await p.$$eval('a[data-preset]', (as) => as.map((a) => (a as HTMLElement).dataset.preset!));
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) {
      await clickPreset(p, id);
      const got = await p.evaluate(() => ({
        stale: document.getElementById('results')!.dataset.stale,
        dots: document.querySelectorAll('#ttft-chart circle').length,
        tools: document.querySelectorAll('#speeds-body tr[data-tool]').length,
        bars: document.querySelectorAll('#speeds-chart rect').length,
        status: document.getElementById('speeds-status')!.textContent,
      }));
      expect(got, id).toEqual({ stale: 'false', dots: got.dots, tools: 7, bars: 7, status: '' });
      expect(got.dots, id).toBeGreaterThan(0);
    }
  });

  it('marks the results out of date, visibly and for screen readers, as soon as a field changes after a run', async () => {
    const p = await open(url());
    await finished(p, await runOf(p));
    const state = () => p.evaluate(() => ({
      stale: document.getElementById('results')!.dataset.stale,
      note: document.getElementById('stale-note')!.textContent,
      live: document.getElementById('stale-note')!.getAttribute('aria-live'),
      heading: (document.getElementById('results-h') as HTMLElement).innerText,
      opacity: getComputedStyle(document.querySelector('#ttft-chart svg')!).opacity,
    }));
    expect(await state()).toEqual({ stale: 'false', note: '', live: 'polite', heading: 'Results', opacity: '1' });
    // One keystroke, before the debounced refresh: already marked.
    await p.type('#f-slots', '8');
    const s = await state();
    expect(s.stale).toBe('true');
    expect(s.note).toMatch(/^Out of date: these results are from the previous run; Slots changed since\. Press Run/);
    expect(s.heading).toBe('Results (out of date)');
    expect(Number(s.opacity)).toBeLessThan(1);
    expect(await axeViolations(p)).toEqual([]);
    // Set back, not out of date; changed and run, up to date again once the run's results are drawn.
    await p.fill('#f-slots', '64');
    await p.waitForFunction(() => document.getElementById('results')!.dataset.stale === 'false');
    await p.fill('#f-requests', '320');
    await p.waitForFunction(() => document.getElementById('results')!.dataset.stale === 'true');
    const before = await runOf(p);
    await p.click('#run');
    await finished(p, before + 1);
    expect(await state()).toEqual({ stale: 'false', note: '', live: 'polite', heading: 'Results', opacity: '1' });
  });

  it('puts the form near the top and the results on the first screen at 1280 × 800, directly under the form at 390 px', async () => {
    const boxes = async (p: Page) => p.evaluate(() => {
      const b = (sel: string) => {
        const r = document.querySelector(sel)!.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const svg = document.querySelector('#ttft-chart svg') as SVGSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const text = Math.min(...[...document.querySelectorAll('#results .fig-svg svg text')].filter((t) => t.textContent?.trim()).map((t) => parseFloat(getComputedStyle(t).fontSize) * ((t.closest('svg') as SVGSVGElement).getBoundingClientRect().width / (t.closest('svg') as SVGSVGElement).viewBox.baseVal.width)));
      return { form: b('#explorer-form'), results: b('#results'), stats: b('#results .stats'), ttft: b('#ttft-chart'), run: b('#run'), scale, text, width: document.documentElement.scrollWidth, vw: innerWidth, vh: innerHeight };
    });
    const wide = await open(url());
    await wide.setViewportSize({ width: 1280, height: 800 });
    await finished(wide, await runOf(wide));
    const w = await boxes(wide);
    expect(w.form.top).toBeLessThan(w.vh / 3);
    expect(w.results.left).toBeGreaterThanOrEqual(w.form.right);
    expect(w.results.top).toBeLessThan(w.vh / 3);
    expect(w.stats.bottom).toBeLessThan(w.vh);
    expect(w.ttft.top).toBeLessThan(w.vh);
    expect(w.run.bottom).toBeLessThanOrEqual(w.vh);
    expect(w.width).toBe(w.vw);
    // axe-core on this state (the default run drawn, 1280 × 800 and the 390 px phone) is
    // test/site-browser.test.ts's check of explorer.html at the same two sizes; it is not run twice.
    phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await open(url(), await watched(await phoneContext.newPage()));
    await finished(phone, await runOf(phone));
    const n = await boxes(phone);
    expect(n.form.top).toBeLessThan(n.vh);
    expect(n.results.top).toBeGreaterThanOrEqual(n.form.bottom);
    expect(n.results.top - n.form.bottom).toBeLessThan(40);
    expect(n.results.left).toBe(n.form.left);
    expect(n.run.bottom).toBeLessThanOrEqual(n.vh);
    expect(n.text).toBeGreaterThanOrEqual(11);
    expect(n.width).toBe(n.vw);
  });

  it('a shared URL restores the same configuration (and the same result)', async () => {
    const shared: Params = {
      ...defaultParams(1.1), client: 'capped', rate: 37.5, cap: 24, lengths: 'vllm', isl: 700, osl: 150, ratio: 0.3,
      requests: 900, warmup: 30, cooldown: 20, seed: 42, stream: 'shared-test', tokenBudget: 4096, kvCapacityTokens: 200_000,
      maxNumSeqs: 256, etaCompute: 0.6, etaMemory: 0.9, stepOverheadMs: 0.5, inflation: 1.1,
    };
    // 1) A page whose reader set these by hand: its address bar holds them.
    const a = await open(url());
    await finished(a, await runOf(a));
    for (const [k, v] of Object.entries({ client: 'capped', lengths: 'vllm' })) await a.selectOption(`#f-${k}`, v);
    for (const k of ['rate', 'cap', 'isl', 'osl', 'ratio', 'requests', 'warmup', 'cooldown', 'seed', 'stream', 'tokenBudget', 'kvCapacityTokens', 'maxNumSeqs', 'etaCompute', 'etaMemory', 'stepOverheadMs', 'inflation'] as const) {
      await a.fill(`#f-${k}`, String(shared[k]));
    }
    await a.waitForFunction((q) => location.search === `?${q}`, toQuery(shared));
    const link = await a.evaluate(() => location.href);
    const typed = await fields(a);
    // 2) Someone opens the link: same fields, and the run gives what Node gives for the same configuration.
    const b = await open(link);
    await finished(b, await runOf(b));
    const restored = await fields(b);
    expect(restored).toEqual(typed);
    expect(restored.rate).toBe('37.5');
    expect(restored.stream).toBe('shared-test');
    const raw = Number(await b.$eval('#p99-due', (e) => (e as HTMLElement).dataset.raw));
    expect(raw).toBe(runExplorer(shared).p99Due.value);
  });

  it('an out-of-range input shows its message beside the field and the run is refused', async () => {
    const p = await open(url());
    await finished(p, await runOf(p));
    const before = await runOf(p);
    await p.fill('#f-slots', '0');
    await p.waitForSelector('#m-slots:not([hidden])');
    expect(await p.textContent('#m-slots')).toBe('slots must be an integer from 1 to 4,096');
    expect(await p.getAttribute('#f-slots', 'aria-invalid')).toBe('true');
    // The message sits in the field's own row, next to its input.
    expect(await p.$eval('#m-slots', (m) => m.closest('.field')?.id)).toBe('row-slots');
    await p.click('#run');
    await p.waitForFunction(() => document.getElementById('explorer')!.dataset.state === 'invalid');
    expect(await p.textContent('#status')).toMatch(/Not run: one field needs fixing \(Slots\)/);
    expect(await runOf(p)).toBe(before);
    // A bound on the run's size, and a KV pool too small for the longest request.
    await p.fill('#f-slots', '64');
    await p.fill('#f-requests', '600000');
    await p.waitForSelector('#m-requests:not([hidden])');
    expect(await p.textContent('#m-requests')).toMatch(/runs above 500,000 requests are refused/);
    await p.fill('#f-requests', '640');
    await p.fill('#f-kvCapacityTokens', '1500');
    await p.waitForSelector('#m-kvCapacityTokens:not([hidden])');
    expect(await p.textContent('#m-kvCapacityTokens')).toMatch(/raise it to at least 2,048 tokens/);
    expect(await p.isHidden('#m-slots')).toBe(true);
  });

  it('an open-loop rate whose run would not fit is refused beside the rate field (never 0 ms and "Done.")', async () => {
    const p = await open(url());
    await finished(p, await runOf(p));
    const before = await runOf(p);
    await p.selectOption('#f-client', 'open');
    for (const rate of ['1e-20', '1e-300']) {
      await p.fill('#f-rate', rate);
      await p.waitForFunction((r) => (document.getElementById('m-rate')!.textContent ?? '').includes(`at ${r === '1e-20' ? '1.00e-20' : '1.00e-300'} req/s`), rate);
      expect(await p.textContent('#m-rate')).toMatch(/requests would arrive over about .* years; runs longer than 116 days are refused/);
      expect(await p.getAttribute('#f-rate', 'aria-invalid')).toBe('true');
      expect(await p.$eval('#m-rate', (m) => m.closest('.field')?.id)).toBe('row-rate');
      await p.click('#run');
      await p.waitForFunction(() => document.getElementById('explorer')!.dataset.state === 'invalid');
      expect(await p.textContent('#status')).toMatch(/Not run: one field needs fixing \(Rate\)/);
    }
    expect(await runOf(p)).toBe(before);
  });

  it('runs in a worker: the page answers while a long run goes, and Cancel stops it', async () => {
    const p = await open(url());
    await finished(p, await runOf(p));
    const before = await runOf(p);
    // A long run: every token its own step (a budget of two tokens), fifty thousand requests.
    await p.selectOption('#f-lengths', 'fixed');
    await p.fill('#f-isl', '600');
    await p.fill('#f-osl', '600');
    await p.fill('#f-slots', '256');
    await p.fill('#f-tokenBudget', '2');
    await p.fill('#f-requests', '50000');
    await p.click('#run');
    await p.waitForFunction((b) => document.getElementById('explorer')!.dataset.run === String(b + 1) && document.getElementById('explorer')!.dataset.state === 'running', before);
    const t0 = Date.now();
    const ping = await p.evaluate(() => new Promise<number>((ok) => { const t = performance.now(); requestAnimationFrame(() => ok(performance.now() - t)); }));
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(ping).toBeLessThan(1000);
    await p.click('#cancel');
    await p.waitForFunction(() => document.getElementById('explorer')!.dataset.state === 'cancelled');
    // A new run after the cancel starts a fresh worker and finishes.
    await clickPreset(p, 'first-wave');
  });

  it('works from file:// (worker from a blob URL, nothing fetched)', async () => {
    const p = await open(pathToFileURL(PAGE).href + '?' + toQuery({ ...defaultParams(1.2), requests: 200, slots: 16 }));
    await finished(p, await runOf(p));
    const raw = Number(await p.$eval('#p99-send', (e) => (e as HTMLElement).dataset.raw));
    expect(raw).toBe(runExplorer({ ...defaultParams(1.2), requests: 200, slots: 16 }).p99Send.value);
  });

  it('values a double cannot run on are refused beside their field: a factor, efficiencies of 1e-300, a rate of 1e309', async () => {
    const p = await open(url());
    await finished(p, await runOf(p));
    const before = await runOf(p);
    const cases: [string, string, RegExp][] = [
      ['inflation', '1e-300', /^the Llama 2 factor must be from 0\.1 to 10$/],
      ['etaCompute', '1e-300', /^compute efficiency must be from 0\.01 to 1$/],
      ['etaMemory', '1e-300', /^bandwidth efficiency must be from 0\.01 to 1$/],
    ];
    for (const [key, value, message] of cases) {
      await p.fill(`#f-${key}`, value);
      await p.waitForSelector(`#m-${key}:not([hidden])`);
      expect(await p.textContent(`#m-${key}`)).toMatch(message);
      await p.click('#run');
      await p.waitForFunction(() => document.getElementById('explorer')!.dataset.state === 'invalid');
      expect(await p.textContent('#status')).toMatch(/^Not run: one field needs fixing/);
      await p.fill(`#f-${key}`, '0.5');
      await p.waitForSelector(`#m-${key}`, { state: 'hidden' });
    }
    await p.selectOption('#f-client', 'open');
    await p.fill('#f-rate', '1e309');
    await p.waitForSelector('#m-rate:not([hidden])');
    expect(await p.textContent('#m-rate')).toMatch(/^the rate must be above 0 and at most 100,000 requests per second, or inf/);
    await p.click('#run');
    await p.waitForFunction(() => document.getElementById('explorer')!.dataset.state === 'invalid');
    expect(await runOf(p)).toBe(before);
    // `inf` still means every request at once, and Run still works.
    await p.fill('#f-rate', 'inf');
    await p.waitForSelector('#m-rate', { state: 'hidden' });
    await p.click('#run');
    await finished(p, before + 1);
  });

  it('after a refused run, the press on Run is not lost when a message above it comes or goes (three ways)', async () => {
    const p = await open(url());
    await finished(p, await runOf(p));
    const refuse = async () => {
      await p.fill('#f-slots', '0');
      await p.waitForSelector('#m-slots:not([hidden])');
      await p.click('#run');
      await p.waitForFunction(() => document.getElementById('explorer')!.dataset.state === 'invalid');
    };
    // The pointer is put on Run before the field is typed into, so the press follows the typing at once (as a hand does);
    // a tall window holds the whole form, so typing into a field never scrolls the button away.
    await p.setViewportSize({ width: 1280, height: 2400 });
    const aimAtRun = async () => {
      await p.$eval('#run', (e) => e.scrollIntoView({ block: 'center' }));
      const r = (await (await p.$('#run'))!.boundingBox())!;
      await p.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
    };
    const press = async (holdMs: number) => {
      await p.mouse.down();
      if (holdMs) await p.waitForTimeout(holdMs);
      await p.mouse.up();
    };
    // 1. The field is fixed and Run pressed at once: leaving the field (change) hides its message during the press.
    await refuse();
    let before = await runOf(p);
    await aimAtRun();
    await p.fill('#f-slots', '64');
    await press(0);
    await finished(p, before + 1);
    // 2. A slow press: the debounced refresh of the typing lands while the button is held.
    await refuse();
    before = await runOf(p);
    await aimAtRun();
    await p.fill('#f-slots', '64');
    await press(400);
    await finished(p, before + 1);
    // 3. A message appears during the press (a bad value typed, then Run): the press is a refused run, not lost.
    await aimAtRun();
    await p.fill('#f-requests', '600000');
    await press(400);
    await p.waitForFunction(() => document.getElementById('explorer')!.dataset.state === 'invalid');
    expect(await p.textContent('#status')).toMatch(/Not run: one field needs fixing \(Requests\)/);
  });

  it('made no request to another origin, no failed request and no console error', () => {
    expect(watches.length).toBeGreaterThan(0);
    expect(watches.flatMap((w) => w.foreign)).toEqual([]);
    expect(watches.flatMap((w) => w.failed)).toEqual([]);
    expect(watches.flatMap((w) => w.errors)).toEqual([]);
  });
});
