/**
 * A set of checked claims by section, put in the outline's order and checked
 * for malformed or duplicate ids. The claims themselves are handed in by the
 * caller (the article's list is src/article/checks.ts, handed in by the
 * command layer), so this folder never imports the prose above it.
 */
import { PROSE_SECTIONS } from '../outline.ts';
import type { CheckedClaim } from './types.ts';

/** Section id → its claims, in page order. */
export type ClaimsBySection = Readonly<Record<string, readonly CheckedClaim[]>>;

/** Sections with their claims, in outline order: what evaluation walks. */
export type SectionClaims = readonly { section: string; claims: readonly CheckedClaim[] }[];

/** Sections with claims, in outline order. */
export function sectionClaims(bySection: ClaimsBySection): SectionClaims {
  return PROSE_SECTIONS.filter((s) => bySection[s.id]).map((s) => ({ section: s.id, claims: bySection[s.id] }));
}

/** Sections named in `bySection` that are not prose sections of the outline (a typo or a removed section). */
export function unknownSections(bySection: ClaimsBySection): string[] {
  return Object.keys(bySection).filter((id) => !PROSE_SECTIONS.some((s) => s.id === id));
}

/** Duplicate or malformed ids, and unknown sections: each a line. */
export function registryProblems(bySection: ClaimsBySection): string[] {
  const out = unknownSections(bySection).map((s) => `src/article/${s}.checks.ts: no prose section "${s}" in src/outline.ts`);
  const seen = new Map<string, string>();
  for (const s of sectionClaims(bySection)) {
    for (const c of s.claims) {
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(c.id)) out.push(`${s.section}: claim id "${c.id}" is not lower-case letters, digits and hyphens`);
      const prev = seen.get(c.id);
      if (prev) out.push(`claim id "${c.id}" is declared in both ${prev} and ${s.section}`);
      seen.set(c.id, s.section);
    }
  }
  return out;
}
