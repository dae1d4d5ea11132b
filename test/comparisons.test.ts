/**
 * Every sentence of the article that compares numbers carries a check: this
 * test finds, outside any <Claim>, sentences that hold a <Num> and a
 * comparative or superlative word, and sentences with no <Num> that compare in
 * words alone ("limited by", "faster than", "rises with"), and fails on each one
 * not listed below with its reason. A sentence is found by its words, so a new
 * comparison written without a check fails here; a listed exemption whose
 * sentence no longer exists fails too, so the list cannot go stale.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
 * Words that compare two quantities with no number needed beside them: a
 * comparative with its "than", "limited by", a multiple ("ten times the"), a
 * trend ("rises with"), "at its widest", an intensified comparative ("far
 * faster"). Narrower than COMPARATIVE, which also matches "most", "while" and
 * "below" in plain prose: those count only beside a <Num>.
 */
export const COMPARES_IN_WORDS =
  /\b(?:more|less|fewer|higher|lower|faster|slower|wider|narrower|larger|smaller|greater|bigger|better|worse|dearer|cheaper|longer|shorter|older|newer|cruder|weaker|stronger|easier|harder)\s+(?:\w+\s+){0,4}?than\b|\b(?:limited|bound|dominated) by\b|\b(?:twice|half|\w+ times) (?:as|the)\b|\boutperforms?\b|\bexceed(?:s|ed|ing)?\b|\b(?:rises|falls|grows|shrinks|climbs|drops) (?:with|by)\b|\bat its (?:widest|highest|lowest|largest|smallest|narrowest)\b|\b(?:far|much|clearly) (?:more|less|faster|slower|worse|better|larger|smaller)\b/i;

/**
 * Sentences that hold a comparative word and a <Num>, or compare in words with no <Num>, but compare no two
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
  // Sentences with no <Num> that compare in words.
  'One entry is weaker than the others': 'about how firmly a source was read (from the article, not the code), not a result',
  'gives the table more credit than it has earned': 'a judgement about a reading of a table',
  'never sends more work than the server has just finished': 'describes how a closed loop works (its definition), not a result',
  'Schroeder, Wierman and Harchol-Balter showed': 'reports what a cited paper showed, not a result of this site',
  'At small concurrency the open twin is clearly worse too': 'announces the checked claim that follows it (oc-small-open-worse), which prints and checks the numbers',
  'Give it more slots than the peak and it meets the cliff from the far side': 'announces the checked claim that follows it (oc-320-less); “more slots than the peak” is a setting',
  'asks for ten times the concurrency in prompts': 'a tool’s default settings (its launcher’s multiples of the concurrency), not a result',
  'its default request count is the larger of ten and twice the concurrency': 'a tool’s default setting, not a result',
  'sets the count to three times the concurrency': 'a tool’s recommended setting, not a result',
  'makes their effects easier to see than a faithful replica would': 'a judgement about the design of the simulator',
  'grows by the difference between the offered and the achieved rate': 'queue arithmetic (a line fed faster than it drains), not a result',
  'rate at which they arrive times the average time each one stays': 'states Little’s law, an identity',
  'the token rate cannot exceed bandwidth over bytes per sweep': 'derives the envelope’s bound from its definition; the bound is checked against the runs in the claims that follow',
  'cost less memory traffic than the envelope charges': 'says what a point beyond the envelope would imply, not a result',
  'draws some effects with harder edges than real hardware would': 'a judgement about the limits of a simulation',
  'On large multi-GPU systems prefill is far faster': 'about hardware outside the model; nothing on this site measures it',
  'a long request contributes many more samples than a short one': 'describes how pooling gaps over a run weights requests (a definition), not a result',
  'is older than this report': 'about the dates of the cited work',
};

interface Found {
  file: string;
  text: string;
}

/** Sentences with a <Num> and a comparative word, or with no <Num> and a comparison in words, outside every <Claim>. */
export function uncheckedComparisons(dir = ARTICLE): Found[] {
  const out: Found[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.astro')).sort()) {
    const body = readFileSync(join(dir, file), 'utf8')
      .replace(/^---[\s\S]*?---/, '')
      .replace(/<Claim\b[^>]*>[\s\S]*?<\/Claim>/g, ' ⟦checked⟧ ')
      .replace(/<Figure\b[\s\S]*?(\/>|<\/Figure>)/g, ' ')
      // A footnote is read too, as sentences of its own.
      .replace(/<\/?Fn\b[^>]*>/g, '</p>')
      .replace(/\s+/g, ' ');
    for (const sentence of body.split(/(?<=[.!?:;])\s+(?=[A-Z<(“])|<\/?(?:p|li|ul|ol)>/)) {
      const text = sentence.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
      if ((/<Num\b/.test(sentence) ? COMPARATIVE : COMPARES_IN_WORDS).test(text)) out.push({ file, text });
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
    // With no number: the words alone compare.
    const words = (s: string) => COMPARES_IN_WORDS.test(s);
    expect(words('Small decode batches are limited by memory traffic, prefill chunks by arithmetic.')).toBe(true);
    expect(words('The open loop is far worse at the top.')).toBe(true);
    expect(words('Its p99 is higher than the closed loop’s.')).toBe(true);
    expect(words('The mean rises with concurrency.')).toBe(true);
    expect(words('Most tools already have the option.')).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'comparisons-'));
    writeFileSync(
      join(dir, 'x.astro'),
      '<p>\n  Decode is limited by memory traffic. <Claim id="x">Prefill is limited by arithmetic.</Claim> The run lasted.<Fn>Its tail is far worse.</Fn>\n</p>\n',
    );
    const found = uncheckedComparisons(dir).map((f) => f.text);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^Decode is limited by memory traffic\./);
    expect(found[1]).toBe('Its tail is far worse.');
    rmSync(dir, { recursive: true });
  });
});
