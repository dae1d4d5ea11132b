/**
 * Browser checks of the built site (dist/), with playwright-core and Debian's
 * Chromium (test/helpers/browser.ts). dist/ is served by a tiny static
 * server under a sub-path, so any absolute link would break; one test also
 * opens the site from file://.
 *
 * Every page is held, at 1280 px (the one visit the other checks use) and at
 * 390 px (a phone; one more visit), to what a reader needs on any screen: no
 * element overlaps another (the sticky contents column, figures, tables,
 * margin notes), nothing widens the page, figure text is at least 11 px on the
 * phone, and axe-core (pinned, injected into the page) finds no violation.
 *
 * One browser page per width is navigated from page to page (the site keeps
 * nothing between loads, so each load starts as a new page would), and the two
 * widths are visited side by side: axe-core's seconds per page are most of the
 * file's time, and the two pages run in separate renderers.
 *
 * Needs a built dist/ (CI runs `npm run build` first). Without one the suite
 * is skipped locally and fails under CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from './helpers/browser.ts';
import { MIN_FIGURE_TEXT, pageLayout, preloadAxe, type Layout } from './helpers/page-layout.ts';

const ROOT = join(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const ARTIFACTS = join(ROOT, 'test-artifacts');
/** The widths every page is held at: a laptop, and a phone. */
const WIDE = 1280;
const PHONE = 390;
/** Screenshots for a reader to look at, taken during the visits that load their pages anyway. */
const SHOTS = {
  first: join(ARTIFACTS, 'site-first-screen.png'),
  figure: join(ARTIFACTS, 'site-figure.png'),
  firstDark: join(ARTIFACTS, 'site-first-screen-dark.png'),
  figureDark: join(ARTIFACTS, 'site-figure-dark.png'),
  narrow: join(ARTIFACTS, 'site-reproduction-narrow.png'),
};
/** The sub-path the site is served from in these tests. */
const PREFIX = '/some/sub-path/';

const built = existsSync(join(DIST, 'index.html'));
if (!built && process.env.CI) throw new Error('site-browser: dist/index.html is missing; run `npm run build` before `npm test`');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.json': 'application/json', '.ico': 'image/x-icon', '.txt': 'text/plain',
};

