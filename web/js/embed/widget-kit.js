// One entry point for every embed (embed.html, the course's figure system, <dualpipe-timeline>):
// turns loose parameters (URL query, element attributes, a figure's JSON config) into a widget
// state, through state.js's parameter table (its keys and embed aliases), and mounts the
// timeline or sweep view with a shared simulator client.
import { createSimClient } from '../lib/sim-client.js';
import { withCache } from '../lib/sim-cache.js';
import { translator, loadLanguage, isLoaded } from '../lib/i18n.js';
import { parseParams, paramsFrom, configOf, comparedSchedules, quoteValue } from '../state.js';
import { h, errorBox } from '../ui/dom.js';
import { laneTitle } from '../lib/schedules.js';
import { localeOf, scriptOf } from '../lib/locales.js';
import { FONT_SETS } from '../lib/font-sets.js';
import { stackEntry } from './locale-fonts.js';
import * as timelineView from '../views/timeline.js';
import * as sweepView from '../views/sweep-chart.js';

export const WIDGETS = ['timeline', 'sweep'];

// One simulator (one worker) per page, however many widgets it embeds: started by the first
// widget that holds it and stopped when the last one lets go, so widgets a host removes (the
// course replacing its article on a language switch) leave no worker behind. It runs the figures'
// build of the module (pipesim.js's MODULE_BUILDS), about half the full one: the timeline and
// sweep views call nothing else.
let shared = null; // {client, sim, holders}

/**
 * Holds the page's simulator: returns {sim, release()}. `sim` is the cached client every widget
 * shares; release() (once per hold) stops its workers when no widget holds it any more.
 */
export function holdSimulator() {
  if (!shared) {
    const client = createSimClient({ build: 'figures' });
    shared = { client, sim: withCache(client), holders: 0 };
  }
  const held = shared;
  held.holders += 1;
  let released = false;
  return {
    sim: held.sim,
    release() {
      if (released) return;
      released = true;
      held.holders -= 1;
      if (held.holders > 0) return;
      held.client.terminate();
      if (shared === held) shared = null;
    },
  };
}

/**
 * Mounts a widget into `element`. `defaults.widget` picks the kind when the parameters do not;
 * `defaults.dense` draws a timeline's lanes in dense rows (the course's figure frame).
 * Returns {update(input), destroy()}. Bad parameters show their message in place of the widget.
 */
export function mountWidget(element, input, defaults = {}) {
  const root = h('div', { class: 'dpl dpl-embed' });
  element.append(root);
  const simulator = holdSimulator();
  let view = null;
  let kind = null;
  let lang = null;
  let latest = input;
  let destroyed = false;
  let packFailed = false;

  function render(raw) {
    latest = raw;
    if (destroyed) return;
    const params = paramsFrom(raw);
    const widget = params.get('widget') || defaults.widget || 'timeline';
    const { state, errors } = parseParams(params);
    // A widget in another language draws once its strings are in; if they fail, in English.
    if (!isLoaded(state.lang) && !packFailed) {
      loadLanguage(state.lang).catch(() => { packFailed = true; }).then(() => render(latest));
      return;
    }
    const t = translator(state.lang);
    // A pinned theme (theme=light|dark) wins over the host page's; "auto" follows the host.
    root.classList.toggle('dpl-theme-light', state.theme === 'light');
    root.classList.toggle('dpl-theme-dark', state.theme === 'dark');
    root.lang = state.lang;
    root.dir = localeOf(state.lang)?.dir ?? 'ltr'; // its own, whatever the host page's direction
    root.dataset.script = scriptOf(state.lang); // for the CSS its script's letters need
    // Its script's web font first in its stack (widgets.css), whatever the host's --font-body:
    // declared in the host page by the element or the embed page (embed/locale-fonts.js).
    root.style.setProperty('--dpl-script-font', stackEntry(FONT_SETS[localeOf(state.lang)?.font] ?? null));
    if (!WIDGETS.includes(widget)) {
      view?.destroy();
      view = null;
      kind = null;
      root.replaceChildren(errorBox({ code: 'invalid_config', message: t('embed.badWidget', { w: quoteValue(widget) }), path: '/widget' }, t('error.heading')));
      return;
    }
    if (widget !== kind || state.lang !== lang) {
      view?.destroy();
      root.replaceChildren();
      const deps = { sim: simulator.sim, t, dense: Boolean(defaults.dense) };
      view = widget === 'sweep' ? sweepView.mount(root, deps) : timelineView.mount(root, deps);
      kind = widget;
      lang = state.lang;
    }
    root.querySelector(':scope > .dpl-notice')?.remove();
    if (errors.length) {
      root.prepend(h('div', { class: 'dpl-notice', role: 'status' }, [
        h('p', { text: t('page.paramError') }), ...errors.map((e) => h('p', { text: t(e.rule, e.params) })),
      ]));
    }
    if (widget === 'sweep') {
      view.update({ ranks: state.ranks, microbatches: state.microbatches, chunks: state.chunks, costs: state.costs, axis: state.axis, table: state.table });
    } else {
      const configs = [configOf(state)];
      for (const name of comparedSchedules(state)) configs.push(configOf(state, name));
      const titles = configs.map((c) => laneTitle(c, t));
      view.update({ configs, titles, t: state.t, table: state.table, speed: state.speed, streams: state.streams, memory: state.memory });
    }
  }

  render(input);
  return {
    update: render,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      view?.destroy();
      root.remove();
      simulator.release();
    },
  };
}

/** Adds widgets.css (resolved against `base`, a module or script URL) once per document. */
export function ensureStylesheet(base, path = '../../css/widgets.css') {
  const href = new URL(path, base).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.dataset.dualpipeLab = '';
  document.head.append(link);
}
