/**
 * The contract between experiments, the runner and the site.
 * An experiment is pure computation: config + seeded randomness in, JSON data
 * and numbers out. Figures are cheap pure functions of that data.
 */
import type { PlotOptions } from '@observablehq/plot';

/** One published number. Ids are dotted paths whose last part names the unit: `first-wave.p99.all_ms`. */
export interface NumberValue {
  value: number;
  /** Unit as shown to readers: `ms`, `s`, `tok/s`, `req/s`, `%`, `×`, `tokens`, `` (dimensionless count). */
  unit: string;
  /** Sample size the value was computed from (requests, gaps, runs, seeds); null when not a sample statistic. */
  n: number | null;
  /** Interval for percentiles (order-statistic bounds) and shares (Wilson); null otherwise. */
  interval: [number, number] | null;
  /** Confidence level of `interval`, e.g. 0.95. */
  level?: number;
  /** What the interval is, e.g. `order-statistic 95%`, `Wilson 95%`. */
  intervalKind?: string;
  /**
   * How many seeds (independent runs with their own random draws) the value
   * summarises; absent for a single run or a value without random draws.
   * Then `value` is a statistic over the per-seed values (the median unless
   * the experiment says otherwise) and `spread` is their distribution.
   */
  seeds?: number;
  /** Distribution of the per-seed values: present exactly when `seeds` is. */
  spread?: SeedSpread;
  /**
   * The per-seed values themselves, in seed order, with the seeds they are of:
   * present exactly when `seeds` is. Two numbers of one experiment read at the
   * same seed come from the same run, so a claim over both is evaluated seed by
   * seed (src/claims/evaluate.ts) instead of at independent extremes.
   */
  perSeed?: PerSeed;
}

/** Values by seed: `values[i]` is of seed `seeds[i]`; seeds ascending, one value each. */
export interface PerSeed {
  seeds: number[];
  values: number[];
}

/**
 * Quantiles of a number's per-seed values (numpy linear interpolation): the
 * run-to-run uncertainty, as opposed to `interval`, which bounds a statistic
 * within one run.
 */
export interface SeedSpread {
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  /**
   * Present when the per-seed values fall into two separate clusters (the
   * test is in experiments/lib/seeds.ts): lower cluster first.
   */
  modes?: [SeedMode, SeedMode];
}

/** One cluster of per-seed values. */
export interface SeedMode {
  min: number;
  median: number;
  max: number;
  /** Seeds in the cluster. */
  seeds: number;
}

/** Numbers as an experiment returns them (ids without the experiment prefix). */
export type Numbers = Record<string, NumberValue>;

/** numbers.json: flat, sorted by id; `experiment` added by the runner. */
export type NumbersFile = Record<string, NumberValue & { experiment: string }>;

/** The clauses printed under every number and figure (docs/experiments.md). */
export interface Clauses {
  arrivals: string;
  clock: string;
  window: string;
  definitions: string;
  tokens: string;
  prompts: string;
  speculation?: string;
  quality?: string;
  versions?: string;
}

export interface FigureSpec {
  /** Short title, shown above the figure. */
  title: string;
  /** One or two sentences under the figure. */
  caption: string;
  /** Accessible description of what the figure shows (for screen readers). */
  alt: string;
  /** Plot options without `document` (the renderer adds it). Width/height fixed for stable snapshots. */
  plot: Omit<PlotOptions, 'document'>;
  /**
   * Plot options for the phone-width drawing, when `plot` laid out again
   * (render.ts: renderNarrowSvg) would not read well there: long band labels,
   * panels side by side. Its width and smallest text are the renderer's.
   */
  narrow?: Omit<PlotOptions, 'document'>;
}

/** A unit of work the pool runs on its own: one seed, one sweep point. */
export interface JobSpec<P = unknown> {
  /** Unique within the experiment; also names the job in progress lines and timeouts. */
  id: string;
  params: P;
}

export interface JobContext {
  /**
   * Seeded generator for this job: `createRng(params.seed)` when params has an
   * integer `seed` in [0, 2^32), else `createRng(hashLabel("<experiment>/<job id>"))`.
   */
  rng: import('../rng/index.ts').Rng;
  /**
   * Report progress: units done of total (e.g. simulator runs), and simulated
   * requests done so far in this job (for the req/s column). Cheap to call often:
   * the worker forwards at most 5 updates a second.
   */
  progress(done: number, total: number, requests?: number): void;
  /** Absolute project root: read declared `inputs` relative to it (the working directory in the CLI). */
  root: string;
}

/** What `combine` may read besides its own results: numbers of the experiments it `needs`. */
export interface CombineDeps {
  /** A number by its full id (`tokens.llmperf_inflation.english_docs_x`); throws naming the id if absent or not needed. */
  number(id: string): NumberValue & { experiment: string };
}

export interface ExperimentDefinition<C = any, P = any, J = any, D = any> {
  id: string;
  title: string;
  /** Canonical JSON config: hashed into the cache key. */
  config: C;
  /** Files read by the experiment (relative to the project root): hashed into the key. */
  inputs?: string[];
  /** Independent jobs; default: a single job `all` with params {}. */
  jobs?(config: C): JobSpec<P>[];
  /** Pure: no I/O except declared inputs, no clock, no globals. Returns JSON-serializable data. */
  runJob(config: C, params: P, ctx: JobContext): J | Promise<J>;
  /**
   * Ids of experiments whose numbers `combine` reads through `deps.number(id)`.
   * They are combined first (whatever the registry order) and join `--only` runs.
   */
  needs?: string[];
  /**
   * Merges the jobs' results (in job order) into the experiment's data and numbers.
   * Runs in the main thread on every build (cheap, never cached).
   */
  combine(config: C, results: J[], deps: CombineDeps): { data: D; numbers: Numbers };
  clauses: Clauses;
  /** Per-job timeout in seconds (default: the runner's, 30 min); `--timeout` overrides it. */
  timeoutSeconds?: number;
}

/**
 * What an experiment's figures module exports as `figures`: figure functions of
 * its combined data, in display order; the key names the figure
 * (`<experiment>.<key>.svg`). The module is `figures/<same file name>` beside
 * the experiment module (experiments/figures/first-wave.ts for
 * experiments/first-wave.ts). It is loaded in the main thread only and is in no
 * job's key: editing it re-renders the figures and reruns nothing.
 */
export type Figures<D = any> = Record<string, (data: D, numbers: FigureNumbers) => FigureSpec>;

/**
 * A figure's second argument: its experiment's numbers by id within the
 * experiment (`config.seeds`, `load98.collapsed_runs`), so a caption or a
 * description prints the values the article cites, settings included, instead
 * of typing them. An id the experiment does not publish is an error naming it.
 */
export type FigureNumbers = (id: string) => NumberValue;

/**
 * The combined data type of an experiment (what `combine` returns as `data`):
 * `export type FirstWaveData = DataOf<typeof experiment>` in the experiment
 * module, imported with `import type` by its figures module.
 */
export type DataOf<E> = E extends ExperimentDefinition<any, any, any, infer D> ? D : never;
