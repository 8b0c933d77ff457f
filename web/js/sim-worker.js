// Module worker that owns one pipesim instance so sweeps and large simulations never block the
// page. Protocol (sim-client.js): {id, method, args} in; {id, ok: true, value} or
// {id, ok: false, error: {code, message, path, rule, params, cause?}} out, and once {ready: true | false}
// when the module has loaded (or failed to: calls then answer with the reason). Timeline typed
// arrays are transferred, not copied. Several of these run one sweep's parts at once
// (sweep-pool.js). The methods are pipesim.js's manifest.
//
// The first thing this worker does is fetch and compile the wasm (compileStreaming, as the bytes
// arrive), while the JS API and the Emscripten glue load beside it: three requests at once
// instead of one after the other (the page waits for this worker before it draws anything).
const GENERATED = new URL('../generated/', import.meta.url);

/** The module at `url`, compiled as it downloads (whole, if the server does not say application/wasm). */
async function compileWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`failed to load ${url.pathname}: ${response.status} ${response.statusText}`);
  if (response.headers.get('Content-Type')?.split(';')[0].trim() === 'application/wasm') return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

const compiled = compileWasm(new URL('pipesim.wasm', GENERATED));
compiled.catch(() => {});  // reported by loadPipesim below, with the calls that wait for it
const moduleUrl = new URL('pipesim.mjs', GENERATED);
import(moduleUrl.href).catch(() => {});  // loadPipesim imports it again: one request
const api = import('../generated/pipesim.js');

const ready = api.then(({ loadPipesim }) => loadPipesim({ moduleUrl, wasmModule: compiled }));
ready.then(() => self.postMessage({ ready: true }), () => self.postMessage({ ready: false }));

self.addEventListener('message', async ({ data }) => {
  const { id, method, args = [] } = data;
  try {
    const { METHODS, transferables } = await api;
    if (!Object.hasOwn(METHODS, method)) throw new Error(`unknown method ${method}`);
    const value = (await ready)[method](...args);
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
