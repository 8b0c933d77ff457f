// The DOM-free half of an exercise: which simulations and calculator calls a definition
// (lessons/exercises/<id>.json) asks for, with the learner's editable inputs applied; reading the
// expected answers out of their results (`quantity` expressions such as
// "dp16.bubble.max - dp8.bubble.max", or one cell of core's trace grid such as
// "trace_dp.grid.0.11.fmb"). Every expected value comes from the simulator; this file
// only reads and combines fields. Tested under Node.

/** Calculator name in a definition -> method of the pipesim API. */
export const CALCULATORS = Object.freeze({ recover: 'recover', params: 'params', trace: 'traceGrid', overlap: 'overlapPair' });

const clone = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/** Sets `value` at JSON pointer `pointer` ("/a/b") inside `target`, creating objects on the way. */
export function setPointer(target, pointer, value) {
  const keys = pointer.split('/').slice(1).map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (!keys.length) return target;
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = {};
    node = node[key];
  }
  node[keys[keys.length - 1]] = value;
  return target;
}

/** The editable inputs of a definition with their defaults: {name: value}. */
export function defaultInputs(definition) {
  const out = {};
  for (const [name, spec] of Object.entries(definition?.config?.inputs || {})) out[name] = spec.default;
  return out;
}

/**
 * What to run: {runs: {id: config}, calculators: {id: {method, request}}}. `inputs` values replace
 * the calculator fields named by `inputBindings`; `costs` (when given) replaces the costs of every
 * run and of every calculator request that has costs (the recover exercise lets the learner edit them).
 */
export function buildRequests(definition, inputs = {}, { costs } = {}) {
  const config = definition?.config || {};
  const runs = {};
  for (const [id, run] of Object.entries(config.runs || {})) {
    runs[id] = clone(run);
    if (costs) runs[id].costs = { ...runs[id].costs, ...costs };
  }
  const calculators = {};
  for (const [id, calc] of Object.entries(config.calculators || {})) {
    const method = CALCULATORS[calc.calculator];
    if (!method) continue;
    const request = clone(calc.input) ?? {};
    for (const [pointer, name] of Object.entries(calc.inputBindings || {})) {
      if (inputs[name] !== undefined) setPointer(request, pointer, inputs[name]);
    }
    if (costs && request.costs) request.costs = { ...request.costs, ...costs };
    if (costs && request.config?.costs) request.config.costs = { ...request.config.costs, ...costs };
    calculators[id] = { method, request };
  }
  return { runs, calculators };
}

/**
 * Runs every simulation and calculator of `requests` through `sim` (the page's client or the
 * pipesim API). Resolves to {results: {id: result}, errors: {id: SimError}}; one failure does
 * not stop the others.
 */
export async function runRequests(sim, requests) {
  const results = {};
  const errors = {};
  const jobs = [
    ...Object.entries(requests.runs).map(([id, config]) => [id, () => sim.simulate(config)]),
    ...Object.entries(requests.calculators).map(([id, { method, request }]) => [id, () => sim[method](request)]),
  ];
  await Promise.all(jobs.map(async ([id, job]) => {
    try {
      results[id] = await job();
    } catch (error) {
      errors[id] = error;
    }
  }));
  return { results, errors };
}

// ---------------------------------------------------------------------------------------------
// Quantity expressions: paths into results ("llama.schedules.1f1b.paramsPerGpu"), numbers,
// + - * / and parentheses. A tiny recursive-descent parser: no eval.

function tokenize(expr) {
  const tokens = [];
  const re = /\s*(?:(\d+(?:\.\d+)?(?:e[+-]?\d+)?)(?![\w.])|([A-Za-z_][\w]*(?:\.[\w]+)*)|([-+*/()]))/gy;
  let m;
  let pos = 0;
  while (pos < expr.length) {
    re.lastIndex = pos;
    m = re.exec(expr);
    if (!m) {
      if (/^\s*$/.test(expr.slice(pos))) break;
      throw new Error(`cannot read "${expr.slice(pos).trim()}" in quantity "${expr}"`);
    }
    pos = re.lastIndex;
    if (m[1] !== undefined) tokens.push({ num: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ path: m[2] });
    else tokens.push({ op: m[3] });
  }
  return tokens;
}

