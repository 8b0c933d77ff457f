// Types of the pipesim JavaScript API (pipesim.js). Field names and meanings follow the JSON
// schema in docs/schema.md; times and costs are in arbitrary units where one forward = 1.

/** Stable error ids; the same strings as pipesim::ErrorCode in core. */
export type ErrorCode =
  | 'invalid_config'
  | 'unknown_schedule'
  | 'invalid_schedule'
  | 'too_large'
  | 'deadlock'
  | 'parse_error'
  | 'internal';

/** A value an error message quotes: numbers stay numbers (see Catalogue.rules). */
export type ErrorParams = Record<string, string | number>;

/** The error another wraps (csv.schedule wraps a schedule check's): said from its own rule. */
export interface ErrorCause {
  rule: string;
  params: ErrorParams;
  /** Its JSON pointer in the wrapped input (e.g. `/rankOps/1/1`), or `""`. */
  path: string;
}

/** An error as core and the worker send it. */
export interface ErrorData {
  code: ErrorCode | string;
  message: string;
  path: string;
  /** The rule broken, one of `catalogue().rules[].id`, e.g. `ranks.even`. */
  rule: string;
  /** The values `message` quotes, by the rule's placeholder names. */
  params: ErrorParams;
  /** The wrapped error, for a rule whose message quotes another's (csv.schedule's `detail`). */
  cause?: ErrorCause;
}

/**
 * Thrown by every API function for bad input (and, as `internal`, for a bug in pipesim).
 * `message` is one English sentence naming the field, the rule and the value, e.g.
 * `ranks must be an even integer >= 2 for dualpipe (got 3)`: the template of `rule` filled in
 * with `params`, so another language can say the same from its own template.
 */
export class SimError extends Error implements ErrorData {
  constructor(code: ErrorCode | string, message: string, path?: string, rule?: string, params?: ErrorParams, cause?: ErrorCause);
  static from(error: { code: string; message: string; path?: string; rule?: string; params?: ErrorParams; cause?: ErrorCause }): SimError;
  readonly name: 'SimError';
  /** Stable snake_case id, e.g. `invalid_config`. */
  code: ErrorCode | string;
  /** JSON pointer to the offending input, e.g. `/costs/backward`, or `""`. */
  path: string;
  rule: string;
  params: ErrorParams;
  /** Set only for a rule that wraps another error (Error's own `cause`, holding {rule, params, path}). */
  cause?: ErrorCause;
}

/** How one API method is called (see METHODS). */
export interface MethodInfo {
  /** How its argument is named in messages (`config`, `sweep`, ...), or null: it takes none. */
  readonly arg: string | null;
  /** The result is text (JSON text or Markdown), not a parsed value. */
  readonly text?: boolean;
  /** A pure function of its argument: clients may cache results. */
  readonly memo?: boolean;
  /** The result carries typed arrays (`timeline`) that a worker transfers. */
  readonly timeline?: boolean;
}

/** The API's manifest: one entry per method of Pipesim. */
export const METHODS: { readonly [K in keyof Pipesim]: MethodInfo };
/** The method names, in manifest order. */
export const METHOD_NAMES: readonly (keyof Pipesim)[];
/**
 * The module's builds: the name of each one's files beside pipesim.js, its glue `<name>.mjs` and
 * its wasm `<name>.wasm`. `full` exports every method; `figures` only the entry points of
 * wasm/bindings.cpp, those the embeds and the course's figures call: the rest throw a SimError
 * (rule `internal`) naming the full build.
 */
export const MODULE_BUILDS: { readonly full: 'pipesim'; readonly figures: 'pipesim-figures' };
/** A build of the module (MODULE_BUILDS). */
export type ModuleBuild = keyof typeof MODULE_BUILDS;
/** The timeline's column names, from the catalogue. */
export function timelineFields(catalogue: Pick<Catalogue, 'timeline'>): string[];
/** The buffers a worker transfers with the result of `method`. */
export function transferables(method: string, value: unknown): ArrayBuffer[];

/**
 * `text` as core's messages quote a value the user gave: one line (control characters and lone
 * surrogates escaped), at most `maxBytes` UTF-8 bytes, a longer text cut to its start and
 * "... (N bytes)". Use `catalogue().limits.summaryBytes` to quote as core does.
 */
export function summary(text: string, maxBytes: number): string;

/** Cost model. Every field is optional in input and defaults to DeepSeek's figure (1, 2, 1, 3, 0). */
export interface Costs {
  /** F: forward of one micro-batch through one stage; > 0. */
  forward?: number;
  /** B: full backward (input + weight gradient); > 0. */
  backward?: number;
  /** W: the weight-gradient part of B; 0 <= W <= B. */
  weight?: number;
  /** F&B: one forward and one backward run as an overlapped pair; > 0. */
  overlapped?: number;
  /** Added to every dependency that crosses ranks; >= 0. */
  p2pLatency?: number;
  /** Optional compute-communication model (see CommCosts); absent means no communication. */
  comm?: CommCosts;
}

