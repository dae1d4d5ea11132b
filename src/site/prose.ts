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

/** The prose of an .astro / .md / .mdx source, blanked elsewhere (same length, same lines). */
export function proseOf(src: string, file = ''): string {
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
  s = s.replace(/<(pre|code)\b[\s\S]*?<\/\1>/gi, blank);
  s = s.replace(/<[^>]*>/g, blank);
  s = s.replace(/&[a-z]+;|&#\d+;|&#x[0-9a-f]+;/gi, blank);
  return s;
}

/**
 * Digits prose may hold without <Num>: an explicit, short list. Anything else
 * with a digit is a number that must come from numbers.json.
 */
export const DIGIT_ALLOW: { name: string; re: RegExp }[] = [
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
