/**
 * The paper's outline, declared once: the article page's headings in reading
 * order, the experiments each section presents, and the figures it places with
 * the label the page prints. Everything else derives from it: the experiment
 * registry (experiments/index.ts runs the experiments in this order, which is
 * also the order of numbers.json), the article page and its table of contents,
 * `<Figure>` labels, `<Subhead>` titles, the explorer's presets and the
 * reproduction table's links. test/outline.test.ts holds the partials, the
 * figure snapshots and the published values to it.
 *
 * `article` is the heading of the original article a heading corresponds to, and
 * a figure's `article` the number of the article's figure it reproduces: both
 * are citations, printed only where our numbers are set beside the article's.
 */

export interface OutlineFigure {
  /** Experiment id (experiments/<exp>.ts) and the figure's name within it. */
  exp: string;
  name: string;
  /** What the page prints before the figure's title, e.g. `Figure 4a`. */
  label?: string;
  /** The number of the article's figure this one reproduces. */
  article?: number;
}

export interface OutlineHeading {
  /** Anchor on the article page; for a section with prose, also its partial src/article/<id>.astro. */
  id: string;
  /** Our title. */
  title: string;
  /** The original article's heading for the same material (a citation). */
  article?: string;
}

/**
 * What renders a section's body: its prose partial, or one of the generated
 * tables that close the page.
 */
export type SectionBody = 'prose' | 'dossier' | 'references' | 'constants';

export interface OutlineSection extends OutlineHeading {
  body: SectionBody;
  /** Experiments whose results the section presents; each experiment is listed under exactly one section. */
  experiments: readonly string[];
  /** Figures the section places, in order (each exactly once, with <Figure exp name>). */
  figures: readonly OutlineFigure[];
  /** Subsections (rendered with <Subhead id>), for the table of contents. */
  sub?: readonly OutlineHeading[];
}

const outline = [
  { id: 'intro', title: 'Who holds the stopwatch', article: 'Intro', body: 'prose', experiments: [], figures: [] },
  { id: 'the-instrument', title: 'A simulated server as the instrument', article: 'The instrument', body: 'prose', experiments: [], figures: [] },
  {
    id: 'where-the-clock-starts',
    title: 'Seven ways to time one request',
    article: 'Where the clock starts',
    body: 'prose',
    experiments: ['definitions'],
    figures: [{ exp: 'definitions', name: 'speeds', label: 'Figure 1', article: 1 }],
  },
  {
    id: 'the-first-wave',
    title: 'How the opening burst sets the tail',
    article: 'The first wave',
    body: 'prose',
    experiments: ['first-wave', 'request-count', 'all-at-once', 'timeline', 'metronome'],
    figures: [
      { exp: 'first-wave', name: 'ttft', label: 'Figure 2', article: 2 },
      { exp: 'request-count', name: 'mean_ttft', label: 'Figure 3', article: 3 },
      { exp: 'timeline', name: 'throughput', label: 'Figure 4a', article: 4 },
      { exp: 'timeline', name: 'queue', label: 'Figure 4b', article: 4 },
      { exp: 'metronome', name: 'ttft', label: 'Figure 5', article: 5 },
      { exp: 'metronome', name: 'range_ratio', label: 'Figure 5b' },
    ],
    sub: [
      { id: 'defaults-that-are-mostly-wave', title: 'Default runs measure mostly the burst' },
      { id: 'all-at-once', title: 'Every prompt at time zero' },
      { id: 'the-echo', title: 'Ripples after the burst' },
      { id: 'the-metronome', title: 'Identical lengths move in lockstep' },
    ],
  },
  {
    id: 'open-and-closed',
    title: 'Closed loops against open arrivals',
    article: 'Open and closed',
    body: 'prose',
    experiments: ['open-closed', 'cliff'],
    figures: [
      { exp: 'open-closed', name: 'p99', label: 'Figure 6', article: 6 },
      { exp: 'cliff', name: 'share', label: 'Figure 7', article: 7 },
    ],
    sub: [
      { id: 'the-peak', title: 'The best rate of a sweep' },
      { id: 'the-cliff', title: 'Just past the best rate' },
      { id: 'sessions', title: 'Multi-turn sessions' },
    ],
  },
  {
    id: 'the-queue-nobody-times',
    title: 'Waiting the client never records',
    article: 'The queue nobody times',
    body: 'prose',
    experiments: ['omission'],
    figures: [{ exp: 'omission', name: 'p99', label: 'Figure 8', article: 8 }],
  },
  {
    id: 'percentiles',
    title: 'How far a tail percentile can be trusted',
    article: 'Percentiles',
    body: 'prose',
    experiments: ['order-statistics', 'long-runs', 'sensitivity'],
    figures: [
      { exp: 'order-statistics', name: 'max_bound' },
      { exp: 'long-runs', name: 'spread', label: 'Figure 9a', article: 9 },
      { exp: 'long-runs', name: 'windows', label: 'Figure 9b', article: 9 },
      { exp: 'sensitivity', name: 'effects', label: 'Figure 10', article: 10 },
    ],
    sub: [{ id: 'how-much-is-the-model', title: 'Which effects survive another server', article: 'How much of this is the model' }],
  },
  {
    id: 'what-a-token-is',
    title: 'Tokens are not a fixed unit',
    article: 'What a token is',
    body: 'prose',
    experiments: ['tokens'],
    figures: [{ exp: 'tokens', name: 'tokens-per-kchar', label: 'Figure 11', article: 11 }],
  },
  { id: 'what-the-prompt-is', title: 'Synthetic prompts and what they miss', article: 'What the prompt is', body: 'prose', experiments: [], figures: [] },
  {
    id: 'two-checks',
    title: 'Two sanity checks for a published row',
    article: 'Two checks anyone can run',
    body: 'prose',
    experiments: ['derivations'],
    figures: [{ exp: 'derivations', name: 'envelope', label: 'Figure 12', article: 12 }],
  },
  { id: 'flags-that-already-exist', title: 'Settings the tools already offer', article: 'Flags that already exist', body: 'prose', experiments: [], figures: [] },
  { id: 'what-i-write-next-to-a-number', title: 'What to report beside a number', article: 'What I write next to a number now', body: 'prose', experiments: [], figures: [] },
  { id: 'where-i-might-be-wrong', title: 'Limits of this study', article: 'Where I might be wrong', body: 'prose', experiments: [], figures: [] },
  { id: 'confidence-dossier', title: 'Confidence dossier', article: 'Confidence dossier', body: 'dossier', experiments: [], figures: [] },
  { id: 'sources', title: 'Works cited', article: 'Sources', body: 'references', experiments: [], figures: [] },
  { id: 'appendix-the-model', title: 'Appendix: constants of the simulated server', article: 'Appendix: the model', body: 'constants', experiments: ['constants'], figures: [] },
] as const satisfies readonly OutlineSection[];

