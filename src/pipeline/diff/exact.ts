/**
 * Numbers that are exact by construction: the experiment's settings echoed as
 * numbers, and values computed in closed form from the model's constants
 * (no simulation, no random draws). Seeds and machines cannot move them, so a
 * change means a setting, a constant or a formula changed: the diff flags it.
 *
 * The rule is by id, because an id's place says what it is: `<exp>.config.*`
 * echoes a setting; the experiments and groups below compute in closed form.
 */
export type Exactness = 'setting' | 'analytic';

/** Id prefixes of closed-form values, and why each is one. */
export const ANALYTIC_PREFIXES: Record<string, string> = {
  'constants.': 'the model and server constants and what follows from them by arithmetic',
  'order-statistics.': 'binomial order-statistic bounds, computed exactly',
  'derivations.roofline.': 'the roofline envelope, a formula of the constants',
  'derivations.moe.': 'expert coverage, a formula of the batch size',
};

const PREFIXES = Object.keys(ANALYTIC_PREFIXES);

export function exactness(id: string): Exactness | null {
  // The second part of the id is `config` (`exp.config` or `exp.config.x`): looked up in place, as
  // this runs for every number of a diff.
  const dot = id.indexOf('.');
  if (dot >= 0 && id.startsWith('config', dot + 1) && (id.length === dot + 7 || id[dot + 7] === '.')) return 'setting';
  for (const prefix of PREFIXES) if (id.startsWith(prefix)) return 'analytic';
  return null;
}
