/**
 * The article's checked claims, by section: each section declares its claims
 * in src/article/<section>.checks.ts, beside its prose, and is listed here.
 * The command layer hands this list to src/claims/ (which sits below the
 * article and never imports it); a test holds it to the files here and to the
 * <Claim id> tags in the prose.
 */
import type { ClaimsBySection } from '../claims/registry.ts';
import { CHECKS as intro } from './intro.checks.ts';
import { CHECKS as theInstrument } from './the-instrument.checks.ts';
import { CHECKS as whereTheClockStarts } from './where-the-clock-starts.checks.ts';
import { CHECKS as theFirstWave } from './the-first-wave.checks.ts';
import { CHECKS as openAndClosed } from './open-and-closed.checks.ts';
import { CHECKS as theQueueNobodyTimes } from './the-queue-nobody-times.checks.ts';
import { CHECKS as percentiles } from './percentiles.checks.ts';
import { CHECKS as twoChecks } from './two-checks.checks.ts';
import { CHECKS as whatATokenIs } from './what-a-token-is.checks.ts';
import { CHECKS as whatThePromptIs } from './what-the-prompt-is.checks.ts';

export const ARTICLE_CHECKS: ClaimsBySection = {
  intro,
  'the-instrument': theInstrument,
  'where-the-clock-starts': whereTheClockStarts,
  'the-first-wave': theFirstWave,
  'open-and-closed': openAndClosed,
  'the-queue-nobody-times': theQueueNobodyTimes,
  percentiles,
  'two-checks': twoChecks,
  'what-a-token-is': whatATokenIs,
  'what-the-prompt-is': whatThePromptIs,
};
