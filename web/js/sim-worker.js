// Module worker that owns one pipesim instance so sweeps and large simulations never block the
// page. Protocol (sim-client.js): {id, method, args} in; {id, ok: true, value} or
// {id, ok: false, error: {code, message, path}} out, and once {ready: true | false} when the
// module has loaded (or failed to: calls then answer with the reason). Timeline typed arrays are
// transferred, not copied. Several of these run one sweep's parts at once (sweep-pool.js).
import { loadPipesim } from '../generated/pipesim.js';

const METHODS = new Set(['simulate', 'simulateJson', 'validate', 'sweep', 'schedules', 'lessonReport',
  'recover', 'params', 'traceGrid', 'overlapPair', 'plan', 'planMarkdown']);
const ready = loadPipesim();
ready.then(() => self.postMessage({ ready: true }), () => self.postMessage({ ready: false }));

function transferables(method, value) {
  if (method !== 'simulate') return [];
  const t = value.timeline;
  return [t.rank, t.op, t.zb, t.dir, t.mb, t.stage, t.bdir, t.bmb, t.bstage, t.start, t.end].map((a) => a.buffer);
}

self.addEventListener('message', async ({ data }) => {
  const { id, method, args = [] } = data;
  try {
    if (!METHODS.has(method)) throw new Error(`unknown method ${method}`);
    const api = await ready;
    const value = api[method](...args);
    self.postMessage({ id, ok: true, value }, transferables(method, value));
  } catch (error) {
    // A SimError keeps its code; anything else (the module failed to load) is internal.
    const code = error.name === 'SimError' ? error.code : 'internal';
    self.postMessage({ id, ok: false, error: { code, message: String(error.message ?? error), path: error.path ?? '' } });
  }
});
