/**
 * Which run a figure draws when it can draw only one: the run whose value of
 * the statistic the figure illustrates is the median of the seeds (the lower
 * of the two middle runs for an even count, ties to the lower seed). A rule in
 * the experiment, so the drawn run is neither the first seed nor a hand-picked
 * one, and it moves with the results when they move.
 */
export function medianRun<R extends { seed: number }>(runs: readonly R[], statistic: (r: R) => number): R {
  if (runs.length === 0) throw new Error('medianRun: no runs');
  const sorted = [...runs].sort((a, b) => statistic(a) - statistic(b) || a.seed - b.seed);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
