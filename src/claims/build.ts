/**
 * The build step that checks the prose: evaluates every checked claim on the
 * build's numbers.json and writes claims.json beside it, with the sha256 of
 * the numbers.json it read (so the site can refuse a stale one), atomically so
 * a failed or interrupted build never leaves half a file. Runs after the
 * experiments and before the site is built; a claim that fails stops the build.
 */
import { writeFileAtomic } from '../fs/atomic.ts';
import { sha256File } from '../fs/hash.ts';
import { outputPaths, readJson, SCHEMAS } from '../pipeline/outputs.ts';
import { UserError } from '../errors.ts';
import { evaluateAll, failureLine, serializeClaims, type ClaimsFile, type NumberEntry } from './evaluate.ts';
import { registryProblems, sectionClaims, type ClaimsBySection } from './registry.ts';

export interface ClaimsBuild {
  file: ClaimsFile;
  /** One line per claim that stops the build (fails, or marked contradicted but holds). */
  failures: string[];
  written: string;
}

export function readNumbers(path: string): Record<string, NumberEntry> {
  return readJson(path, SCHEMAS.numbers, 'run `npx stopwatches run` first, then check the claims') as Record<string, NumberEntry>;
}

/** Evaluates `claims` on `<dir>/numbers.json` and writes `<dir>/claims.json`: the one evaluation the site then reads. */
export async function checkClaims(dir: string, claims: ClaimsBySection): Promise<ClaimsBuild> {
  const problems = registryProblems(claims);
  if (problems.length) throw new UserError(`checked claims are malformed: ${problems.join('; ')}`);
  const paths = outputPaths(dir);
  const numbers = readNumbers(paths.numbers);
  // Hashed after the strict read, so a missing file is that read's line; the build writes numbers.json before this step, never during it.
  const file: ClaimsFile = { numbersSha256: sha256File(paths.numbers), ...evaluateAll(sectionClaims(claims), numbers) };
  const written = paths.claims;
  await writeFileAtomic(written, serializeClaims(file));
  const failures = file.claims.filter((c) => c.status === 'fails' || c.status === 'stale').map(failureLine);
  return { file, failures, written };
}
