export * from './adapters.ts';
export * from './corpora.ts';
export * from './count.ts';
export * from './hash.ts';
export * from './manifest.ts';
