// The page's first script (index.html loads its bundle async, before app.js). Its bundle is one
// file, so it runs as soon as it arrives, and it starts two things early: the fetch of the
// lesson's text (on the lesson), and the simulator's worker (sim-worker.js), which fetches and
// compiles the wasm while the page's code is still loading.
// The first timeline does not wait for the worker (its runs come with the page:
// scripts/first-runs.mjs); every run after it does. app.js takes the worker over with
// takeWorker() and hands it to its sim client (lib/sim-client.js, startedWorker), and the
// lesson's text with takeLessonText().

import { viewOf, lessonTextPath } from './lib/first-view.js';
import { initialLang, localStore } from './lib/lang-pref.js';

// The lesson's text, when the page opens on the lesson: asked for now, while app.js loads,
// rather than once app.js has run (measured: it then arrived ~200 ms after the page could use it).
let lessonText = null;
if (viewOf(location.hash) === 'lesson') {
  const { lang } = initialLang({ hash: location.hash, search: location.search, storage: localStore() });
  const url = new URL(lessonTextPath(lang), document.baseURI).href;
  lessonText = { url, response: fetch(url) };
  lessonText.response.catch(() => {});  // app.js reports a failure, when it asks for the text
}

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

/** The response (a promise) for `url` if this script already asked for it, once; else null. */
export function takeLessonText(url) {
  if (lessonText?.url !== url) return null;
  const { response } = lessonText;
  lessonText = null;
  return response;
}
