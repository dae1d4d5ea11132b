// Preloaded into a bench child (`node --import`): at exit, write the process's
// peak resident set (KiB, from getrusage) to the file the bench names.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RUSAGE_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
