#!/usr/bin/env node
// Entry point of `npx stopwatches`: runs the TypeScript CLI through tsx,
// so the published sources are what runs (no separate compile step).
import { register } from 'tsx/esm/api';

register();
const { main, guardStandardStreams } = await import('../src/cli.ts');
guardStandardStreams();
process.exitCode = await main(process.argv.slice(2));
