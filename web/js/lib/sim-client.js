// The page's way to run pipesim: the same calls as wasm/pipesim.js, but async and executed in a
// module Web Worker (sim-worker.js) so sweeps and large simulations never freeze the page. Where
// Workers are unavailable (Node, old browsers) or the worker fails to start, calls run in this
// thread instead, with identical results and SimErrors.
import { loadPipesim, SimError } from '../../generated/pipesim.js';

export { SimError };

const METHODS = ['simulate', 'simulateJson', 'validate', 'sweep', 'schedules', 'lessonReport',
  'recover', 'params', 'traceGrid', 'overlapPair', 'plan', 'planMarkdown'];

/**
 * Returns {simulate, simulateJson, validate, sweep, schedules, lessonReport, recover, params,
 * traceGrid, overlapPair, plan, planMarkdown, terminate, mode}:
 * each method returns a Promise of what pipesim.js returns, or rejects with a SimError.
 * Options: useWorker (default: when Worker exists), workerUrl (default: ../sim-worker.js).
 */
export function createSimClient({
  useWorker = typeof Worker === 'function',
  workerUrl = new URL('../sim-worker.js', import.meta.url),
} = {}) {
  let local = null;  // Promise of the in-thread API, created on first need
  let worker = null;
  let nextId = 1;
  const pending = new Map();  // id -> {method, args, resolve, reject}

  const inThread = (method, args) => {
    local ??= loadPipesim();
    return local.then((api) => api[method](...args));
  };

  // The worker could not start or died: finish its calls in this thread and stop using it.
  const abandonWorker = () => {
    worker?.terminate();
    worker = null;
    useWorker = false;
    for (const call of pending.values()) inThread(call.method, call.args).then(call.resolve, call.reject);
    pending.clear();
  };

  const startWorker = () => {
    try {
      worker = new Worker(workerUrl, { type: 'module' });
    } catch {
      useWorker = false;
      return;
    }
    worker.addEventListener('message', ({ data }) => {
      const call = pending.get(data.id);
      if (!call) return;
      pending.delete(data.id);
      if (data.ok) call.resolve(data.value);
      else call.reject(new SimError(data.error.code, data.error.message, data.error.path));
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      abandonWorker();
    });
  };

  const call = (method, args) => {
    if (useWorker && !worker) startWorker();
    if (!useWorker) return inThread(method, args);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      try {
        worker.postMessage({ id, method, args });
      } catch {
        // Not cloneable (a function inside, say): pipesim.js reports it as it would in-thread.
        inThread(method, args).then(resolve, reject);
        return;
      }
      pending.set(id, { method, args, resolve, reject });
    });
  };

  const client = {
    get mode() { return useWorker ? 'worker' : 'in-thread'; },
    /** Stops the worker; calls still pending reject with SimError internal. */
    terminate() {
      worker?.terminate();
      worker = null;
      for (const c of pending.values()) c.reject(new SimError('internal', 'the simulation client was terminated', ''));
      pending.clear();
    },
  };
  for (const method of METHODS) client[method] = (...args) => call(method, args);
  return Object.freeze(client);
}