function serve(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!url.pathname.startsWith(PREFIX)) {
      res.writeHead(404).end('outside the base');
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(PREFIX.length)) || 'index.html';
    if (rel.endsWith('/')) rel += 'index.html';
    const file = normalize(join(DIST, rel));
    if (!file.startsWith(DIST) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

interface Visit {
  consoleErrors: string[];
  failed: string[];
  foreign: string[];
}

interface FigureInfo {
  key: string | null; hasSvg: boolean; role: string | null | undefined; labelText: string; descText: string;
  marks: number; caption: string; png: string; width: number; pngStatus?: number; pngType?: string;
}

interface PageInfo extends Visit {
  layout: Layout;
  figures: FigureInfo[];
  nums: { id: string | null; text: string; title: string; tabindex: string | null }[];
  text: string;
  ids: Set<string>;
  links: string[];
  raw: string[];
  /** The links of Table 3's summary (the article's), to the dossier page filtered by topic. */
  summary: string[];
}

/** A browser page that is navigated from one site page to the next, and what the current visit has recorded. */
interface Tab {
  page: Page;
  visit: Visit;
}

describe.skipIf(!built)('site in a browser', () => {
  let server: Server;
  let browser: Browser;
  let origin: string;
  let pages: string[];
  /** The page at WIDE, and the phone's (a mobile context with touch). */
  let wideTab: Tab;
  let phoneTab: Tab;
  const info = new Map<string, PageInfo>();

  /** A new page that records, on its current visit, console errors, failed or 4xx/5xx requests and requests to other origins (which are blocked). */
  async function newTab(options: BrowserContextOptions): Promise<Tab> {
    const p = await browser.newPage(options);
    await preloadAxe(p);
    const t: Tab = { page: p, visit: { consoleErrors: [], failed: [], foreign: [] } };
    p.on('console', (m) => { if (m.type() === 'error') t.visit.consoleErrors.push(m.text()); });
    p.on('pageerror', (e) => t.visit.consoleErrors.push(String(e)));
    p.on('requestfailed', (r) => { if (!t.visit.foreign.includes(r.url())) t.visit.failed.push(`${r.url()} (${r.failure()?.errorText})`); });
    p.on('response', (r) => { if (r.status() >= 400) t.visit.failed.push(`${r.url()} → ${r.status()}`); });
    await p.route('**/*', (route) => {
      const u = route.request().url();
      if (u.startsWith('data:') || u.startsWith(origin) || u.startsWith('file:')) return route.continue();
      t.visit.foreign.push(u);
      return route.abort();
    });
    return t;
  }

  /** Loads `url` into the tab as a new visit; returns what the visit recorded. */
  async function open(t: Tab, url: string): Promise<Visit> {
    const v: Visit = { consoleErrors: [], failed: [], foreign: [] };
    t.visit = v;
    const p = t.page;
    await p.goto(url, { waitUntil: 'load' });
    // The explorer runs its configuration on load: it is held to the checks with its results drawn, not before.
    if (await p.$('#explorer')) await p.waitForFunction(() => document.getElementById('explorer')?.dataset.state === 'done', null, { timeout: 60_000 });
    return v;
  }

  /** The layout checks and axe-core on an open page. */
  const layout = (p: Page, width: number) => pageLayout(p, width, 'figure.fig');

  /** Everything the checks need from one page, gathered in a single visit (at WIDE). */
  async function inspect(name: string): Promise<PageInfo> {
    const v = await open(wideTab, site(name));
    const p = wideTab.page;
    const wide = await layout(p, WIDE);
    const figures: FigureInfo[] = await p.$$eval('figure.fig', (els) =>
      els.map((f) => {
        const svg = f.querySelector('svg');
        const lab = svg?.getAttribute('aria-labelledby');
        const desc = svg?.getAttribute('aria-describedby');
        const groups = svg ? [...svg.querySelectorAll('g[aria-label]')] : [];
        const plotMarks = groups.filter((g) => !/axis|grid|tick|frame/.test(g.getAttribute('aria-label') ?? '') && g.children.length > 0).length;
        const shapes = svg ? svg.querySelectorAll('circle, path, rect, line, polyline, polygon').length : 0;
        return {
          key: f.getAttribute('data-figure'),
          hasSvg: !!svg,
          role: svg?.getAttribute('role'),
          labelText: lab ? document.getElementById(lab)?.textContent?.trim() ?? '' : '',
          descText: desc ? document.getElementById(desc)?.textContent?.trim() ?? '' : '',
          marks: groups.length ? plotMarks : shapes,
          caption: f.querySelector('figcaption')?.textContent?.trim() ?? '',
          png: (f.querySelector('a[data-png]') as HTMLAnchorElement | null)?.href ?? '',
          width: svg?.getBoundingClientRect().width ?? 0,
        };
      }),
    );
    for (const f of figures) {
      if (!f.png) continue;
      const r = await p.request.get(f.png);
      f.pngStatus = r.status();
      f.pngType = r.headers()['content-type'] ?? '';
    }
    const nums = await p.$$eval('[data-num]', (els) => els.map((e) => ({ id: e.getAttribute('data-num'), text: (e.firstElementChild ?? e).textContent?.trim() ?? '', title: e.getAttribute('title') ?? '', tabindex: e.getAttribute('tabindex') })));
    const text = await p.evaluate(() => document.body.innerText);
    const ids = new Set(await p.$$eval('[id]', (els) => els.map((e) => e.id)));
    const links = await p.$$eval('a[href]', (els) => els.map((a) => (a as HTMLAnchorElement).href));
    const raw = await p.$$eval('a[href], link[href], img[src], script[src]', (els) => els.map((e) => e.getAttribute('href') ?? e.getAttribute('src') ?? ''));
    const summary = await p.$$eval('table[data-table="dossier-summary"] tbody th a', (as) => as.map((a) => (a as HTMLAnchorElement).href));
    if (name === 'index.html') await screenshotArticle(p);
    return { ...v, layout: wide, figures, nums, text, ids, links, raw, summary };
  }

  /** The same page on a phone: the layout checks only. */
  async function inspectPhone(name: string): Promise<Layout> {
    await open(phoneTab, site(name));
    const p = phoneTab.page;
    const l = await layout(p, PHONE);
    if (name === 'reproduction.html') await p.screenshot({ path: SHOTS.narrow });
    // Without hover: a tap on the page's switch puts every number's spread and interval in the text.
    if (await p.$('.num-detail')) {
      const before = await p.$eval('.num-detail', (e) => e.getBoundingClientRect().width);
      await p.tap('label:has(#show-detail)');
      const after = await p.$$eval('.num-detail', (els) => els.filter((e) => e.getBoundingClientRect().width > 1 && getComputedStyle(e).clipPath === 'none').length);
      details.set(name, { before, after, total: await p.$$eval('.num-detail', (els) => els.length) });
    }
    return l;
  }
  const phone = new Map<string, Layout>();

  /** The article's first screen and its first figure, light and dark. */
  async function screenshotArticle(p: Page): Promise<void> {
    await p.screenshot({ path: SHOTS.first });
    const fig = await p.$('figure.fig');
    if (fig) await fig.screenshot({ path: SHOTS.figure });
    await p.emulateMedia({ colorScheme: 'dark' });
    await p.screenshot({ path: SHOTS.firstDark });
    if (fig) await fig.screenshot({ path: SHOTS.figureDark });
    await p.emulateMedia({ colorScheme: 'light' });
  }
  /** The address of a built page under the sub-path. */
  const site = (name: string) => `${origin}${PREFIX}${name}`;
  /** The wide page, loaded with `url`. */
  async function wide(url: string): Promise<Page> {
    await open(wideTab, url);
    return wideTab.page;
  }
  const details = new Map<string, { before: number; after: number; total: number }>();

  beforeAll(async () => {
    server = await serve();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    wideTab = await newTab({ viewport: { width: WIDE, height: 800 } });
    phoneTab = await newTab({ viewport: { width: PHONE, height: 844 }, isMobile: true, hasTouch: true });
    pages = readdirSync(DIST).filter((f) => f.endsWith('.html')).sort();
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const f of Object.values(SHOTS)) rmSync(f, { force: true });
    await Promise.all([
      (async () => { for (const name of pages) info.set(name, await inspect(name)); })(),
      (async () => { for (const name of pages) phone.set(name, await inspectPhone(name)); })(),
    ]);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((ok) => (server ? server.close(ok) : ok(undefined)));
  });

  it('builds the expected pages', () => {
    for (const p of ['index.html', 'reproduction.html', 'dossier.html', 'constants.html', 'definitions.html', 'references.html', 'rebuild.html']) {
      expect(pages).toContain(p);
    }
  });

  it('loads every page without a console error, a failed request or a request to another origin', () => {
    const problems: string[] = [];
    for (const [name, v] of info) {
      for (const e of v.consoleErrors) problems.push(`${name}: console: ${e}`);
      for (const e of v.failed) problems.push(`${name}: failed: ${e}`);
      for (const e of v.foreign) problems.push(`${name}: other origin: ${e}`);
    }
    expect(problems).toEqual([]);
  });

  it('gives every figure an SVG with marks, a caption, an accessible name and description, and a PNG', () => {
    const problems: string[] = [];
    let count = 0;
    for (const [name, v] of info) {
      for (const f of v.figures) {
        count++;
        const where = `${name} ${f.key}`;
        if (!f.hasSvg) problems.push(`${where}: no svg`);
        if (f.role !== 'img') problems.push(`${where}: svg role is ${f.role}`);
        if (!f.labelText) problems.push(`${where}: no accessible name`);
        if (!f.descText) problems.push(`${where}: no accessible description`);
        if (f.marks < 1) problems.push(`${where}: svg has no marks`);
        if (!f.caption) problems.push(`${where}: no caption`);
        if (f.width < 100) problems.push(`${where}: svg is ${f.width}px wide`);
        if (!f.png) problems.push(`${where}: no PNG link`);
        else if (f.pngStatus !== 200 || !f.pngType?.includes('png')) problems.push(`${where}: PNG ${f.png} → ${f.pngStatus}`);
      }
    }
    expect(problems).toEqual([]);
    console.log(`site-browser: ${count} figures checked`);
  });

  describe.each([WIDE, PHONE])('at %i px, every page', (width) => {
    const layouts = () => [...(width === WIDE ? [...info].map(([n, v]) => [n, v.layout] as const) : [...phone])];
    it('has no element overlapping another', () => {
      expect(layouts().flatMap(([n, l]) => l.overlaps.map((o) => `${n}: ${o}`))).toEqual([]);
    });
    it('is no wider than the window', () => {
      expect(layouts().flatMap(([n, l]) => l.widening.map((o) => `${n}: ${o}`))).toEqual([]);
    });
    it('has no axe-core violation', () => {
      expect(layouts().flatMap(([n, l]) => l.axe.map((o) => `${n}: ${o}`))).toEqual([]);
    });
  });

  it(`shows figure text of at least ${MIN_FIGURE_TEXT} px on a ${PHONE} px phone, every figure drawn for it`, () => {
    const shown = [...phone].flatMap(([n, l]) => l.figureText.map((f) => ({ ...f, page: n })));
    expect(shown.length).toBe([...info.values()].reduce((k, v) => k + v.figures.length, 0));
    expect(shown.filter((f) => f.px < MIN_FIGURE_TEXT).map((f) => `${f.page} ${f.key}: ${f.px.toFixed(1)} px`)).toEqual([]);
  });

  it('shows every number’s spread and interval without hover, behind one switch, and makes no number a tab stop', () => {
    expect(details.size).toBeGreaterThan(0);
    for (const [name, d] of details) {
      expect(d.before, name).toBeLessThanOrEqual(1);
      expect(d.after, name).toBe(d.total);
    }
    for (const [name, v] of info) expect(v.nums.filter((n) => n.tabindex !== null).map((n) => n.id), name).toEqual([]);
  });

  it('resolves every <Num> (value, a tooltip that does not start with its id) and shows no undefined or NaN', () => {
    const problems: string[] = [];
    let count = 0;
    for (const [name, v] of info) {
      for (const n of v.nums) {
        count++;
        if (!/\d/.test(n.text)) problems.push(`${name}: ${n.id} shows “${n.text}”`);
        if (!n.title || n.title.startsWith(`${n.id}`)) problems.push(`${name}: ${n.id} has tooltip “${n.title}”`);
      }
      for (const bad of ['undefined', 'NaN', '[object Object]']) if (v.text.includes(bad)) problems.push(`${name}: page text contains “${bad}”`);
    }
    expect(problems).toEqual([]);
    console.log(`site-browser: ${count} numbers checked`);
  });

  it('names both uncertainties in the tooltip of a number over seeds, and classifies every reproduction row', async () => {
    const numbers = JSON.parse(readFileSync(join(ROOT, 'src/generated/numbers.json'), 'utf8')) as Record<string, { seeds?: number; interval: unknown; spread?: { modes?: unknown } }>;
    const problems: string[] = [];
    let seeded = 0;
    for (const [name, v] of info) {
      for (const n of v.nums) {
        const nv = n.id ? numbers[n.id] : undefined;
        if (!nv?.seeds) continue;
        seeded++;
        if (!n.title.includes(`median over ${nv.seeds} seeds; seed to seed`)) problems.push(`${name}: ${n.id} tooltip lacks its spread over seeds: “${n.title}”`);
        if (nv.interval && !n.title.includes('within one run: [')) problems.push(`${name}: ${n.id} tooltip lacks its within-run interval`);
        if (nv.spread?.modes && !n.title.includes('two modes:')) problems.push(`${name}: ${n.id} tooltip lacks its two modes`);
      }
    }
    expect(seeded).toBeGreaterThan(0);
    const p = await wide(site('reproduction.html'));
    const rows = await p.$$eval('#reproduction tr[data-kind]', (els) =>
      els.map((e) => ({ kind: e.getAttribute('data-kind'), group: e.getAttribute('data-group'), ours: e.children[3]?.textContent?.trim() ?? '', how: e.children[5]?.querySelector('.how')?.textContent?.trim() ?? '' })),
    );
    for (const r of rows) {
      if (!['simulated', 'analytic', 'setting'].includes(r.kind ?? '')) problems.push(`reproduction row of kind ${r.kind}`);
      if (r.group !== 'missing' && r.ours.includes('not yet reproduced')) problems.push(`a computed row reads “${r.ours}”`);
      if (/\d\.0+ (runs|preemptions|requests)\b/.test(r.ours)) problems.push(`a count printed with decimals: “${r.ours}”`);
      if (/\bcompare the intervals\b/.test(r.how)) problems.push(`“compare the intervals” in: ${r.how}`);
    }
    expect(rows.length).toBeGreaterThan(0);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('summarizes Table 3 on the article with a link, and filters the dossier page by grade and topic', async () => {
    const summary = info.get('index.html')!.summary;
    expect(summary.length).toBeGreaterThan(1);
    expect(info.get('index.html')!.text).not.toMatch(/\bTable 3\. Confidence dossier\n/);
    const topic = new URL(summary[0]!).searchParams.get('topic')!;
    const p = await wide(summary[0]!);
    const rows = () => p.$$eval('table[data-table="dossier"] tbody tr', (trs) => trs.map((t) => ({ topic: t.getAttribute('data-topic'), grade: t.getAttribute('data-grade'), shown: !(t as HTMLElement).hidden })));
    const byTopic = await rows();
    expect(byTopic.filter((r) => r.shown).length).toBeGreaterThan(0);
    expect(byTopic.every((r) => r.shown === (r.topic === topic))).toBe(true);
    await p.selectOption('form.dossier-filter select', '');
    await p.uncheck('form.dossier-filter input[value="A"]');
    const byGrade = await rows();
    expect(byGrade.every((r) => r.shown === (r.grade !== 'A'))).toBe(true);
    expect(await p.$eval('form.dossier-filter output', (o) => o.textContent)).toBe(`${byGrade.filter((r) => r.shown).length} of ${byGrade.length} claims shown`);
  });

  it('names the commit it was built from, and no clock time', () => {
    for (const [name, v] of info) expect(v.text, name).toMatch(/Built from commit [0-9a-f]{12}/);
  });

  it('has no broken internal link (files and #fragments) and no absolute link', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [name, v] of info) {
      for (const h of v.raw) if (h.startsWith('/')) problems.push(`${name}: absolute link ${h}`);
      for (const href of v.links) {
        if (!href.startsWith(origin)) continue; // external citations are links, not requests
        checked++;
        const u = new URL(href);
        if (!u.pathname.startsWith(PREFIX)) { problems.push(`${name}: ${href} leaves the base`); continue; }
        let target = u.pathname.slice(PREFIX.length) || 'index.html';
        if (target.endsWith('/')) target += 'index.html';
        const file = join(DIST, decodeURIComponent(target));
        if (!existsSync(file)) { problems.push(`${name}: ${href} → missing ${target}`); continue; }
        if (u.hash && target.endsWith('.html')) {
          const id = decodeURIComponent(u.hash.slice(1));
          if (!info.get(target)?.ids.has(id)) problems.push(`${name}: ${href} → no #${id} in ${target}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(pages.length);
  });

  it('works from the file system (file://) with styles applied', async () => {
    const v = await open(wideTab, pathToFileURL(join(DIST, 'index.html')).href);
    const p = wideTab.page;
    const font = await p.evaluate(() => getComputedStyle(document.body).fontFamily);
    const link = await p.$eval('a[href$="reproduction.html"]', (a) => (a as HTMLAnchorElement).href);
    expect(v.consoleErrors).toEqual([]);
    expect(v.failed).toEqual([]);
    expect(v.foreign).toEqual([]);
    expect(font).toMatch(/serif/);
    expect(link.startsWith('file://')).toBe(true);
    expect(existsSync(new URL(link))).toBe(true);
  });

  it('saves screenshots of the first screen and of one figure to test-artifacts/', () => {
    // Taken in the article's and the reproduction page's visits (inspect, inspectPhone); removed before them.
    expect(existsSync(SHOTS.first)).toBe(true);
    if (info.get('index.html')!.figures.length) expect(existsSync(SHOTS.figure)).toBe(true);
    expect(existsSync(SHOTS.narrow)).toBe(true);
  });
});
