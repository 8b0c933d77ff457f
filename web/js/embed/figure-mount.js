// The ES-module half of the course figure widget: figure-widget.js (a classic script) imports this
// on first use and calls mountFigure for each ```figure dualpipe-schedule ...``` block, with the
// shadow root it made inside the course's host. The figure wears the course's frame (a bordered
// box, a mono uppercase label row in --blueprint, as the course's own figures): drawn from the
// host's variables when it defines them, from its own fallbacks otherwise (css/figure.css).
import { mountWidget, simulator } from './widget-kit.js';
import { translator, loadLanguage } from '../lib/i18n.js';
import { figureConfig } from '../lib/figure-spec.js';
import { h } from '../ui/dom.js';
import { ensureDevanagariFont } from '../ui/fonts.js';

const STYLES = ['../../css/widgets.css', '../../css/figure.css'].map((path) => new URL(path, import.meta.url).href);

/** Adds the widget's stylesheets to `shadow`; resolves when they have loaded (or failed). */
function adoptStyles(shadow) {
  return Promise.all(STYLES.map((href) => new Promise((resolve) => {
    const link = h('link', { rel: 'stylesheet', href });
    link.addEventListener('load', resolve);
    link.addEventListener('error', resolve);
    shadow.append(link);
  })));
}

/** Relative luminance of a computed `rgb(...)` colour, 0 (black) to 1 (white); null if unreadable. */
function luminance(rgb) {
  const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(rgb || '');
  if (!m) return null;
  const [r, g, b] = m.slice(1, 4).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Follows the host page's theme: a light text colour inherited from the page means a dark theme
 * (whatever the page calls it), so the widget's own accent tones switch to their dark set.
 */
function followTheme(holder, root) {
  const apply = () => {
    const l = luminance(getComputedStyle(holder).color);
    root.classList.toggle('dpl-on-dark', l !== null && l > 0.5);
  };
  apply();
  const watch = new MutationObserver(apply);
  for (const el of [document.documentElement, document.body]) watch.observe(el, { attributes: true, attributeFilter: ['class', 'data-theme', 'style'] });
  const scheme = matchMedia('(prefers-color-scheme: dark)');
  scheme.addEventListener('change', apply);
  return () => { watch.disconnect(); scheme.removeEventListener('change', apply); };
}

/**
 * kind: 'timeline' | 'sweep'; shadow: the figure's shadow root; given: the course's parsed config
 * ({} when its JSON.parse failed); spec: the host's data-figure text.
 */
export function mountFigure(kind, shadow, given, spec) {
  const lang = (document.documentElement.lang || 'en').toLowerCase().startsWith('hi') ? 'hi' : 'en';
  if (lang === 'hi') ensureDevanagariFont(document);
  const { config, ignored } = figureConfig(given, spec);
  const body = h('div', { class: 'dpl-frame-body' });
  const label = h('span', { class: 'dpl-frame-label' });
  const hint = h('span', { class: 'dpl-frame-hint' });
  const notice = ignored.length ? h('p', { class: 'dpl-frame-note', role: 'status' }) : null;
  const frame = h('figure', { class: 'dpl dpl-frame', lang }, [h('figcaption', { class: 'dpl-frame-head' }, [label, hint]), notice, body]);
  frame.hidden = true; // until its styles and strings are in: no flash of unstyled or English text
  shadow.append(frame);
  // The theme is read from the course's element: the holder inside it resets inherited colour.
  const stopTheme = followTheme(shadow.host.parentElement ?? shadow.host, frame);
  let view = null;
  let destroyed = false;
  simulator().catalogue?.(); // start the simulator while the styles load
  // A pack that fails to load leaves the figure in English (translator's fallback).
  Promise.all([adoptStyles(shadow), loadLanguage(lang).catch(() => {})]).then(() => {
    if (destroyed) return;
    const t = translator(lang);
    label.textContent = t(`fig.label.${kind}`);
    hint.textContent = t(`fig.hint.${kind}`);
    if (notice) notice.textContent = t('fig.ignored', { words: ignored.join(' ') });
    frame.hidden = false;
    view = mountWidget(body, { lang, ...config, widget: kind });
  });
  return {
    update(next) { view?.update({ lang, ...next, widget: kind }); },
    destroy() {
      destroyed = true;
      stopTheme();
      view?.destroy();
      frame.remove();
    },
  };
}
