// A view whose code (and stylesheet: loadStyle) is fetched on first use, so the landing page does
// not pay for it (the page's payload goal is < 300 KB gzipped; the planner and the exercises are
// below the fold or behind a tab). Same contract as a view: mount(element, deps) -> {update(state), destroy()}. Updates that
// arrive while the module loads are kept and the last one replayed once it is mounted.
import { h, errorBox } from './dom.js';

const styles = new Map(); // href -> Promise, resolved once the sheet has loaded

/** Adds the stylesheet `href` to the document once; resolves when it applies (a view mounts styled). */
export function loadStyle(href) {
  if (!styles.has(href)) {
    styles.set(href, new Promise((resolve, reject) => {
      const link = h('link', { rel: 'stylesheet', href });
      link.addEventListener('load', () => resolve(), { once: true });
      link.addEventListener('error', () => { styles.delete(href); link.remove(); reject(new Error(`${href} could not be loaded`)); }, { once: true });
      document.head.append(link);
    }));
  }
  return styles.get(href);
}

/**
 * @param {() => Promise<{mount: Function}>} load  e.g. () => import('../views/planner.js')
 * @param {HTMLElement} element
 * @param {object} deps  passed to the module's mount(); deps.t gives the loading and error texts
 * @param {{loadingKey?: string}} [options]
 */
export function lazyView(load, element, deps, { loadingKey = 'page.loading' } = {}) {
  let view = null;
  let lastState;
  let alive = true;
  const placeholder = h('p', { class: 'lesson-loading-inline', role: 'status', text: deps.t(loadingKey) });
  element.append(placeholder);
  load().then(
    (module) => {
      if (!alive) return;
      placeholder.remove();
      view = module.mount(element, deps);
      if (lastState !== undefined) view.update(lastState);
    },
    (error) => {
      if (alive) placeholder.replaceWith(errorBox(error, deps.t('page.viewLoadError')));
    },
  );
  return {
    update(state) {
      lastState = state;
      view?.update(state);
    },
    destroy() {
      alive = false;
      view?.destroy();
      placeholder.remove();
    },
  };
}
