/**
 * What counts as prose in a page source, and which digits prose may hold.
 * Used by test/prose.test.ts. Prose is what a reader sees that a writer typed:
 * frontmatter, scripts, styles, comments, {expressions}, <code>/<pre> and the
 * tags themselves (attributes included, so <Num id="…"/> vanishes) are not.
 */

/** Replaces every character but newlines by a space, so line numbers survive. */
const blank = (s: string) => s.replace(/[^\n]/g, ' ');

/** Removes `{…}` expressions, balancing braces (approximate inside strings, good enough for page sources). */
function blankExpressions(src: string): string {
  let out = '';
  let depth = 0;
  for (const ch of src) {
    if (ch === '{') depth++;
    out += depth > 0 ? (ch === '\n' ? '\n' : ' ') : ch;
    if (ch === '}' && depth > 0) depth--;
  }
  return out;
}

/**
 * The prose of an .astro / .md / .mdx source, blanked elsewhere (same length,
 * same lines). `keepCode` keeps the text of <code>/<pre> (what a reader sees,
 * for the shared-run check), which the digit checks leave out.
 */
export function proseOf(src: string, file = '', opts: { keepCode?: boolean } = {}): string {
  let s = src;
  // frontmatter (astro and md): a leading --- … --- block
  s = s.replace(/^---\r?\n[\s\S]*?\r?\n---/, blank);
  s = s.replace(/<!--[\s\S]*?-->/g, blank);
  s = s.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, blank);
  if (/\.(astro|mdx)$/.test(file) || file === '') s = blankExpressions(s);
  if (/\.mdx?$/.test(file)) {
    s = s.replace(/```[\s\S]*?```/g, blank).replace(/`[^`\n]*`/g, blank);
    s = s.replace(/^(import|export)\s.*$/gm, blank);
  }
  if (!opts.keepCode) s = s.replace(/<(pre|code)\b[\s\S]*?<\/\1>/gi, blank);
  s = s.replace(/<[^>]*>/g, blank);
  s = s.replace(/&[a-z]+;|&#\d+;|&#x[0-9a-f]+;/gi, blank);
  return s;
}

/**
 * Digits prose may hold without <Num>: an explicit, short list. Anything else
 * with a digit is a number that must come from numbers.json.
 */
const DIGIT_ALLOW: { name: string; re: RegExp }[] = [
  { name: 'year', re: /\b(?:19|20)\d{2}\b/g },
  { name: 'figure, table or section number', re: /\b(?:Figure|Fig\.|Table|Section|Experiment|Appendix)\s\d+[a-z]?\b|§\s?\d+/g },
  { name: 'citation', re: /\[\d+(?:\s*[,–-]\s*\d+)*\]/g },
  {
    name: 'model, tokenizer or hardware name',
    re: /\b(?:Llama\s\d(?:\.\d)?(?:\s\d+B)?|Gemma\s?\d|Qwen\d(?:-\d+B)?|DeepSeek-V\d|GPT-\d|H100|A100|B200|o200k(?:_base)?|cl100k(?:_base)?|BF16|FP8|FP16|INT8|sha256)\b/g,
  },
  { name: 'percentile name', re: /\bp\d{2}(?:\.\d)?\b/g },
  { name: 'workload name', re: /\b\d+k\/\d+k\b/g },
];

export interface DigitHit {
  line: number;
  text: string;
}

/** Lines of prose that still hold a digit once the allowed names are removed. */
export function strayDigits(src: string, file = ''): DigitHit[] {
  const prose = proseOf(src, file);
  const hits: DigitHit[] = [];
  prose.split('\n').forEach((line, i) => {
    let l = line;
    for (const a of DIGIT_ALLOW) l = l.replace(a.re, (m) => ' '.repeat(m.length));
    if (/\d/.test(l)) hits.push({ line: i + 1, text: line.trim() });
  });
  return hits;
}

/*
 * Numbers spelled out in words. Writing "sixty-four slots" instead of "64 slots"
 * dodges the digit check but is the same hand-typed number. Prose may not hold
 * compound or large number words, percentages or fractions in words; small
 * counting words that are part of the argument ("seven tools", "two clocks")
 * are left alone. Settings and results go through <Num id="…"/>.
 */

const UNIT_WORDS = 'one|two|three|four|five|six|seven|eight|nine';
const TEEN_WORDS = 'ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen';
const TENS_WORDS = 'twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
const SCALE_WORDS = 'hundreds?|thousands?|millions?|billions?|trillions?';
const FRACTION_WORDS = 'thirds?|quarters?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?|hundredths?|thousandths?';
const WORD = `(?:${UNIT_WORDS}|${TEEN_WORDS}|${TENS_WORDS}|${SCALE_WORDS}|an?)`;

/**
 * A run of number words, as long as it goes: "two hundred and fifty-six",
 * "one thousand and twenty-four", "ninety-five per cent", "nine tenths",
 * "one and a half". Whether a run is a number is decided by NUMBER_WORD_RULES.
 */
const NUMBER_RUN = new RegExp(
  `\\b${WORD}(?:(?:[\\s-]+and)?[\\s-]+${WORD})*(?:[\\s-]+(?:per\\s?cent|percent|half|${FRACTION_WORDS}))?\\b`,
  'gi',
);

/** What makes a run of number words a number that must come from the pipeline; each rule names itself in the failure. */
const NUMBER_WORD_RULES: { name: string; test: (run: string) => boolean }[] = [
  { name: 'tens word (twenty … ninety)', test: (r) => new RegExp(`\\b(?:${TENS_WORDS})\\b`, 'i').test(r) },
  { name: 'large number word', test: (r) => new RegExp(`\\b(?:${SCALE_WORDS})\\b`, 'i').test(r) },
  { name: 'percentage in words', test: (r) => /\b(?:per\s?cent|percent)$/i.test(r) },
  {
    // "nine tenths", "four fifths", "a tenth": a percentage in disguise. A plain "a third" or "a quarter" may stay.
    name: 'fraction in words',
    test: (r) =>
      /\b(?:tenths?|hundredths?|thousandths?)$/i.test(r) ||
      new RegExp(`^(?!(?:an?|one)\\s)\\S.*\\b(?:${FRACTION_WORDS})$`, 'i').test(r),
  },
  { name: 'mixed number in words', test: (r) => /\band\s+an?\s+(?:half|quarter|third)$/i.test(r) },
];

/**
 * Number words prose may hold: a short, explicit list of exact phrases.
 * `idiom`: a unit or a figure of speech, not a quantity anyone measured.
 * `cited`: a value quoted from a reference, which sits next to it.
 * `awaiting`: a setting the pipeline does not export yet; the test fails once
 * the id named here exists in numbers.json, so the phrase can become <Num>.
 */
export const NUMBER_WORD_ALLOW: { phrase: string; kind: 'idiom' | 'cited' | 'awaiting'; why: string; id?: string }[] = [
  { phrase: 'hundreds of thousands of timestamps', kind: 'idiom', why: 'the scale of any benchmark, not a run of ours' },
  { phrase: 'several hundred tokens before it starts', kind: 'idiom', why: 'reasoning models in general' },
  { phrase: 'cost per million tokens', kind: 'idiom', why: 'the pricing unit' },
  { phrase: 'tokens per thousand characters', kind: 'idiom', why: 'the unit of tokens.per_kchar' },
  { phrase: 'up to fifteen percent fewer tokens', kind: 'cited', why: 'Meta’s announcement [24]' },
  { phrase: 'on the order of a hundred input tokens', kind: 'cited', why: 'Manus [23]' },
  { phrase: 'at about a tenth of fresh input', kind: 'cited', why: 'Manus [23]' },
];

/** An allowed phrase as a regex: whitespace (line breaks included) matches any whitespace. */
function phraseRe(phrase: string): RegExp {
  const esc = phrase.trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  return new RegExp(esc, 'g');
}

export interface NumberWordHit {
  line: number;
  /** The phrase that reads as a number. */
  phrase: string;
  rule: string;
  /** The whole prose line, trimmed. */
  text: string;
}

/** Allowed phrases found in a source's prose (for the stale-entry check). */
export function allowedPhrasesIn(src: string, file = ''): string[] {
  const prose = proseOf(src, file);
  return NUMBER_WORD_ALLOW.filter((a) => phraseRe(a.phrase).test(prose)).map((a) => a.phrase);
}

/** Numbers written in words in a source's prose, outside the allow-list. Phrases may span lines. */
export function numberWords(src: string, file = ''): NumberWordHit[] {
  let prose = proseOf(src, file);
  const lines = prose.split('\n');
  for (const a of NUMBER_WORD_ALLOW) prose = prose.replace(phraseRe(a.phrase), (m) => m.replace(/[^\n]/g, ' '));
  const hits: NumberWordHit[] = [];
  for (const m of prose.matchAll(NUMBER_RUN)) {
    const run = m[0].replace(/\s+/g, ' ');
    const broken = NUMBER_WORD_RULES.filter((r) => r.test(run)).map((r) => r.name);
    if (!broken.length) continue;
    const line = prose.slice(0, m.index).split('\n').length;
    hits.push({ line, phrase: run, rule: broken.join('; '), text: lines[line - 1].trim().replace(/\s+/g, ' ') });
  }
  return hits;
}