/**
 * One pipeline stage's costs (docs/schema.md "Per-stage costs"). In a request any field may be
 * left out and takes `costs`' value; results list all four.
 */
export interface StageCost {
  forward: number;
  backward: number;
  /** 0 <= weight <= backward. */
  weight: number;
  /** A forward and a backward of this stage overlapped; a pair of two stages a, b lasts F_a + B_b - min(S_a, S_b), S = F + B - F&B. */
  overlapped: number;
}

/** One simulation request. Unknown fields are errors; integers may not have a fraction. */
export interface SimConfig {
  /** One of `schedules().map(s => s.name)`, e.g. `dualpipe`. */
  schedule: string;
  /** Pipeline devices, integer in [1, 1024]; even for dualpipe. */
  ranks: number;
  /** Micro-batches per step over both directions, integer in [1, 2^20]. */
  microbatches: number;
  costs?: Costs;
  /**
   * Per-stage costs, one per pipeline stage along direction 0 (DualPipeV and ZB-V: 2 x ranks,
   * interleaved 1F1B: ranks x chunks); they replace costs' F, B, W and F&B stage by stage.
   */
  stageCosts?: Partial<StageCost>[];
  /**
   * When ops start: `dependency` (default) when their inputs are done; `runtime` (dualpipe and
   * dualpipev only) also at the batched sends and receives of DeepSeek's step() (docs/schema.md).
   */
  timing?: 'dependency' | 'runtime';
  /** Model chunks per rank, only for schedules whose catalogue entry has `chunks`; 0 or absent: its default. */
  chunks?: number;
  /**
   * Megatron-Core's combined 1F1B (`--overlap-moe-expert-parallel-comm`), only for schedules whose
   * catalogue entry has `a2aOverlap`: one more warm-up forward, then the steady state as
   * overlapped FB pairs. On more than one rank it needs chunks >= 2 (docs/schema.md).
   */
  a2aOverlap?: boolean;
  /** Megatron-Core's `--delay-wgrad-compute`; needs `a2aOverlap`. */
  delayWgrad?: boolean;
  /**
   * A model whose memory the result counts in bytes (`memory` in the result): a memory request
   * without layout.pp, gpus, schedule, microbatches or chunks, which are this config's.
   */
  memoryModel?: MemoryModelSpec;
}

/**
 * A hand-written schedule: the op list of every rank, as `pipesim simulate --input` reads it.
 * Ops are labels as the CLI prints them (`F0.3@2`, `B0.3@2`, `Bz0.3@2`, `W0.3@2`,
 * `FB(F0.4@1,B1.0@1)`: direction.micro-batch@stage) or op objects as in a JSON timeline.
 */
export interface CustomSchedule {
  schedule: 'custom';
  /** Stages per direction, integer in [1, limits.maxStages]. */
  stages: number;
  /** 1 or 2 (default 1). */
  directions?: number;
  /** Micro-batches over all directions: a positive multiple of directions. */
  microbatches: number;
  /** One list per rank (1 to limits.maxRanks lists). */
  rankOps: (string | Record<string, string | number | boolean>)[][];
  costs?: Costs;
  /** One per stage (`stages` of them), as SimConfig.stageCosts. */
  stageCosts?: Partial<StageCost>[];
}

/**
 * A schedule in torch.distributed.pipelining's compute-only CSV (`_dump_csv`): one row per rank,
 * actions such as `0F1`, `1I0`, `2W3`, `3B0`, `(0F7;7B3)OVERLAP_F_B` (docs/schema.md "PyTorch
 * schedule CSV"). Errors about the text have paths `/csv/<row>/<column>` (0-based) and rules `csv.*`.
 */
export interface CsvSchedule {
  schedule: 'custom';
  /** The CSV text (rows ending in \n or \r\n). */
  csv: string;
  costs?: Costs;
  /** One per stage of the CSV (stages per direction), as SimConfig.stageCosts. */
  stageCosts?: Partial<StageCost>[];
}

/**
 * The timeline as struct-of-arrays: entry i of every array describes op i. Ops are ordered by rank,
 * then by the order the rank executes them. For an FB pair, dir/mb/stage describe its forward part
 * and bdir/bmb/bstage its backward part; bdir/bmb/bstage are -1 for every other op. The columns and
 * their types are core's (`catalogue().timeline`); each is as narrow as core's limits allow. All
 * the arrays view one ArrayBuffer of their own (one copy out of the module per call; a worker
 * transfers it whole), so use `subarray`/`slice` of an array, not its `.buffer`, to keep a column.
 */
