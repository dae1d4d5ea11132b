/**
 * Every sentence of the article that compares numbers carries a check: this
 * test finds sentences that hold a <Num> and a comparative or superlative word
 * outside any <Claim>, and fails on each one not listed below with its reason.
 * A sentence is found by its words, so a new comparison written without a
 * check fails here; a listed exemption whose sentence no longer exists fails too,
 * so the list cannot go stale.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTICLE_CHECKS } from '../src/article/checks.ts';
import { evaluateAll } from '../src/claims/evaluate.ts';
import { sectionClaims } from '../src/claims/registry.ts';
import { claimLine as markdownClaimLine } from '../src/pipeline/diff/markdown.ts';

const NUMBERS = JSON.parse(readFileSync(join(import.meta.dirname, 'snapshots', 'numbers.json'), 'utf8'));

const ARTICLE = join(import.meta.dirname, '..', 'src', 'article');

/** Comparatives, superlatives and the multiplicative words that make a sentence compare two quantities. */
export const COMPARATIVE =
  /(?:\b(?:more|less|fewer|higher|lower|faster|slower|wider|narrower|above|below|exceeds?|exceeding|twice|larger|smaller|greater|bigger|better|worse|dearer|cheaper|most|least|widest|narrowest|highest|lowest|largest|smallest|longest|shortest|fastest|slowest|agree|agrees|than|while|against|barely|hardly|rises|falls|climbs|grows|doubles)\b|×)/i;

/**
 * Sentences that hold a comparative word and a <Num> but compare no two
 * results: the key is a fragment of the sentence's text (tags removed), the
 * value why it needs no check.
 */
const EXEMPT: Record<string, string> = {
  'does not show that collapse is impossible there; it says that the chance of it in a run of this length is probably no higher than':
    'says what an interval means, not that one result is above another',
  'It sits above the true p99 unless every single sample fell below':
    'the definition of a bound; the numbers are the confidence setting and a computed sample size',
  'went above': 'defines what the figure counts (the collapse threshold is a setting)',
  'never again drops below': 'the definition of collapse; the threshold is a setting',
  'one lower and one higher value, with everything else left alone': 'describes the design of the sensitivity runs',
  'sits the larger of two times': 'describes the simulator’s step-time formula; the numbers are its constants',
  'of all gaps exceed': 'states one measured share against a setting, the stall threshold; nothing is compared',
  'Figure 4a also shows something less obvious': '“less” is about how visible the dip is, not about a number',
  'gives the highest point of this sweep that still qualifies': 'defines DistServe’s goodput reading; the numbers are its range over seeds',
  'The fastest and slowest of the tools’ per-user speeds': 'states the range of a spread (min and max are the values printed); nothing is compared',
  'The peak rate was measured twice': '“twice” counts the two experiments; the comparison of their shares is the checked claim that follows',
  'just below the peak and at the very edge of it': 'names the loads run (settings), not a result',
  'would most likely have put down to noise': 'a judgement about a reader, after the checked claims of the sentence',
};

interface Found {
  file: string;
  text: string;
}

/** Sentences with a <Num> and a comparative word, outside every <Claim>. */
export function uncheckedComparisons(dir = ARTICLE): Found[] {
  const out: Found[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.astro')).sort()) {
    const body = readFileSync(join(dir, file), 'utf8')
      .replace(/^---[\s\S]*?---/, '')
      .replace(/<Claim\b[^>]*>[\s\S]*?<\/Claim>/g, ' ⟦checked⟧ ')
      .replace(/<(Figure|Fn)\b[\s\S]*?(\/>|<\/\1>)/g, ' ')
      .replace(/\s+/g, ' ');
    for (const sentence of body.split(/(?<=[.!?:;])\s+(?=[A-Z<(“])|<\/?(?:p|li|ul|ol)>/)) {
      if (!/<Num\b/.test(sentence)) continue;
      const text = sentence.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
      if (COMPARATIVE.test(text)) out.push({ file, text });
    }
  }
  return out;
}

describe('claims that cannot fail on a change of the simulator', () => {
  const evaluation = evaluateAll(sectionClaims(ARTICLE_CHECKS), NUMBERS);
  it('carry their basis into claims.json and are not counted as evidence', () => {
    const other = evaluation.claims.filter((c) => c.basis !== 'evidence');
    expect(other.length).toBeGreaterThanOrEqual(10);
    const evidence = evaluation.claims.filter((c) => c.basis === 'evidence' && c.status === 'holds').length;
    expect(evaluation.summary.evidence).toBe(evidence);
    expect(evaluation.summary.evidence).toBe(evaluation.summary.hold - other.filter((c) => c.status === 'holds').length);
  });
  it('show the basis in the diff report', () => {
    const line = markdownClaimLine({ id: 'x', claim: 'y', basis: 'mathematics', change: 'status', old: { status: 'holds', margin: '' }, new: { status: 'fails', margin: '' } });
    expect(line).toContain('[mathematics: not evidence]');
  });
});

describe('every comparison in the article is checked', () => {
  const found = uncheckedComparisons();

  it('finds no comparative sentence without a <Claim>, except those listed with a reason', () => {
    const unchecked = found.filter((f) => !Object.keys(EXEMPT).some((k) => f.text.includes(k)));
    expect(unchecked.map((f) => `${f.file}: ${f.text}`)).toEqual([]);
  });

  it('every exemption still names a sentence the test finds', () => {
    const unused = Object.keys(EXEMPT).filter((k) => !found.some((f) => f.text.includes(k)));
    expect(unused).toEqual([]);
  });

  it('would catch a new unchecked comparison, and not one inside a <Claim>', () => {
    const probe = (s: string) => COMPARATIVE.test(s);
    expect(probe('the open loop is 2.1× worse')).toBe(true);
    expect(probe('lag-1 is higher than lag-2')).toBe(true);
    expect(probe('the run lasted one hour')).toBe(false);
  });
});
