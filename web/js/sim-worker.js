// Module worker that owns one pipesim instance so sweeps and large simulations never block the
// page. Protocol (sim-client.js): {id, method, args} in; {id, ok: true, value} or
// {id, ok: false, error: {code, message, path, rule, params, cause?}} out, and once {ready: true | false}
// when the module has loaded (or failed to: calls then answer with the reason). Timeline typed
// arrays are transferred, not copied. Several of these run one sweep's parts at once
// (sweep-pool.js). The methods are pipesim.js's manifest.
import { loadPipesim, METHODS, transferables } from '../generated/pipesim.js';

const ready = loadPipesim();
ready.then(() => self.postMessage({ ready: true }), () => self.postMessage({ ready: false }));

self.addEventListener('message', async ({ data }) => {
  const { id, method, args = [] } = data;
  try {
    if (!Object.hasOwn(METHODS, method)) throw new Error(`unknown method ${method}`);
    const api = await ready;
    const value = api[method](...args);
    self.postMessage({ id, ok: true, value }, transferables(method, value));
  } catch (error) {
    // A SimError keeps its code, rule and params; anything else (the module failed to load) is internal.
    const sim = error.name === 'SimError';
    self.postMessage({ id, ok: false, error: {
      code: sim ? error.code : 'internal', message: String(error.message ?? error), path: error.path ?? '',
      rule: sim ? error.rule : 'internal', params: sim ? error.params : { detail: String(error.message ?? error) },
      ...(sim && error.cause ? { cause: error.cause } : {}),
    } });
  }
});