export interface Timeline {
  count: number;
  rank: Int16Array;
  /** An index into `catalogue().opKinds`: 0 = F, 1 = B, 2 = W, 3 = FB. */
  op: Uint8Array;
  /** 1 for a zero-bubble B (input gradient only; its W comes later on the same rank), else 0. */
  zb: Uint8Array;
  dir: Uint8Array;
  mb: Int32Array;
  stage: Int16Array;
  bdir: Int8Array;
  bmb: Int32Array;
  bstage: Int16Array;
  start: Float64Array;
  end: Float64Array;
}

export interface RankStats {
  rank: number;
  busy: number;
  idle: number;
  /** Most stage-micro-batches holding activations at once on this rank. */
  peakActivations: number;
  /** The same peak per GPU, in micro-batches through 1/ranks of the model: peakActivations x ranks / stages. */
  peakActivationMemory: number;
}

/** Result of simulate(): every field of the schema's result, with the timeline as typed arrays. */
export interface SimResult {
  schedule: string;
  ranks: number;
  /** Pipeline stages per direction (DualPipeV: 2 x ranks). */
  stages: number;
  microbatches: number;
  costs: Required<Costs>;
  /** Echoed only when the config set them (Megatron-Core's combined 1F1B). */
  a2aOverlap?: true;
  delayWgrad?: true;
  makespan: number;
  perRank: RankStats[];
  /** max: largest per-rank idle; total: summed idle; fraction: total / (ranks x makespan). */
  bubble: { max: number; total: number; fraction: number };
  utilization: number;
  stagesPerRank: number;
  paramCopies: number;
  maxPeakActivations: number;
  /** Max over ranks of peakActivationMemory: what compares across schedules. */
  maxPeakActivationMemory: number;
  /** With config.memoryModel only: the memory model at this run's peak (docs/schema.md "Memory"). */
  memory?: MemoryResult;
  /** Per-stage costs, only when the request gave them. */
  stageCosts?: StageCost[];
  /**
   * The published formula for this schedule, its value and whether this config is in its region;
   * `reason` only when the stages' costs differ (every closed form assumes equal stages; the value
   * is then the formula at their mean).
   */
  reference: { formula: string; bubbleMax: number; applies: boolean; source: string; reason?: string };
  timeline: Timeline;
  /**
   * Per rank, in-flight activations over time in per-GPU units (as peakActivationMemory): from
   * time[i] the level is level[i]; time[0] = 0 at level 0, then a point per F or B end.
   */
  activationSteps: ActivationSteps[];
}

/** One rank's activations as a step function (views over one buffer shared by every rank). */
export interface ActivationSteps {
  time: Float64Array;
  level: Float64Array;
}

/** A micro-batch count: a number, or a multiple of the ranks written like `"4R"`. */
export type MicrobatchSpec = number | string;

export interface SweepRequest {
  schedules: string[];
  ranks: number[];
  microbatches: MicrobatchSpec[];
  costs?: Costs;
  /** Per-stage costs for every cell; a cell with another number of stages is a row with the error. */
  stageCosts?: Partial<StageCost>[];
  /** Chunks for the schedules that take them (see SimConfig.chunks); the others keep their layout. */
  chunks?: number;
}

/** One cell of a sweep; a shape the schedule cannot run is a row with ok: false and its error. */
export type SweepRow =
  | {
      schedule: string; ranks: number; microbatches: number; ok: true;
      stages: number; makespan: number; bubbleMax: number; bubbleFraction: number;
      utilization: number; maxPeakActivations: number; maxPeakActivationMemory: number; paramCopies: number;
    }
  | {
      schedule: string; ranks: number; microbatches: number; ok: false;
      error: ErrorData;
    };

export interface ScheduleInfo {
  /** Id used in configs, e.g. `dualpipe`. */
  name: string;
  /** Display name, e.g. `DualPipe`. */
  title: string;
  /** The shape rules validate() enforces, in words. */
  constraints: string;
  /** Where the schedule's rules come from. */
  source: string;
}

/** A schedule as the catalogue describes it: its shape rules and stage layout as data. */
export interface CatalogueSchedule extends ScheduleInfo {
  shape: {
    minRanks: number;
    evenRanks: boolean;
    evenMicrobatches: boolean;
    /** k in microbatches >= k x ranks; 0 when there is no such rule. */
    minMicrobatchesPerRank: number;
    microbatchesMultipleOfRanks: boolean;
  };
  layout: {
    directions: number;
    stagesPerRank: number;
    paramCopies: number;
    /** Most ops one micro-batch makes on one stage: ops <= microbatches x stages x opsPerChunk. */
    opsPerChunk: number;
  };
  /** The range and default of SimConfig.chunks; null when the layout is fixed. */
  chunks: { min: number; max: number; default: number } | null;
  /** The values of SimConfig.timing this schedule runs under (`runtime` only for DeepSeek's step()). */
  timings: ('dependency' | 'runtime')[];
  /** Whether SimConfig.a2aOverlap (and delayWgrad) applies: Megatron-Core's combined 1F1B. */
  a2aOverlap: boolean;
  /** The simpler schedule the planner's rollback falls back to; null when nothing is simpler. */
  fallback: string | null;
  /**
   * DeepSeek's table formula, the region where it is exact (in English, and as data a client can
   * word itself), and its source ("" when none).
   */
  reference: { formula: string; condition: string; region: RegionOfFormula; source: string };
}

