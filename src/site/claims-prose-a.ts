/**
 * Claims made by the article's prose, one file per writer so prose can grow
 * in parallel (see claims.ts for the grades and the Claim shape).
 */
import type { Claim } from './claims.ts';

export const proseClaims: Claim[] = [];
