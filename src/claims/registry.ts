/**
 * Every section's checked claims, in the outline's order. A section declares
 * its claims in src/article/<section>.checks.ts, beside its prose; a test holds
 * this list to the files there and to the <Claim id> tags in the prose.
 */
import { PROSE_SECTIONS } from '../outline.ts';
import type { CheckedClaim } from './types.ts';
import { CHECKS as intro } from '../article/intro.checks.ts';
import { CHECKS as whereTheClockStarts } from '../article/where-the-clock-starts.checks.ts';
import { CHECKS as theFirstWave } from '../article/the-first-wave.checks.ts';
import { CHECKS as openAndClosed } from '../article/open-and-closed.checks.ts';
import { CHECKS as theQueueNobodyTimes } from '../article/the-queue-nobody-times.checks.ts';
import { CHECKS as percentiles } from '../article/percentiles.checks.ts';
import { CHECKS as twoChecks } from '../article/two-checks.checks.ts';
import { CHECKS as whatATokenIs } from '../article/what-a-token-is.checks.ts';
import { CHECKS as whatThePromptIs } from '../article/what-the-prompt-is.checks.ts';

const BY_SECTION: Record<string, readonly CheckedClaim[]> = {
  intro,
  'where-the-clock-starts': whereTheClockStarts,
  'the-first-wave': theFirstWave,
  'open-and-closed': openAndClosed,
  'the-queue-nobody-times': theQueueNobodyTimes,
  percentiles,
  'two-checks': twoChecks,
  'what-a-token-is': whatATokenIs,
  'what-the-prompt-is': whatThePromptIs,
};

/** Sections with claims, in outline order. */
export const SECTION_CHECKS: { section: string; claims: readonly CheckedClaim[] }[] = PROSE_SECTIONS.filter((s) => BY_SECTION[s.id]).map((s) => ({
  section: s.id,
  claims: BY_SECTION[s.id],
}));

/** Sections named here that are not prose sections of the outline (a typo or a removed section). */
export const UNKNOWN_SECTIONS = Object.keys(BY_SECTION).filter((id) => !PROSE_SECTIONS.some((s) => s.id === id));

/** A claim by id, with its section; undefined when no section declares it. */
export function findClaim(id: string): { section: string; claim: CheckedClaim } | undefined {
  for (const s of SECTION_CHECKS) {
    const claim = s.claims.find((c) => c.id === id);
    if (claim) return { section: s.section, claim };
  }
  return undefined;
}

/** Duplicate or malformed ids, and unknown sections: each a line. */
export function registryProblems(): string[] {
  const out = UNKNOWN_SECTIONS.map((s) => `src/article/${s}.checks.ts: no prose section "${s}" in src/outline.ts`);
  const seen = new Map<string, string>();
  for (const s of SECTION_CHECKS) {
    for (const c of s.claims) {
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(c.id)) out.push(`${s.section}: claim id "${c.id}" is not lower-case letters, digits and hyphens`);
      const prev = seen.get(c.id);
      if (prev) out.push(`claim id "${c.id}" is declared in both ${prev} and ${s.section}`);
      seen.set(c.id, s.section);
    }
  }
  return out;
}