/** One comparison of a formula's region, in the formulas' symbols: `W <= F` is {left: 'W', op: '<=', right: 'F'}. */
export interface RegionClause { left: string; op: '=' | '<=' | '>='; right: string }

/**
 * Where a published formula equals the simulated bubble: every clause of one alternative of `any`
 * (none: always) and every clause of `all`; `note` says what the clauses do not, with a stable id.
 */
export interface RegionOfFormula {
  any: RegionClause[][];
  all: RegionClause[];
  note: { id: string; text: string } | null;
}

/** Everything a client needs to know about the simulator (`pipesim catalogue`). */
export interface Catalogue {
  schedules: CatalogueSchedule[];
  limits: {
    maxRanks: number; maxStages: number; maxMicrobatches: number; maxChunks: number; maxOps: number;
    maxCost: number;
    /** The time resolution: every time is a whole number of ticks. */
    tick: number;
    maxCommLayers: number; maxSweepCells: number; maxSweepOps: number; maxTraceCells: number;
    /** Longest JSON input, in UTF-8 bytes (too_large beyond). */
    maxInputBytes: number;
    /** Longest profiler trace for traceImport, in bytes (too_large beyond). */
    maxTraceBytes: number;
    /** Deepest nesting of arrays and objects in an input (parse_error beyond). */
    maxDepth: number;
    /** Longest error path: a pointer stops at the deepest ancestor that fits. */
    maxPathBytes: number;
    /** Most bytes a message spends quoting one value the user gave. */
    summaryBytes: number;
    /** Most bytes of any string param of an error. */
    maxParamBytes: number;
  };
  /** Cost defaults (DeepSeek's figure). */
  costs: Required<Omit<Costs, 'comm'>>;
  /** The communication model's defaults, ratio form. */
  comm: { ratio: number; attnShare: number; layers: number };
  /** Op kind names, indexed by `Timeline.op`. */
  opKinds: string[];
  timeline: { name: keyof Omit<Timeline, 'count'>; type: 'int8' | 'uint8' | 'int16' | 'int32' | 'float64'; meaning: string }[];
  errorCodes: string[];
  /** Every rule an error can report: its English template and the names of its placeholders. */
  rules: { id: string; code: string; message: string; params: string[] }[];
  /** Every phrase the planner says: its English template ({name} or {name:format}) and placeholder names. */
  planTexts: { id: string; message: string; params: string[] }[];
  /** The trace reader's defaults and bounds (traceImport). */
  trace: { commPattern: string; maxCommPatternBytes: number; maxCommPatternParts: number; maxAnnotationDepth: number };
  /** The layer split's model presets (layerSplit()), module costs in transformer layers. */
  layerSplit: { presets: LayerSplitModel[] };
  /** The memory model's choices: recipes (each with its source), presets, ZeRO stages, defaults, limits. */
  memory: {
    recipes: { id: string; label: string; source: string; reading: string; weightBytes: number; gradientBytes: number;
      masterBytes: number; optimizerBytes: number; weightFormat: string; gradientFormat: string; masterFormat: string;
      optimizerFormat: string;
      /** The label and source as phrases (memory.* rows of planTexts); no labelText for a name. */
      labelText?: Phrase; sourceText?: Phrase }[];
    models: { name: string; label: string; layers: number; hidden: number; heads: number; routedExperts: number }[];
    zeroStages: number[];
    recompute: ('none' | 'selective' | 'full')[];
    defaults: { recipe: string; zero: number; gpuMemoryGb: number; tp: number; pp: number; ep: number; dp: number; seqLength: number; microBatchSize: number; recompute: 'none' | 'selective' | 'full' };
    limits: { maxTensorParallel: number; maxDataParallel: number; maxExpertParallel: number; maxSeqLength: number;
      maxMicroBatchSize: number; maxZeroStage: number; maxSides: number };
  };
}

/** A model as the layer split sees it. */
export interface LayerSplitModel {
  name: string;
  label: string;
  source: string;
  layers: number;
  /** On the first stage, in layers of compute. */
  embedding: number;
  /** The output head, on the last stage. */
  head: number;
  /** The multi-token-prediction module(s), on the last stage. */
  mtp: number;
}

