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
//
// Which build of the module it runs (pipesim.js's MODULE_BUILDS: the full one, or the figures'
// with only what the embeds call) is its URL's ?module=, the build's name: its glue <name>.mjs
// and its wasm <name>.wasm in generated/. sim-client.js sets it. Read here, not imported from
// pipesim.js, so the wasm's fetch starts before the API has loaded.
const GENERATED = new URL('../generated/', import.meta.url);
const MODULE_NAME = /^[\w-]+$/.exec(new URL(import.meta.url).searchParams.get('module') ?? '')?.[0];

/** The module at `url`, compiled as it downloads (whole, if the server does not say application/wasm). */
async function compileWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`failed to load ${url.pathname}: ${response.status} ${response.statusText}`);
  if (response.headers.get('Content-Type')?.split(';')[0].trim() === 'application/wasm') return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

const moduleUrl = MODULE_NAME && new URL(`${MODULE_NAME}.mjs`, GENERATED);
const compiled = moduleUrl
  ? compileWasm(new URL(`${MODULE_NAME}.wasm`, GENERATED))
  : Promise.reject(new Error('sim-worker.js needs ?module= naming a build of the simulator (sim-client.js sets it)'));
compiled.catch(() => {});  // reported by loadPipesim below, with the calls that wait for it
if (moduleUrl) import(moduleUrl.href).catch(() => {});  // loadPipesim imports it again: one request
const api = import('../generated/pipesim.js');

const ready = api.then(({ loadPipesim }) => (moduleUrl ? loadPipesim({ moduleUrl, wasmModule: compiled }) : compiled));
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
