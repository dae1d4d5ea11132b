/**
 * The project's own simulator as a source of runs: its result format
 * (`stopwatches simulate CASE.json --tokens` output) is read like any tool's
 * file, and every tool's definitions are applied to it.
 */
import { defineTool } from '../base/descriptor.ts';
import { looksLikeSimulatorResult, readSimResult, SIMULATOR_FORMAT } from './reader.ts';

export const sim = defineTool({
  id: 'sim',
  name: 'stopwatches simulator',
  source: null,
  table1: null,
  table2: null,
  report: null,
  speeds: null,
  formats: [
    {
      id: SIMULATOR_FORMAT,
      description: 'stopwatches simulate CASE.json --tokens output: due, send, first-token, finish and every token time per request on one clock',
      nameInSentence: 'a simulator result',
      // checked before every other format: a simulator result is recognised on its text alone
      sniff: { text: (text) => (looksLikeSimulatorResult(text) ? -1 : null) },
      read: readSimResult,
      aggregates: false,
      agreement: null,
    },
  ],
  versions: ['the simulator of this repository (src/sim), which writes one format'],
});