/** layerSplit(): a model's layers on `stages` stages (docs/schema.md "Layer split"). */
export interface LayerSplitRequest {
  model: string;
  /** For model "custom": layers (required) and module costs in layers. */
  custom?: { layers: number; embedding?: number; head?: number; mtp?: number };
  stages: number;
  /** Layers on each stage; absent: the preset's published layout if it has one for `stages`, else balanced. */
  layersPerStage?: number[];
  /** What the stages average (default DeepSeek's figure). */
  costs?: Costs;
}

export interface LayerSplitResult {
  model: LayerSplitModel;
  stages: number;
  rule: 'given' | 'published' | 'balanced';
  /** The rule in words, with its source. */
  ruleText: string;
  costs: Required<Omit<Costs, 'comm'>> & { comm?: CommCosts };
  meanWeight: number;
  maxWeight: number;
  /** maxWeight / meanWeight. */
  imbalance: number;
  split: { stage: number; firstLayer: number; layers: number; embedding: boolean; head: boolean; mtp: boolean; weight: number }[];
  /** Ready for SimConfig.stageCosts. */
  stageCosts: StageCost[];
}

/** The communication model of `Costs.comm` (docs/schema.md "Communication model"). */
export type CommCosts =
  | { ratio: number; attnShare?: number; layers?: number }
  | {
      forward: { attn: number; dispatch: number; mlp: number; combine: number };
      backward: { attn: number; attnWeight: number; mlp: number; mlpWeight: number; dispatch: number; combine: number };
      layers?: number;
    };

/** recover(): GPU-hours recovered by moving from `from` to `to` (docs/schema.md "Exercise calculators"). */
export interface RecoverRequest {
  ranks: number;
  microbatches: number;
  from: string;
  to: string;
  costs?: Costs;
  /** C: cost of the `to` run, GPU-hours per million tokens; default 0.18 (DeepSeek-V3 report §1). */
  gpuHoursPerMillionTokens?: number;
  /** Tokens of a whole training run to extrapolate to (DeepSeek-V3: 14.8e12); null in results when not given. */
  trainingTokens?: number;
}
/** The saving at one micro-batch count (same ranks, schedules, costs and baseline). */
export interface RecoverPoint {
  microbatches: number;
  utilizationFrom: number;
  utilizationTo: number;
  recoveredGpuHoursPerMillionTokens: number;
  /** recoveredGpuHoursPerMillionTokens x trainingTokens / 1e6; null without trainingTokens */
  recoveredGpuHoursForRun: number | null;
}
export interface RecoverResult extends Required<Omit<RecoverRequest, 'trainingTokens'>> {
  trainingTokens: number | null;
  makespanFrom: number;
  makespanTo: number;
  utilizationFrom: number;
  utilizationTo: number;
  /** utilizationTo - utilizationFrom */
  utilizationGain: number;
  /** C x utilizationTo / utilizationFrom */
  gpuHoursPerMillionTokensFrom: number;
  /** C x (utilizationTo / utilizationFrom - 1) */
  recoveredGpuHoursPerMillionTokens: number;
  /** Over trainingTokens, at this request's M and costs; null without trainingTokens */
  recoveredGpuHoursForRun: number | null;
  /** The saving at the smallest M both schedules accept, 1.5, 2, 3, 4, 6 and 8 times it, and this M. */
  byMicrobatches: RecoverPoint[];
  /** The formula in words. */
  definition: string;
}

/** params(): a preset or custom model and the accounting every schedule's row shares. */
export interface ParamsRequest {
  model: 'llama3-70b' | 'deepseek-v3' | 'custom';
  custom?: Record<string, number | boolean>;
  pp: number;
  tp?: number;
  ep?: number;
  dp?: number;
  /** One of catalogue().memory.recipes' ids; default mixed-adam. */
  recipe?: string;
  /** ZeRO stage 0..3; default 0. */
  zero?: number;
  gpuMemoryGb?: number;
}
export interface ScheduleFootprint {
  stages: number;
  stagesPerRank: number;
  paramCopies: number;
  paramsPerGpu: number;
  weightBytesPerGpu: number;
  gradientBytesPerGpu: number;
  masterBytesPerGpu: number;
  optimizerBytesPerGpu: number;
  /** All four kinds of model state. */
  bytesPerGpu: number;
  shareOfGpuMemory: number;
}
export interface ParamsResult {
  model: Record<string, unknown>;
  totalParams: number;
  routedParams: number;
  nonRoutedParams: number;
  breakdown: { part: string; params: number; formula: string }[];
  excluded: { part: string; params: number; formula: string }[];
  pp: number; tp: number; ep: number; dp: number; recipe: string; zero: number; gpuMemoryGb: number;
  /** Every schedule of the catalogue, in its order. */
  schedules: Record<string, ScheduleFootprint>;
  dualpipeOverhead: { paramsPerGpu: number; bytesPerGpu: number; shareOfModel: number; shareOfGpuMemory: number };
  /** What every row assumes (a memory result's assumptions without `copies`). */
  assumptions: Omit<MemoryAssumptions, 'copies'>;
}

