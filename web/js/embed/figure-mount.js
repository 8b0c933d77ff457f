// The ES-module half of the course figure widget: figure-widget.js (a classic script) imports this
// once a figure comes near the viewport and calls mountFigure for each ```figure dualpipe-schedule
// ...``` block, with the shadow root it made inside the course's host. The figure wears the
// course's frame (a bordered box, a mono uppercase label row in --blueprint, as the course's own
// figures): drawn from the host's variables when it defines them, from its own fallbacks
// otherwise (css/figure.css). It speaks the course's language when the lab has its strings
// (lib/locales.js), else English, and draws with the web font of the course language's script.
import { mountWidget, holdSimulator } from './widget-kit.js';
import { translator, loadLanguage } from '../lib/i18n.js';
import { figureConfig } from '../lib/figure-spec.js';
import { localeOf, spokenLang, scriptOf } from '../lib/locales.js';
import { h } from '../ui/dom.js';
import { fontFor, stackEntry, addFontStylesheet, fontLoaded } from './locale-fonts.js';

/** The lab's name, as English writes it (app.title): a name, the same in every language. */
const BRAND = translator('en')('app.title');

/**
 * A label's text with the lab's name, where it appears as written in English, in a span of its
 * own language: the head is set in capitals, and capitals by the rules of the figure's language
 * would write a Turkish "DUALPİPE LAB".
 */
function brandMarked(text) {
  const at = text.indexOf(BRAND);
  if (at < 0) return [text];
  return [text.slice(0, at), h('span', { lang: 'en', class: 'dpl-brand', text: BRAND }), text.slice(at + BRAND.length)].filter((part) => part !== '');
}

/** Adds the stylesheets `hrefs` to `shadow`; resolves when they have loaded (or failed). */
function adoptStyles(shadow, hrefs) {
  return Promise.all(hrefs.map((href) => new Promise((resolve) => {
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
 * ({} when its JSON.parse failed); spec: the host's data-figure text. options: lang, the course's
 * language tag; styles, the widget's stylesheet URLs; fonts, the URL of the fonts folder.
 * Returns {update(next), destroy()}; destroy() lets go of everything the figure holds.
 */
export function mountFigure(kind, shadow, given, spec, { lang: courseLang = 'en', styles, fonts }) {
  const lang = spokenLang(courseLang);
  // The font follows the course's language, so text in its script never falls back to a box.
  const font = fontFor(courseLang, fonts);
  const fontSheet = font ? addFontStylesheet(font.href) : Promise.resolve();
  const { config, ignored } = figureConfig(given, spec);
  const body = h('div', { class: 'dpl-frame-body' });
  const label = h('span', { class: 'dpl-frame-label' });
  const hint = h('span', { class: 'dpl-frame-hint' });
  const notice = ignored.length ? h('p', { class: 'dpl-frame-note', role: 'status' }) : null;
  // The course's caption line under a figure: what to look at (the keys are behind the widget's
  // own help toggle).
  const caption = h('p', { class: 'dpl-frame-cap' });
  // dir is set, not inherited: the shadow host's `all: initial` leaves direction to the course.
  const frame = h('figure', { class: 'dpl dpl-frame', lang, dir: localeOf(lang).dir, dataset: { script: scriptOf(lang) } }, [h('figcaption', { class: 'dpl-frame-head' }, [label, hint]), notice, body, caption]);
  frame.style.setProperty('--dpl-script-font', stackEntry(font));
  frame.hidden = true; // until its styles, strings and font are in: no flash of unstyled, English or boxed text
  shadow.append(frame);
  // The theme is read from the course's element: the holder inside it resets inherited colour.
  const stopTheme = followTheme(shadow.host.parentElement ?? shadow.host, frame);
  const simulator = holdSimulator();
  simulator.sim.catalogue?.(); // start the simulator while the styles load
  let view = null;
  let destroyed = false;
  // A pack that fails to load leaves the figure in English (translator's fallback).
  Promise.all([adoptStyles(shadow, styles), loadLanguage(lang).catch(() => {}), fontSheet]).then(() => {
    if (destroyed) return undefined;
    const t = translator(lang);
    label.replaceChildren(...brandMarked(t(`fig.label.${kind}`)));
    hint.textContent = t(`fig.hint.${kind}`);
    caption.textContent = t(`fig.caption.${kind}`);
    if (notice) notice.textContent = t('fig.ignored', { words: ignored.join(' ') });
    return fontLoaded(font, frame.textContent);
  }).then(() => {
    if (destroyed) return;
    frame.hidden = false;
    view = mountWidget(body, { lang, ...config, widget: kind }, { dense: true });
  });
  return {
    update(next) { view?.update({ lang, ...next, widget: kind }); },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      stopTheme();
      view?.destroy();
      simulator.release();
      frame.remove();
    },
  };
}
