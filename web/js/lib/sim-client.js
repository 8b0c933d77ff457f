// The page's way to run pipesim: the same calls as wasm/pipesim.js, but async and executed in
// module Web Workers (sim-worker.js) so sweeps and large simulations never freeze the page. One
// worker runs every call; a large sweep is also cut into parts (sweep-pool.js) that a small pool
// of workers runs at once, and its rows are merged back into what one sweep returns. Where
// Workers are unavailable (Node, old browsers) or a worker fails to start or dies, calls run in
// this thread instead, with identical results and SimErrors.
import { loadPipesim, METHOD_NAMES, MODULE_BUILDS, SimError } from '../../generated/pipesim.js';
import CATALOGUE from '../../generated/catalogue.js';
import { SCRIPTS } from '../script-base.js';
import { startModuleWorker } from './module-worker.js';

export { SimError };

// Sweep parts queued in each worker at once: the next part is already there when one finishes,
// so a worker never idles waiting for this thread to answer.
const PARTS_PER_WORKER = 2;

/**
 * Workers a large sweep may use: one per core, at least 1 and at most 4, since each worker holds
 * its own module instance and memory (on 2 cores, 2 workers run the full sweep about 1.9x faster).
 */
export function defaultPoolSize() {
  const cores = typeof navigator === 'object' ? navigator.hardwareConcurrency : 0;
  return Math.max(1, Math.min(cores || 2, 4));
}

/**
 * Returns every method of pipesim.js's manifest (METHODS) plus prewarm, terminate, mode and
 * workers: each method returns a Promise of what pipesim.js returns, or rejects with a SimError.
 * Options: useWorker (default: when Worker exists), workerUrl (default: the sim-worker.js beside the running scripts),
 * poolSize (workers a large sweep may use, default defaultPoolSize()), build (the module's build,
 * pipesim.js's MODULE_BUILDS: default "full"; "figures" has only the methods the embeds call, and
 * the others reject with a SimError).
 * Workers start on first use; the extra sweep workers on the first sweep large enough to split,
 * or on prewarm().
 */