/** The model part of a memory request: a preset, a custom model, or a bare parameter count. */
export interface MemoryModelSpec {
  model?: 'llama3-70b' | 'deepseek-v3' | 'custom';
  custom?: Record<string, number | boolean>;
  /** A bare parameter count instead of `model`; with `shape` for activations. */
  params?: number;
  routedParams?: number;
  shape?: { layers: number; hidden: number; heads: number };
  /** One of catalogue().memory.recipes' ids; default mixed-adam. */
  recipe?: string;
  /** ZeRO stage 0..3 over the data-parallel group; default 0. */
  zero?: number;
  layout?: { tp?: number; ep?: number; dp?: number; sequenceParallel?: boolean };
  activations?: { seqLength: number; microBatchSize?: number; recompute?: 'none' | 'selective' | 'full' };
  gpuMemoryGb?: number;
}
/** memory(): what one GPU holds (docs/schema.md "Memory"). */
export interface MemoryRequest extends Omit<MemoryModelSpec, 'layout'> {
  /** gpus: DP = gpus / (tp x pp) when dp is absent, else it must equal tp x pp x dp. */
  layout?: { tp?: number; pp?: number; ep?: number; dp?: number; gpus?: number; sequenceParallel?: boolean };
  schedule?: string;
  microbatches?: number;
  chunks?: number;
}
/** Several sides under one accounting: the shared fields, each side's laid over them. */
export interface MemoryComparisonRequest extends MemoryRequest {
  sides: MemoryRequest[];
}
export interface StateBytes { weights: number; gradients: number; masterWeights: number; optimizerStates: number; total: number }
/**
 * One assumption: its values, in words (English) and its source; the source (and for `model` and
 * `recipe` the label) as a phrase to say in the page's language (a memory.* row of planTexts),
 * absent when it is only a name.
 */
export type MemoryAssumption = Record<string, string | number | boolean | Phrase> & {
  text: string; source: string; sourceText?: Phrase; labelText?: Phrase;
};
export interface MemoryAssumptions {
  model: MemoryAssumption; recipe: MemoryAssumption; sharding: MemoryAssumption;
  layout: MemoryAssumption; copies: MemoryAssumption; activations?: MemoryAssumption;
}
export interface MemoryResult {
  model: { name: string; label: string; params: number; routedParams: number };
  recipe: string;
  zero: number;
  schedule: string;
  stages: number;
  stagesPerRank: number;
  paramCopies: number;
  /** One copy's parameters and model states on this GPU; routedShare: the experts' share of each. */
  perCopy: { params: number; nonRoutedParams: number; routedParams: number; bytes: StateBytes; routedShare: { params: number; bytes: number } };
  /** All copies. */
  perGpu: { params: number; nonRoutedParams: number; routedParams: number; bytes: StateBytes };
  /** The model states of the copies beyond the first. */
  extraCopyBytes: number;
  activations: { formula: string; bytesPerLayer: number; layersPerUnit: number; bytesPerUnit: number; microbatches: number; peakUnits: number; peakBytes: number } | null;
  totalBytes: number;
  gpuMemoryGb: number;
  shareOfGpuMemory: number;
  assumptions: MemoryAssumptions;
}
export interface MemoryComparison {
  sides: MemoryResult[];
  accounting: { same: boolean; sameRecipe: boolean; sameSharding: boolean; sameLayoutPolicy: boolean; text: string };
}

/** traceGrid(): the rank x time-slot grid of a simulation whose op times fall on slots. */
export interface TraceRequest {
  config: SimConfig;
  /** Every cost the schedule uses and p2pLatency must be a multiple of it; default 1. */
  slotLength?: number;
}
/** One cell: the op's timeline fields (no times), its index in the rank's timeline and its slot within the op. */
export type TraceCell = Record<string, string | number | boolean> & { op: 'F' | 'B' | 'W' | 'FB'; index: number; offset: number };
export interface TraceGrid {
  schedule: string;
  ranks: number;
  microbatches: number;
  costs: Required<Costs>;
  slotLength: number;
  slots: number;
  /** Smallest slot in which no rank is idle, or null. */
  firstAllBusySlot: number | null;
  bubbleMax: number;
  /** grid[rank][slot]: the op covering it, or null when idle. */
  grid: (TraceCell | null)[][];
}

