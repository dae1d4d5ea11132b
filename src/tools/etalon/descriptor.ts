/**
 * Etalon's fluidity index: a definition from a paper and its code, applied to
 * every run; no benchmark tool in Table 1 reports it and no result file of
 * Etalon's own is read.
 */
import { defineTool } from '../base/descriptor.ts';
import { etalonReport } from './report.ts';

export const etalon = defineTool({
  id: 'etalon',
  name: 'Etalon',
  source: {
    repository: 'project-etalon/etalon',
    files: [
      { path: 'etalon/metrics/metric_utils.py', commit: 'c238821a' },
      { path: 'etalon/metrics/request_metrics.py', commit: '384a9a00' },
    ],
  },
  table1: null,
  table2: null,
  report: etalonReport,
  speeds: null,
  formats: [],
  versions: ['metric_utils.py @c238821a: service-level deadline miss rate with slack'],
});
