export * from './percentile.ts';
export * from './binomial.ts';
export * from './orderstats.ts';
export * from './early-stopping.ts';
export * from './proportion.ts';
export * from './autocorrelation.ts';
export * from './interval.ts';
export * from './windows.ts';