/** Reads a dotted path from `results` ("dp.bubble.max": results.dp.bubble.max). */
export function readResultPath(results, path) {
  return path.split('.').reduce((node, key) => (node === null || node === undefined ? undefined : node[key]), results);
}

/**
 * Evaluates a quantity expression against `results`. Returns the number, or throws an Error
 * naming the path that is missing or not a number.
 */
export function evaluateQuantity(expr, results) {
  const tokens = tokenize(String(expr));
  let i = 0;
  const peek = () => tokens[i];
  const expect = (op) => {
    if (peek()?.op !== op) throw new Error(`expected "${op}" in quantity "${expr}"`);
    i += 1;
  };
  function primary() {
    const tok = tokens[i++];
    if (!tok) throw new Error(`quantity "${expr}" ends early`);
    if (tok.num !== undefined) return tok.num;
    if (tok.path !== undefined) {
      const value = readResultPath(results, tok.path);
      if (typeof value !== 'number') throw new Error(`${tok.path} is not a number in the results`);
      return value;
    }
    if (tok.op === '-') return -primary();
    if (tok.op === '(') {
      const v = sum();
      expect(')');
      return v;
    }
    throw new Error(`unexpected "${tok.op}" in quantity "${expr}"`);
  }
  function product() {
    let v = primary();
    while (peek()?.op === '*' || peek()?.op === '/') v = tokens[i++].op === '*' ? v * primary() : v / primary();
    return v;
  }
  function sum() {
    let v = product();
    while (peek()?.op === '+' || peek()?.op === '-') v = tokens[i++].op === '+' ? v + product() : v - product();
    return v;
  }
  const value = sum();
  if (i !== tokens.length) throw new Error(`unexpected text after quantity "${expr}"`);
  return value;
}

/** The ids of results a quantity expression reads ("dp16.bubble.max - dp8.x" -> ["dp16", "dp8"]). */
export function quantitySources(expr) {
  try {
    return [...new Set(tokenize(String(expr)).filter((t) => t.path).map((t) => t.path.split('.')[0]))];
  } catch {
    return [];
  }
}

/** How an answer is given: 'choice' (radio options) or 'number'. */
export function answerKind(answer) {
  if (answer.kind === 'choice' || Array.isArray(answer.choices)) return 'choice';
  return 'number';
}

/**
 * The expected value of `answer` from `results`: {kind: 'number', value} | {kind: 'choice',
 * correct} | {kind: 'missing', error} when a result it needs failed.
 */
export function expectedAnswer(answer, results) {
  const kind = answerKind(answer);
  if (kind === 'choice') return { kind, correct: answer.correct };
  try {
    return { kind, value: evaluateQuantity(answer.quantity, results) };
  } catch (error) {
    return { kind: 'missing', error };
  }
}

/** `value` as JSON with every object's keys sorted, so two configs written in different orders compare equal. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value);
}

/**
 * The lesson's widgets (`configs`: Map of sim id -> config, in the lesson's order) that draw one
 * of the exercise's runs, exactly: their ids, in the lesson's order. The exercise links back to them.
 */
export function lessonFiguresOf(definition, configs) {
  const runs = new Set(Object.values(definition?.config?.runs || {}).map(canonical));
  return [...configs].filter(([, config]) => runs.has(canonical(config))).map(([id]) => id);
}

/**
 * The lesson's memory tables (`memories`: Map of memory id -> request, in the lesson's order) that
 * count one of the models the exercise's parameter calculators count: their ids, in the lesson's
 * order. The exercise links back to them, as it does to the figures that draw its runs.
 */
export function lessonTablesOf(definition, memories) {
  const models = new Set(Object.values(definition?.config?.calculators || {})
    .filter((c) => c.calculator === 'params').map((c) => c.input?.model).filter(Boolean));
  const modelsOf = (request) => [request?.model, ...(request?.sides || []).map((side) => side?.model)].filter(Boolean);
  return [...(memories ?? [])].filter(([, request]) => modelsOf(request).some((m) => models.has(m))).map(([id]) => id);
}