/** One part of an op on one stream, times relative to the op's start. */
export interface OpPart {
  stream: 'compute' | 'comm';
  part: 'attn' | 'dispatch' | 'mlp' | 'combine';
  pass: 'F' | 'B' | 'W';
  layer: number;
  /** e.g. `DISPATCH(F)` */
  label: string;
  start: number;
  end: number;
}
/** overlapPair(): one overlapped FB pair (DeepSeek-V3 Fig. 4). */
export interface PairOverlap {
  costs: Required<Costs> & { comm: CommCosts };
  /** What waits for the weight-gradient parts: overlapPair() lays out DeepSeek's order. */
  order: 'deepseek' | 'megatron' | 'megatron-delay-wgrad';
  duration: number;
  compute: number;
  comm: number;
  exposed: number;
  hidden: number;
  /** A lone F plus a lone full B in this order. */
  sequential: number;
  parts: OpPart[];
  /** One entry per comm part: the compute parts running under it, in time order. */
  hiding: { part: number; label: string; layer: number; hiddenBy: { part: number; label: string; overlap: number }[]; exposed: number }[];
}

/** How traceImport reads a trace. */
export interface TraceOptions {
  /** Kernel-name substrings separated by `|` that make a kernel communication; default `catalogue().trace.commPattern`. */
  commPattern?: string;
}

/**
 * A phrase of core's prose (catalogue().planTexts): its id (a plural family's `<id>` when the
 * table has `<id>.one` and `<id>.other`, with the count as `n`) and the values its template quotes.
 */
export interface Phrase {
  id: string;
  params: Record<string, number | string | Phrase[]>;
}

/** A number traceImport derived, and in words how: core's English and the phrase to say it from. */
export interface Derived {
  value: number;
  derivation: string;
  derivationPhrase: Phrase;
}

/** traceImport(): what a profiler trace holds (docs/schema.md "Traces"). Times in ms. */
export interface TraceReport {
  bytes: number;
  /** Entries of traceEvents. */
  events: number;
  gpuEvents: number;
  /** Host events carrying args.correlation (kernel launches and other CUDA runtime calls). */
  launches: number;
  commPattern: string;
  /** ts of the first GPU event, in µs on the trace's clock: spans count from it. */
  originUs: number;
  /** By device, then stream. busyMs: the union of the stream's GPU events. */
  streams: { device: number; stream: number; kind: 'compute' | 'comm'; kernels: number; commKernels: number; memoryEvents: number; busyMs: number }[];
  /** HTA's communication-computation overlap per device; null without communication. */
  devices: { device: number; computeMs: number; commMs: number; overlapMs: number; overlap: number | null }[];
  overlap: number | null;
  /** In order of first occurrence; GPU events launched inside each, nested annotations' included. */
  annotations: { name: string; count: number; kernels: number; gpuMs: number; streams: { device: number; stream: number; kernels: number; gpuMs: number }[] }[];
  /** Annotation names in the trace (`annotations` lists at most 100,000). */
  annotationsTotal: number;
  unattributed: { events: number; gpuMs: number };
  /** The innermost annotations that launched GPU work, by their first GPU event (at most 100,000). */
  order: string[];
  orderTotal: number;
  /** The same occurrences, per stream: where each ran, from originUs. */
  spans: { name: string; device: number; stream: number; startMs: number; endMs: number; busyMs: number }[];
  /** The costs of the chunk pair DeepSeek-style part annotations mark; null when there is none. */
  derived: TraceCosts | null;
  /** Why derived is null, in English. */
  derivedMissing?: string;
  /** The same as an error's data (a profile.* rule, with the params to say it from). */
  derivedMissingReason?: ErrorData;
}

/** traceImport().derived: one overlapped chunk pair's costs, each with its derivation. */
export interface TraceCosts {
  pairs: Derived;
  layers: Derived;
  forward: Derived;
  backward: Derived;
  weight: Derived;
  overlapped: Derived;
  commRatio: Derived;
  attnShare: Derived;
  forwardAlone: Derived;
  backwardAlone: Derived;
  pairMs: Derived;
  modelPairMs: Derived;
  /** Where the first pair (the lowest device's first step) ran, in ms from originUs. */
  firstPair: { device: number; step: string | null; startMs: number; endMs: number };
  components: {
    forward: { attn: Derived; dispatch: Derived; mlp: Derived; combine: Derived };
    backward: { attn: Derived; attnWeight: Derived; dispatch: Derived; mlp: Derived; mlpWeight: Derived; combine: Derived };
  };
  /** The simulator's costs in ms, with the communication model's explicit components. */
  costs: Required<Omit<Costs, 'comm'>> & { comm: CommCosts };
  /** Without the communication model: lone F, lone B, W and the measured pair as F&B. */
  plainCosts: Required<Omit<Costs, 'comm'>>;
}

