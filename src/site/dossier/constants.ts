/** One dossier entry per simulator constant; its value, grade and source live in src/sim/constants.ts. */
import { CONSTANTS_TABLE, type ConstantName } from '../../sim/constants.ts';
import type { DossierEntry } from './types.ts';

const CONSTANT_LABEL: Record<ConstantName, string> = {
  layers: 'Transformer layers of the modelled model',
  dModel: 'Model width (d_model)',
  nKvHeads: 'Key-value heads (grouped-query attention)',
  headDim: 'Dimension of each attention head',
  totalParams: 'Total parameters of the model',
  vocabSize: 'Vocabulary size',
  bytesPerParam: 'Bytes per weight and per KV element (BF16)',
  embeddingParams: 'Parameters of the input embedding',
  lmHeadParams: 'Parameters of the output projection (lm_head)',
  bodyParams: 'Parameters used per computed token (body)',
  streamedWeightBytes: 'Weight bytes streamed from memory every step',
  kvBytesPerToken: 'KV-cache bytes per token',
  peakFlops: 'Dense BF16 tensor peak of the GPU',
  etaCompute: 'Achieved fraction of the compute peak',
  hbmBw: 'HBM bandwidth of the GPU',
  etaMemory: 'Achieved fraction of the memory bandwidth',
  stepOverheadS: 'Fixed overhead per engine step',
  kvCapacityTokens: 'KV-cache pool size',
  blockSize: 'KV block size',
  tokenBudget: 'Token budget per engine step',
  maxNumSeqs: 'Maximum running sequences',
};

export const CONSTANT_ENTRIES: DossierEntry[] = CONSTANTS_TABLE.map((row) => ({
  id: `const-${row.name}`,
  statement: CONSTANT_LABEL[row.name] ?? row.name,
  grade: row.grade,
  source: row.source,
  topic: 'simulator constants',
  constant: row.name,
}));
