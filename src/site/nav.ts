/** The site's pages, in the order of the header navigation. `file` is the built file below the base. */
export interface NavItem {
  file: string;
  label: string;
  /** One line for the page's meta description. */
  description: string;
}

export const NAV: NavItem[] = [
  { file: 'index.html', label: 'Article', description: 'Seven stopwatches, one server: how load generators and metric arithmetic move LLM serving benchmarks.' },
  { file: 'reproduction.html', label: 'Reproduction', description: 'Every value the original article published, beside the value this build computed.' },
  { file: 'dossier.html', label: 'Dossier', description: 'Every claim on the site with its confidence grade and its source.' },
  { file: 'constants.html', label: 'Constants', description: 'The constants of the simulated server, with units, sources and grades.' },
  { file: 'definitions.html', label: 'Definitions', description: 'The seven tools’ metric definitions and the flags that make their numbers comparable.' },
  { file: 'explorer.html', label: 'Explorer', description: 'Run the simulated server in your browser: change the client, the lengths and the server, and watch the stopwatches disagree.' },
  { file: 'audit.html', label: 'Audit a run', description: 'Check your own benchmark result file for the article’s pitfalls, in your browser: nothing is uploaded.' },
  { file: 'references.html', label: 'References', description: 'Sources cited on this site.' },
  { file: 'rebuild.html', label: 'Rebuild', description: 'How to rebuild this site from source and what the tests verify.' },
];