export interface Pipesim {
  /**
   * Simulates `config`. Returns the schema's result with `timeline` as typed arrays (cheap for
   * 200k ops). Throws SimError (invalid_config, unknown_schedule, too_large, deadlock, internal).
   * A non-object config, or NaN/Infinity anywhere in it, throws invalid_config before the module
   * is called: JSON cannot carry non-finite numbers. Every method that takes an argument reads it
   * once before anything is stringified: whatever it throws while read (a getter, a Proxy trap, a
   * revoked Proxy, a toJSON) is a SimError of rule input.unreadable at the path being read, and an
   * array longer than half the input limit (a sparse one included) is too_large before any of its
   * elements is read.
   */
  simulate(config: SimConfig | CustomSchedule | CsvSchedule): SimResult;
  /**
   * Simulates and returns the result as JSON text, byte-identical to
   * `pipesim simulate --input - --format json` without the trailing newline. A string argument is
   * taken as JSON text as it stands (parse_error if it is not JSON).
   */
  simulateJson(config: SimConfig | CustomSchedule | CsvSchedule | string): string;
  /**
   * The schedule of `config` (a built-in config, a hand-written or a CSV schedule) as
   * torch.distributed.pipelining's CSV text, as `pipesim export --input -` writes it. The schedule
   * is checked, not simulated. Throws SimError as simulate does.
   */
  exportCsv(config: SimConfig | CustomSchedule | CsvSchedule): string;
  /** Checks `config` without simulating; returns it with defaults filled in. Throws SimError. */
  validate(config: SimConfig): Required<Omit<SimConfig, 'costs' | 'stageCosts'>> & { costs: Required<Costs>; stageCosts?: StageCost[] };
  /** Runs every cell, schedule-major, then ranks, then micro-batches. Throws SimError for a bad grid. */
  sweep(request: SweepRequest): { rows: SweepRow[] };
  /** Every built-in schedule, in a stable order. */
  schedules(): ScheduleInfo[];
  /** Everything a client needs to know about the simulator; the same frozen object on every call. */
  catalogue(): Catalogue;
  /**
   * The original lesson script's four tables, recomputed by simulation under `costs` (default:
   * DeepSeek's). Same object as `pipesim lesson --format json`. Error paths read `/costs/<field>`.
   */
  lessonReport(costs?: Costs): Record<string, unknown>;
  /** Same as `pipesim recover --format json`. Throws SimError with paths such as `/costs/forward`. */
  recover(request: RecoverRequest): RecoverResult;
  /** Same as `pipesim params --format json`: the model's breakdown and every schedule's footprint. */
  params(request: ParamsRequest): ParamsResult;
  /**
   * Same as `pipesim memory --input - --format json`: what one GPU holds, with its assumptions; a
   * request with `sides` is a comparison under one accounting.
   */
  memory(request: MemoryRequest): MemoryResult;
  memory(request: MemoryComparisonRequest): MemoryComparison;
  /** Same as `pipesim trace --format json`. Errors of the config carry paths under `/config`. */
  traceGrid(request: TraceRequest): TraceGrid;
  /** Same as `pipesim overlap --format json`; `costs.comm` is required. Error paths read `/costs/...`. */
  overlapPair(costs: Costs & { comm: CommCosts }): PairOverlap;
  /** Same as `pipesim split --format json`: per-stage costs from a model's layer split. */
  layerSplit(request: LayerSplitRequest): LayerSplitResult;
  /** Same as `pipesim plan --format json` (docs/schema.md "Planner"). */
  plan(spec: Record<string, unknown>): Record<string, unknown>;
  /** The one-page plan as Markdown, as `pipesim plan --format md` prints it. */
  planMarkdown(spec: Record<string, unknown>): string;
  /**
   * Reads a PyTorch profiler (Kineto) or Chrome trace-event file: the same JSON as
   * `pipesim trace-import --format json`. `trace` is its text, its bytes, or the parsed JSON (written
   * back as text first: JS numbers keep absolute microsecond timestamps to about 0.25 us, so text
   * or bytes read exactly). At most `catalogue().limits.maxTraceBytes`. Throws SimError (parse_error
   * with the byte and pointer for text that is not JSON, invalid_config for a wrong field or JSON
   * that is not a trace, too_large).
   */
  traceImport(trace: string | Uint8Array | ArrayBuffer | ArrayBufferView | object, options?: TraceOptions): TraceReport;
}

export interface LoadOptions {
  /** Which build to load (MODULE_BUILDS); default `full`. */
  build?: ModuleBuild;
  /** The bytes of the build's wasm; otherwise it is fetched (read, in Node) beside the module. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * pipesim.wasm already compiled (or being compiled: a Promise), e.g. by WebAssembly.compileStreaming
   * started before this file loaded; it is instantiated instead of fetching the bytes again. A
   * rejected Promise makes loadPipesim reject with its reason.
   */
  wasmModule?: WebAssembly.Module | Promise<WebAssembly.Module>;
  /**
   * URL of a build's generated glue (its wasm beside it, named alike with .wasm); default: the
   * build's file beside pipesim.js. Relative URLs resolve against pipesim.js.
   */
  moduleUrl?: string | URL;
}

/** Instantiates the WASM module (one instance per call) and returns the API. */
export function loadPipesim(options?: LoadOptions): Promise<Pipesim>;
