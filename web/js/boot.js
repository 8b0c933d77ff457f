// The page's first script (index.html loads its bundle async, before app.js): starts the
// simulator's worker (sim-worker.js) at once, so the worker fetches and compiles the wasm while
// the browser is still fetching and running app.js; the first widget waits for the worker, not
// for the page's code. It imports nothing, so it runs as soon as it arrives. app.js takes the
// worker over with takeWorker() and hands it to its sim client (lib/sim-client.js, startedWorker).

let early = null;
if (typeof Worker === 'function') {
  try {
    const worker = new Worker(new URL('./sim-worker.js', import.meta.url), { type: 'module' });
    // A worker's events are not queued until someone listens: keep them for the client.
    const events = [];
    const keep = (event) => {
      if (event.type === 'error') event.preventDefault();  // the client reports it, when it replays it
      events.push(event);
    };
    worker.addEventListener('message', keep);
    worker.addEventListener('error', keep);
    early = { worker, events, stop: () => { worker.removeEventListener('message', keep); worker.removeEventListener('error', keep); } };
  } catch {
    early = null;  // the client starts its own worker, or runs in the page
  }
}

/** The worker started above and the events it has sent so far ({worker, events}), once; else null. */
export function takeWorker() {
  const taken = early;
  early = null;
  taken?.stop();
  return taken && { worker: taken.worker, events: taken.events };
}
