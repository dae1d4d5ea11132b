/**
 * The article's sections, in the paper's order. Each has a partial at
 * src/article/<slug>.astro holding its prose; `experiments` lists the
 * experiments whose figures belong to it (shown automatically until the
 * section's prose places them by hand with <Figure>).
 *
 * To add a section: add an entry here and create the partial. The article
 * page fails the build if either side is missing.
 */
export interface ArticleSection {
  slug: string;
  title: string;
  experiments: string[];
  /** Subsections, for the table of contents (ids must exist in the partial). */
  sub?: { id: string; title: string }[];
  /** When true, the section's figures are placed by the prose (no automatic list). */
  figuresPlaced?: boolean;
}

export const SECTIONS: ArticleSection[] = [
  { slug: 'intro', title: 'Introduction', experiments: [], figuresPlaced: true },
  { slug: 'the-instrument', title: 'The instrument', experiments: ['constants'], figuresPlaced: true },
  { slug: 'where-the-clock-starts', title: 'Where the clock starts', experiments: ['definitions'], figuresPlaced: true },
  {
    slug: 'the-first-wave',
    title: 'The first wave',
    experiments: ['first-wave', 'request-count', 'all-at-once', 'timeline', 'metronome'],
    sub: [
      { id: 'defaults-that-are-mostly-wave', title: 'Defaults that are mostly wave' },
      { id: 'all-at-once', title: 'Everything at once' },
      { id: 'the-echo', title: 'The echo' },
      { id: 'the-metronome', title: 'The metronome' },
    ],
    figuresPlaced: true,
  },
  {
    slug: 'open-and-closed',
    title: 'Open and closed',
    experiments: ['open-closed', 'cliff'],
    sub: [
      { id: 'the-peak', title: 'The peak' },
      { id: 'the-cliff', title: 'The cliff' },
      { id: 'sessions', title: 'Sessions' },
    ],
    figuresPlaced: true,
  },
  { slug: 'the-queue-nobody-times', title: 'The queue nobody times', experiments: ['omission'], figuresPlaced: true },
  {
    slug: 'percentiles',
    title: 'Percentiles',
    experiments: ['order-statistics', 'long-runs', 'sensitivity'],
    sub: [{ id: 'how-much-is-the-model', title: 'How much of this is the model' }],
    figuresPlaced: true,
  },
  { slug: 'what-a-token-is', title: 'What a token is', experiments: ['tokens'], figuresPlaced: true },
  { slug: 'what-the-prompt-is', title: 'What the prompt is', experiments: [] },
  { slug: 'two-checks', title: 'Two checks anyone can run', experiments: ['derivations'], figuresPlaced: true },
  { slug: 'flags-that-already-exist', title: 'Flags that already exist', experiments: [] },
  { slug: 'what-i-write-next-to-a-number', title: 'What I write next to a number now', experiments: [] },
  { slug: 'where-i-might-be-wrong', title: 'Where I might be wrong', experiments: [] },
];