export function createSimClient({
  useWorker = typeof Worker === 'function',
  workerUrl = new URL('sim-worker.js', SCRIPTS),
  poolSize = defaultPoolSize(),
  build = 'full',
} = {}) {
  const size = Math.max(1, Math.floor(poolSize) || 1);
  if (!Object.hasOwn(MODULE_BUILDS, build)) {
    const detail = `createSimClient's build must be one of ${Object.keys(MODULE_BUILDS).join(', ')}`;
    throw new SimError('internal', detail, '', 'internal', { detail });
  }
  let local = null;  // Promise of the in-thread API, created on first need
  let slots = [];  // started workers {worker, ready, parts, whenLoaded, loaded}; slots[0] runs every method
  let nextId = 1;
  let epoch = 0;  // bumped by terminate(), so a sweep it interrupts rejects instead of retrying
  const pending = new Map();  // id -> call {method, args, resolve, reject, part?}
  const queue = [];  // sweep parts waiting for a worker, in order (calls with part set)

  const inThread = (method, args) => {
    local ??= loadPipesim({ build });
    return local.then((api) => api[method](...args));
  };

  const stopWorkers = () => {
    for (const slot of slots) {
      slot.worker.terminate();
      slot.loaded();
    }
    slots = [];
    const calls = [...pending.values(), ...queue.splice(0)];
    pending.clear();
    return calls;
  };

  // A worker could not start or died: finish its calls, and every other worker's, in this thread
  // and stop using workers.
  const abandonWorkers = () => {
    useWorker = false;
    for (const call of stopWorkers()) inThread(call.method, call.args).then(call.resolve, call.reject);
  };

  const post = (slot, call) => {
    const id = nextId++;
    try {
      slot.worker.postMessage({ id, method: call.method, args: call.args });
    } catch {
      // Not cloneable (a function inside, say): pipesim.js reports it as it would in-thread.
      inThread(call.method, call.args).then(call.resolve, call.reject);
      return;
    }
    if (call.part) slot.parts++;
    pending.set(id, call);
  };

  // Hands queued sweep parts to the least busy worker that has its module (the first worker
  // takes parts even while loading: it is the one that would run the whole sweep).
  const pump = () => {
    if (!useWorker) {
      for (const call of queue.splice(0)) inThread(call.method, call.args).then(call.resolve, call.reject);
      return;
    }
    while (queue.length > 0) {
      let best = null;
      slots.forEach((slot, i) => {
        const free = (i === 0 || slot.ready) && slot.parts < PARTS_PER_WORKER;
        if (free && (!best || slot.parts < best.parts)) best = slot;
      });
      if (!best) return;
      post(best, queue.shift());
    }
  };

  const startWorker = () => {
    let worker;
    try {
      // The worker runs the build its URL names (sim-worker.js).
      const href = new URL(workerUrl, globalThis.location?.href);
      href.searchParams.set('module', MODULE_BUILDS[build]);
      worker = startModuleWorker(href);
    } catch {
      abandonWorkers();
      return;
    }
    const slot = { worker, ready: false, parts: 0, loaded: null };
    slot.whenLoaded = new Promise((resolve) => { slot.loaded = resolve; });
    const onMessage = ({ data }) => {
      if (data.id === undefined) {  // {ready}: the module loaded (or failed to: calls then report why)
        slot.ready = data.ready === true;
        slot.loaded();
        pump();
        return;
      }
      const call = pending.get(data.id);
      if (!call) return;
      pending.delete(data.id);
      if (data.ok) call.resolve(data.value);
      else call.reject(SimError.from(data.error));
      if (call.part) {
        slot.parts--;
        pump();
      }
    };
    const onError = (event) => {
      event.preventDefault();
      abandonWorkers();
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    slots.push(slot);
  };

  /** The worker for ordinary calls, started on first need; null when calls run in this thread. */
  const mainWorker = () => {
    if (useWorker && slots.length === 0) startWorker();
    return useWorker ? slots[0] : null;
  };

  const startPool = () => {
    while (mainWorker() && slots.length < size) startWorker();
  };

  const call = (method, args) => {
    const slot = mainWorker();
    if (!slot) return inThread(method, args);
    return new Promise((resolve, reject) => post(slot, { method, args, resolve, reject }));
  };

  const runPart = (request, token) => new Promise((resolve, reject) => {
    queue.push({ method: 'sweep', args: [request], resolve, reject, part: token });
    pump();
  });

  const terminated = () => {
    const detail = 'the simulation client was terminated';
    return new SimError('internal', detail, '', 'internal', { detail });
  };

  const sweep = async (request) => {
    const started = epoch; // before the splitter loads: a terminate() meanwhile ends this sweep
    let plan = null;
    try {
      // The splitter loads with the first sweep: the lesson and timeline pages never sweep.
      if (useWorker && size > 1) plan = (await import('./sweep-pool.js')).planSweep(request, { workers: size, catalogue: CATALOGUE });
    } catch {
      plan = null;  // a getter that throws, or the splitter failing to load: one whole sweep
    }
    if (epoch !== started) throw terminated();
    if (!plan) return call('sweep', [request]);
    startPool();
    const token = {};
    try {
      const results = await Promise.all(plan.parts.map((part) => runPart(part.request, token)));
      return plan.merge(results);
    } catch (error) {
      if (epoch !== started) throw error;  // terminate() ended this sweep
      // A part failed (an invalid request fails in every part, fast): drop the parts not yet
      // started and run the whole request once, so the SimError and its path are the ones a
      // single sweep gives.
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i].part === token) queue.splice(i, 1);
      return call('sweep', [request]);
    }
  };

  const client = {
    get mode() { return useWorker ? 'worker' : 'in-thread'; },
    /** Workers running now (0 before the first call, in-thread, or after terminate()). */
    get workers() { return slots.length; },
    sweep,
    /**
     * Starts every worker a large sweep would use, so the first such sweep does not pay their
     * start-up. Resolves with the number of workers once each has loaded its module.
     */
    prewarm() {
      startPool();
      return Promise.all(slots.map((slot) => slot.whenLoaded)).then(() => slots.length);
    },
    /** Stops the workers; calls still pending reject with SimError internal. */
    terminate() {
      epoch++;
      for (const c of stopWorkers()) c.reject(terminated());
    },
  };
  for (const method of METHOD_NAMES) if (method !== 'sweep') client[method] = (...args) => call(method, args);
  return Object.freeze(client);
}