type Literal = (typeof outline)[number];

/** Every anchor of the article page's headings. */
export type HeadingId = Literal['id'] | Extract<Literal, { sub: unknown }>['sub'][number]['id'];
/** The article's figures that some figure of ours reproduces. */
export type ArticleFigure = Extract<Literal['figures'][number], { article: number }>['article'];

export const OUTLINE: readonly OutlineSection[] = outline;

/** Sections whose body is prose from a partial. */
export const PROSE_SECTIONS: readonly OutlineSection[] = OUTLINE.filter((s) => s.body === 'prose');

/** Every experiment in paper order: the registry's order. */
export const EXPERIMENT_ORDER: readonly string[] = OUTLINE.flatMap((s) => s.experiments);

/** Every heading (sections and subsections) in page order, with its level. */
export const HEADINGS: readonly (OutlineHeading & { level: 2 | 3; section: OutlineSection })[] = OUTLINE.flatMap((s) => [
  { id: s.id, title: s.title, article: s.article, level: 2 as const, section: s },
  ...(s.sub ?? []).map((x) => ({ ...x, level: 3 as const, section: s })),
]);

export function heading(id: string): OutlineHeading & { level: 2 | 3; section: OutlineSection } {
  const h = HEADINGS.find((x) => x.id === id);
  if (!h) throw new Error(`src/outline.ts: no heading with id "${id}" (ids: ${HEADINGS.map((x) => x.id).join(', ')})`);
  return h;
}

/** The section that presents an experiment, or null when no section lists it. */
export function sectionOfExperiment(experiment: string): OutlineSection | null {
  return OUTLINE.find((s) => s.experiments.includes(experiment)) ?? null;
}

/** Every figure in page order, with the section that places it. */
export const FIGURES: readonly (OutlineFigure & { section: OutlineSection })[] = OUTLINE.flatMap((s) => s.figures.map((f) => ({ ...f, section: s })));

/** The outline's entry for a figure; throws when the outline does not place it. */
export function outlineFigure(exp: string, name: string): OutlineFigure & { section: OutlineSection } {
  const f = FIGURES.find((x) => x.exp === exp && x.name === name);
  if (!f) throw new Error(`src/outline.ts places no figure ${exp}/${name}: add it to its section's figures`);
  return f;
}

/** The label of an experiment's first labelled figure (what the explorer names a preset by), or null. */
export function figureLabelOf(experiment: string): string | null {
  return FIGURES.find((f) => f.exp === experiment && f.label)?.label ?? null;
}
