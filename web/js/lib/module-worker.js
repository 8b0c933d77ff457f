// Starts a module Web Worker from a script on this page's origin or on another one. A browser
// runs a worker only from the page's own origin, so a widget served from elsewhere (the course
// figure loaded from the lab's site) starts its worker from a one-line module of this page's
// origin, a blob: URL, that imports the real script; the real script then runs with its own URL,
// so what it loads beside itself (the wasm) is found there, fetched with CORS. A page whose
// Content-Security-Policy forbids blob: workers makes this throw, as a failed start does: the
// caller then runs the simulator on the page's thread.

/** A module worker running `url` (a URL or string, resolved against the page). */
export function startModuleWorker(url) {
  const href = new URL(url, globalThis.location?.href);
  if (href.origin === globalThis.location?.origin) return new Worker(href, { type: 'module' });
  const stub = URL.createObjectURL(new Blob([`import ${JSON.stringify(href.href)};\n`], { type: 'text/javascript' }));
  let worker;
  try {
    worker = new Worker(stub, { type: 'module' });
  } catch (error) {
    URL.revokeObjectURL(stub);
    throw error;
  }
  // The stub is fetched once the worker starts: let go of it at its first word (ready, or failed).
  const revoke = () => {
    URL.revokeObjectURL(stub);
    worker.removeEventListener('message', revoke);
    worker.removeEventListener('error', revoke);
  };
  worker.addEventListener('message', revoke);
  worker.addEventListener('error', revoke);
  return worker;
}
