// The page's first script (index.html loads its bundle async, before app.js). Its bundle is one
// small file, so it runs as soon as it arrives, well before app.js has been compiled and run: on
// the lesson, it asks for the lesson's text then, and app.js takes the response over with
// takeLessonText().

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

/** The response (a promise) for `url` if this script already asked for it, once; else null. */
export function takeLessonText(url) {
  if (lessonText?.url !== url) return null;
  const { response } = lessonText;
  lessonText = null;
  return response;
}
