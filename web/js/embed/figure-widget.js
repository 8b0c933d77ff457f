/* DualPipe Lab figures for the course's figure system. A CLASSIC script, as the course's own
   figures-*.js files are (loaded with a plain <script src> after its lesson-figures.js): it takes
   the course's window.LF and registers two figures with LF.register, synchronously, and loads
   nothing else until a figure comes near the viewport. A lesson writes
     ```figure
     dualpipe-schedule schedule=dualpipev ranks=4 microbatches=10
     ```
   and the course calls fn(host, config), config being its JSON.parse of the text after the name,
   or {} when that fails: it writes the fence into data-figure without escaping quotes, so a JSON
   config arrives broken; the quote-free key=value form survives and is read from the host's
   data-figure (lib/figure-spec.js).

   This one file serves in two forms. From the sources (web/js/embed/) it loads figure-mount.js
   beside it and the stylesheets and fonts of web/; `make course-bundle` builds it into
   dist/course/figures-dualpipe.js with DPL_LAYOUT defined as the bundle's folder beside it
   (scripts/build-course.mjs). Every URL is resolved against this script's own URL, so the files
   work from the course's origin or from another one.

   Language: the course's, read when the course mounts the figure, from its picker
   (window.AIFS_currentLang()) or else <html lang>. On a switch the
   course fetches the lesson in the new language, replaces the article and mounts its figures
   again, without telling the old ones: each figure lives in a <dualpipe-lab-figure> element whose
   disconnectedCallback releases it (its worker, observers and listeners) once it has left the
   document.

   Without a course LF (any other page), a minimal one is made: LF.mountAll() mounts every
   <div class="lesson-figure" data-figure="dualpipe-schedule ranks=8">. */
(function () {
  'use strict';
  /* global DPL_LAYOUT */ // the bundle's layout as JSON text, defined in by the course build
  const LAYOUT = typeof DPL_LAYOUT === 'string' ? JSON.parse(DPL_LAYOUT) : {
    module: 'figure-mount.js',
    styles: ['../../css/widgets.css', '../../css/figure.css'],
    fonts: '../../generated/fonts/',
  };
  // A figure starts loading this far before it scrolls into view, so it is drawn when it arrives.
  const NEAR = '600px 0px';

  const script = document.currentScript;
  const base = script && script.src ? script.src : document.baseURI;
  const resolve = (path) => new URL(path, base).href;
  // The bundle's version (a hash of its files) on the files a new build changes in place, so a
  // cache holding the last build's figure module never serves it beside this script.
  const versioned = (path) => resolve(path) + (LAYOUT.version ? '?v=' + LAYOUT.version : '');
  const urls = { styles: LAYOUT.styles.map(versioned), fonts: resolve(LAYOUT.fonts) };
  let loading = null;
  const load = () => {
    loading = loading || import(versioned(LAYOUT.module)).catch((error) => {
      loading = null; // a later figure tries again
      throw error;
    });
    return loading;
  };

  // The one element a figure adds to the course's DOM. Its shadow root keeps the course's styles
  // out; leaving the document releases the figure. The check waits a microtask, so an element the
  // host merely moves (removed and inserted again at once) keeps its figure.
  const TAG = 'dualpipe-lab-figure';
  if (!customElements.get(TAG)) {
    customElements.define(TAG, class extends HTMLElement {
      disconnectedCallback() {
        queueMicrotask(() => { if (!this.isConnected && this.dplRelease) this.dplRelease(); });
      }
    });
  }

  // One observer for every figure: a figure loads once it is near the viewport.
  const waiting = new Map(); // holder -> start()
  let observer = null;
  function whenNear(holder, start) {
    if (typeof IntersectionObserver !== 'function') { start(); return; }
    observer = observer || new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting || !waiting.has(entry.target)) continue;
        const go = waiting.get(entry.target);
        stopWaiting(entry.target);
        go();
      }
    }, { rootMargin: NEAR });
    waiting.set(holder, start);
    observer.observe(holder);
  }
  function stopWaiting(holder) {
    if (!waiting.delete(holder) || !observer) return;
    observer.unobserve(holder);
    if (waiting.size === 0) { observer.disconnect(); observer = null; }
  }

  /** The course's language: its picker's, else <html lang>, else English. */
  function courseLang() {
    try {
      if (typeof window.AIFS_currentLang === 'function') {
        const lang = window.AIFS_currentLang();
        if (typeof lang === 'string' && lang) return lang;
      }
    } catch (e) { /* a picker that throws: fall back to the page's lang */ }
    return document.documentElement.lang || 'en';
  }

  function figure(kind) {
    function mount(host, config) {
      // A custom-element name, so the host's div rules miss it, and inline `all: initial
      // !important`, which outranks any host rule that matches it anyway (custom properties, the
      // course's theme, still inherit through it).
      const holder = document.createElement(TAG);
      holder.className = 'dualpipe-lab-figure';
      holder.style.setProperty('all', 'initial', 'important');
      holder.style.setProperty('display', 'block', 'important');
      const shadow = holder.attachShadow({ mode: 'open' });
      const box = document.createElement('div');
      box.setAttribute('aria-busy', 'true');
      box.textContent = 'Loading the DualPipe simulator…';
      for (const [property, value] of [['border', '1px solid var(--rule-soft, #d4d2c8)'], ['margin', '28px 0'], ['padding', '16px'],
        ['min-height', '120px'], ['color', 'var(--ink-mute, #63646b)'], ['font', '14px system-ui, sans-serif']]) box.style.setProperty(property, value);
      shadow.appendChild(box);
      host.appendChild(holder);
      const spec = host.getAttribute('data-figure') || '';
      const lang = courseLang();
      let view = null;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        stopWaiting(holder);
        if (view) view.destroy();
        view = null;
      };
      holder.dplRelease = release;
      whenNear(holder, () => {
        load().then((m) => {
          if (released) return;
          box.remove();
          view = m.mountFigure(kind, shadow, config || {}, spec, { lang, styles: urls.styles, fonts: urls.fonts });
        }, (error) => {
          if (released) return;
          box.removeAttribute('aria-busy');
          box.setAttribute('role', 'alert');
          box.textContent = 'The DualPipe widget could not load: ' + (error && error.message ? error.message : error);
        });
      });
      return {
        update(next) { if (view) view.update(Object.assign({}, next, { widget: kind })); },
        destroy() { release(); holder.remove(); },
      };
    }
    mount.mount = mount;
    return mount;
  }

  if (!window.LF) {
    const figures = {};
    window.LF = {
      figures,
      register(map) {
        for (const name in map) if (Object.prototype.hasOwnProperty.call(map, name)) figures[name] = map[name];
      },
      /* Mounts every <div class="lesson-figure" data-figure="name ..."> under root, as the course does. */
      mountAll(root) {
        for (const host of (root || document).querySelectorAll('.lesson-figure[data-figure]')) {
          if (host.dataset.lfMounted) continue;
          const spec = host.dataset.figure.trim();
          const name = spec.split(/\s+/)[0];
          const rest = spec.slice(name.length).trim();
          let config = {};
          if (rest) { try { config = JSON.parse(rest); } catch (e) { config = {}; } }
          if (!figures[name]) continue;
          figures[name](host, config);
          host.dataset.lfMounted = '1';
        }
      },
    };
  }
  window.LF.register({ 'dualpipe-schedule': figure('timeline'), 'dualpipe-sweep': figure('sweep') });
})();
