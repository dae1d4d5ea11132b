// A pool worker: runs one job (one `runJob` call) from an experiment bundle.
// Plain JavaScript on purpose: the bundle is already JS, so no TypeScript
// loader runs in workers, and the code that runs is exactly the code hashed.
// CommonJS on purpose: piscina loads a worker file with require(), and Node 20's
// require() of an ES module can abort the whole process ("FATAL ERROR:
// v8::Module::IsGraphAsync must be used on an instantiated module", from
// piscina/dist/worker.js's require), which a test run hit about once in fifteen.
// The bundle itself is an ES module, loaded with import().
'use strict';
const { pathToFileURL } = require('node:url');
const { performance } = require('node:perf_hooks');

process.setSourceMapsEnabled?.(true);

/** Progress messages per job are sent at most this often (ms); the last one always. */
const PROGRESS_INTERVAL_MS = 200;

function deepFreeze(value) {
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** @param {{bundle: string, experiment: string, job: string, params: unknown, seed: number, root: string, port: import('node:worker_threads').MessagePort}} task */
module.exports = async function runTask(task) {
  const { bundle, experiment, job, params, seed, root, port } = task;
  port.postMessage({ start: true });
  try {
    const mod = await import(pathToFileURL(bundle).href);
    const def = mod.experiment;
    // One module instance serves every job this worker runs: a job that mutated
    // the config would change its neighbours' results. Freezing makes that an error.
    deepFreeze(def.config);
    let last = -Infinity;
    const ctx = {
      rng: mod.createRng(seed),
      root,
      progress(done, total, requests) {
        const now = performance.now();
        if (now - last >= PROGRESS_INTERVAL_MS || done >= total) {
          last = now;
          port.postMessage({ done, total, requests: requests ?? 0 });
        }
      },
    };
    const result = await def.runJob(def.config, deepFreeze(params), ctx);
    return mod.encodeResult(result, `${experiment}/${job}: runJob's result`);
  } finally {
    port.close();
  }
};
