// The planner's three presets, the same content as lessons/planner-presets/*.json (the site build
// does not copy that folder into web/generated/); tests/browser/lib-planner-presets.test.mjs
// fails when the two drift apart. Also the planner form's fields and their URL keys (state.js
// keeps a plan in the address: `plan=<preset>` plus the fields changed from it). DOM-free.
export const PLANNER_PRESETS = Object.freeze([
  { id: "deepseek-v3-2048-h800", spec: {"title":"DeepSeek-V3 on 2048 H800","cluster":{"gpus":2048,"gpuModel":"H800","memoryPerGpuGb":80,"nodes":256,"gpusPerNode":8,"interconnectGbpsPerGpu":400},"model":{"totalParams":671026419200,"activeParams":37000000000,"routedParams":653908770816,"type":"moe","layers":61,"experts":256,"expertParallel":64},"trainingTokens":14800000000000,"customAllToAllKernel":true} },
  { id: "dense-70b-1024", spec: {"title":"A 70B dense model on 1024 H100","cluster":{"gpus":1024,"gpuModel":"H100","memoryPerGpuGb":80,"nodes":128,"gpusPerNode":8,"interconnectGbpsPerGpu":400},"model":{"totalParams":70000000000,"type":"dense","layers":80},"trainingTokens":2000000000000,"customAllToAllKernel":false} },
  { id: "dense-7b-8gpu", spec: {"title":"A 7B dense model on 8 H100","cluster":{"gpus":8,"gpuModel":"H100","memoryPerGpuGb":80,"nodes":1,"gpusPerNode":8,"interconnectGbpsPerGpu":400},"model":{"totalParams":7000000000,"type":"dense","layers":32},"trainingTokens":1000000000000,"customAllToAllKernel":false} },
]);

/** A deep copy of a preset's spec, or null. */
export function presetSpec(id) {
  const p = PLANNER_PRESETS.find((x) => x.id === id);
  return p ? JSON.parse(JSON.stringify(p.spec)) : null;
}

/**
 * The planner form's fields: [JSON pointer in the spec, input kind]. The pointer is also the path
 * of a SimError that blames the field; its URL key is the dotted name ("cluster.gpus").
 */
export const PLAN_FIELDS = Object.freeze([
  ['/cluster/gpus', 'number'],
  ['/cluster/gpuModel', 'text'],
  ['/cluster/memoryPerGpuGb', 'number'],
  ['/cluster/nodes', 'number'],
  ['/cluster/gpusPerNode', 'number'],
  ['/cluster/interconnectGbpsPerGpu', 'number'],
  ['/model/type', 'type'],
  ['/model/totalParams', 'number'],
  ['/model/activeParams', 'number'],
  ['/model/routedParams', 'number'],
  ['/model/layers', 'number'],
  ['/model/experts', 'number'],
  ['/model/expertParallel', 'number'],
  ['/trainingTokens', 'number'],
  // The run's GPU-hours, when known (the planner estimates them from DeepSeek-V3's otherwise).
  ['/gpuHours', 'number'],
  ['/customAllToAllKernel', 'check'],
  // The memory model's accounting (the spec's `training`): "" keeps the planner's default.
  ['/training/recipe', 'recipe'],
  ['/training/zero', 'zero'],
  // Choices the learner fixes instead of letting the planner pick (the spec's `requested`):
  // a schedule from core's catalogue ("" lets the planner choose), and chunks where it takes them.
  ['/requested/schedule', 'schedule'],
  ['/requested/ranks', 'number'],
  ['/requested/microbatches', 'number'],
  ['/requested/chunks', 'number'],
]);

/** "/cluster/gpus" -> "cluster.gpus": a field's URL key and form control name. */
export const planKey = (path) => path.slice(1).replace('/', '.');

/** Every URL key of a plan: the preset it starts from, then one per field. */
export const PLAN_URL_KEYS = Object.freeze(['plan', ...PLAN_FIELDS.map(([path]) => planKey(path))]);
