/**
 * Sources cited on the site. `n` is the citation number used in prose ([n])
 * and in claims' `refs`. Commits are the ones the original article cites; the
 * versions this project read are in the dossier's sources.
 */
export interface Reference {
  n: number;
  authors: string;
  title: string;
  where: string;
  year: string;
  url?: string;
}

export const REFERENCES: Reference[] = [
  { n: 1, authors: 'vLLM project', title: 'vllm bench serve (vllm/benchmarks/serve.py, lib/endpoint_request_func.py, datasets/)', where: 'commit 3fe917a', year: '2026', url: 'https://github.com/vllm-project/vllm' },
  { n: 2, authors: 'vLLM project', title: 'Engine arguments, V1 scheduler, OpenAI chat serving, speculative config', where: 'commit 3fe917a', year: '2026', url: 'https://github.com/vllm-project/vllm' },
  { n: 3, authors: 'R. Bryant', title: 'benchmark: add option to set max concurrency', where: 'vLLM pull request 9390', year: '2024', url: 'https://github.com/vllm-project/vllm/pull/9390' },
  { n: 4, authors: 'SGLang project', title: 'Serving benchmark (python/sglang/benchmark/serving.py, steady_state_serving.py)', where: 'commit e607293', year: '2026', url: 'https://github.com/sgl-project/sglang' },
  { n: 5, authors: 'SemiAnalysis', title: 'InferenceX end-to-end benchmark (fixed_seq.py, bench_serving/, results/)', where: 'commit c801c9f', year: '2026', url: 'https://github.com/SemiAnalysisAI/InferenceX' },
  { n: 6, authors: 'SemiAnalysis', title: 'InferenceX (formerly InferenceMAX): about', where: 'website', year: '2026', url: 'https://inferencex.semianalysis.com/about' },
  { n: 7, authors: 'NVIDIA', title: 'AIPerf (metrics types, CLI flags, effective vs active metrics)', where: 'commit bfa5ab1', year: '2026', url: 'https://github.com/ai-dynamo/aiperf' },
  { n: 8, authors: 'NVIDIA', title: 'NIM LLM benchmarking guide: AIPerf quickstart', where: 'documentation', year: '2026', url: 'https://docs.nvidia.com/nim/benchmarking/llm/2.0.0/quickstart.html' },
  { n: 9, authors: 'vLLM project', title: 'GuideLLM (request stats, statistics, benchmark metrics, profiles)', where: 'commit 87a66f0', year: '2026', url: 'https://github.com/vllm-project/guidellm' },
  { n: 10, authors: 'Ray project', title: 'LLMPerf (token_benchmark_ray.py, OpenAI chat client)', where: 'commit f1d6bed', year: '2024', url: 'https://github.com/ray-project/llmperf' },
  { n: 11, authors: 'MLCommons', title: 'MLPerf Inference LoadGen v6.0.17 (loadgen.cc, logging.cc, early_stopping.cc, mlperf.conf)', where: 'commit 3fbc329', year: '2026', url: 'https://github.com/mlcommons/inference' },
  { n: 12, authors: 'MLCommons', title: 'MLPerf Inference rules, early stopping criterion', where: 'inference_policies', year: '2026', url: 'https://github.com/mlcommons/inference_policies' },
  { n: 13, authors: 'V. J. Reddi et al.', title: 'MLPerf Inference Benchmark', where: 'ISCA; arXiv:1911.02549', year: '2020', url: 'https://arxiv.org/abs/1911.02549' },
  { n: 14, authors: 'B. Schroeder, A. Wierman, M. Harchol-Balter', title: 'Open Versus Closed: A Cautionary Tale', where: 'NSDI', year: '2006' },
  { n: 15, authors: 'G. Tene', title: 'How NOT to Measure Latency', where: 'QCon San Francisco (talk)', year: '2012' },
  { n: 16, authors: 'A. Agrawal et al.', title: 'Etalon: Holistic Performance Evaluation Framework for LLM Inference Systems', where: 'arXiv:2407.07000', year: '2024', url: 'https://arxiv.org/abs/2407.07000' },
  { n: 17, authors: 'A. Agrawal et al.', title: 'Vidur: A Large-Scale Simulation Framework for LLM Inference', where: 'MLSys; arXiv:2405.05465', year: '2024', url: 'https://arxiv.org/abs/2405.05465' },
  { n: 18, authors: 'A. Agrawal et al.', title: 'Taming Throughput-Latency Tradeoff in LLM Inference with Sarathi-Serve', where: 'OSDI; arXiv:2403.02310', year: '2024', url: 'https://arxiv.org/abs/2403.02310' },
  { n: 19, authors: 'Y. Zhong et al.', title: 'DistServe: Disaggregating Prefill and Decoding for Goodput-optimized Large Language Model Serving', where: 'OSDI; arXiv:2401.09670', year: '2024', url: 'https://arxiv.org/abs/2401.09670' },
  { n: 20, authors: 'N. Bronson, A. Aghayev, A. Charapko, T. Zhu', title: 'Metastable Failures in Distributed Systems', where: 'HotOS', year: '2021' },
  { n: 21, authors: 'T. Abramovich et al.', title: 'SPEED-Bench: A Unified and Diverse Benchmark for Speculative Decoding', where: 'arXiv:2604.09557', year: '2026', url: 'https://arxiv.org/abs/2604.09557' },
  { n: 22, authors: 'H. He', title: 'Defeating Nondeterminism in LLM Inference', where: 'Thinking Machines Lab blog', year: '2025', url: 'https://thinkingmachines.ai' },
  // The post's title without its subtitle ("Lessons from Building Manus"), as a short citation.
  { n: 23, authors: 'Y. Ji (Manus)', title: 'Context Engineering for AI Agents', where: 'blog', year: '2025', url: 'https://manus.im' },
  { n: 24, authors: 'Meta', title: 'Introducing Meta Llama 3', where: 'blog', year: '2024', url: 'https://ai.meta.com' },
  { n: 25, authors: 'llama.cpp', title: 'tools/tokenize and vocabulary test files', where: 'commit f2cc728', year: '2026', url: 'https://github.com/ggml-org/llama.cpp' },
  { n: 26, authors: 'DeepSeek-AI', title: 'DeepSeek-V3 Technical Report', where: 'arXiv:2412.19437', year: '2024', url: 'https://arxiv.org/abs/2412.19437' },
  { n: 27, authors: 'J. D. C. Little', title: 'A Proof for the Queuing Formula: L = λW', where: 'Operations Research 9(3)', year: '1961' },
  { n: 28, authors: 'NVIDIA', title: 'H100 Tensor Core GPU datasheet', where: 'datasheet', year: '2023' },
];
