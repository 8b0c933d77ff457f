// Lesson reader: loads the lesson rendered at build time (web/generated/lessons/<name>.<lang>.html),
// mounts a live widget into every placeholder the build left in it, and fills every quoted number
// with the value the simulator computes (a ```memory``` fence's with the memory model's), flagging any that differ from the text. Every widget runs
// its own settings, shown and changed where it stands (nothing outside the lesson sets them): a
// widget the learner has changed reports its run, and the numbers quoting its id follow it.
// A heading the lesson marks as an optional deep dive says so (markDeepDives).
// The fragment's first layout is long (a dozen widgets, every section): when the lesson opens with
// a widget, the sections after its opening stay out of the layout (`is-opening`) until that widget
// is drawn and painted, so the first screen does not wait for the whole lesson's layout.
// mount(element, deps) -> { update(state), destroy() }
//   deps.t   deps.sim.simulate, deps.sim.memory   deps.lesson (name, default "dualpipe")   deps.fetchText?(url)
//   deps.openAtTop?() -> boolean   false when the page will scroll into the lesson at once (a link
//     to an exercise): then the whole lesson is laid out from the start
//   deps.mounters: [{ selector, mount(el, ctx) -> {update(ctx), destroy()} }]. The app registers the
//     timeline for `.sim-widget`; exercise widgets register their own selector the same way.
//     ctx.onRun(id, config | null) tells the reader a widget now runs `config` (null: its text's).
//     ctx.lead is the lesson's first widget element: it starts at once, before the numbers' runs.
// state: { lang }
import { h, clear, prefersReducedMotion } from '../ui/dom.js';
import { formatLike, readPath } from '../lib/format.js';
import { lessonTextPath } from '../lib/first-view.js';
import { lessonLang, languageName } from '../lib/locales.js';
import { parseTraceText } from '../lib/trace-text.js';
import { createTraceGrid } from '../ui/trace-grid.js';
import { labelCells } from '../ui/table-labels.js';

// The longest the rest of the lesson waits for its first widget (a worker still loading, say).
const OPENING_HOLD_MS = 600;

export function mount(element, deps) {
  const t = deps.t;
  const lesson = deps.lesson;  // undefined: the course's lesson (lessonTextPath's default)
  const fetchText = deps.fetchText || (async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    return response.text();
  });
  const root = h('article', { class: 'lesson', 'aria-busy': 'true' });
  element.append(root);

  let lang = null;
  let widgets = []; // { view, el }
  let traces = []; // the trace grids of the lesson's trace text blocks
  let configs = new Map(); // sim id -> config written in the lesson
  let memories = new Map(); // memory id -> the memory model's request written in the lesson
  const runs = new Map(); // sim id -> the config its widget runs instead, after the learner changed it
  let token = 0;
  let reveal = null; // shows the sections held back while the first widget is drawn (see load)

  async function load(nextLang) {
    const mine = ++token;
    root.setAttribute('aria-busy', 'true');
    root.classList.remove('is-opening');
    destroyWidgets();
    clear(root).append(h('p', { class: 'lesson-loading', text: t('lesson.loading') }));
    const url = (l) => new URL(lessonTextPath(l, lesson), document.baseURI).href;
    let html;
    let fellBack = false;
    try {
      html = await fetchText(url(nextLang));
    } catch (error) {
      if (lessonLang(nextLang) !== 'en') {
        try { html = await fetchText(url('en')); fellBack = true; } catch { /* reported below */ }
      }
      if (html === undefined) {
        if (mine !== token) return;
        clear(root).append(h('div', { class: 'dpl-error', role: 'alert' }, [
          h('strong', { text: t('lesson.missing') }), h('p', { text: String(error.message || error) }),
        ]));
        root.setAttribute('aria-busy', 'false');
        return;
      }
    }
    if (mine !== token) return;
    // The fragment is our own build output (markdown-it, raw HTML disabled); parse it without
    // innerHTML and drop anything executable anyway.
    const doc = new DOMParser().parseFromString(html, 'text/html');
    doc.querySelectorAll('script, iframe, object, embed').forEach((n) => n.remove());
    clear(root);
    // The text's own language, for its fonts and for screen readers (English inside a Spanish page).
    root.lang = fellBack ? 'en' : lessonLang(nextLang);
    root.append(...[...doc.body.childNodes].map((n) => document.importNode(n, true)));
    // The lesson's text is written in fewer languages than the page speaks: in another, it is
    // the English text, and the page says so in its own language, under the opening figure (above
    // it, three or four lines pushed the figure's lanes below the first screen).
    const note = fellBack ? t('lesson.fallback') : lessonLang(nextLang) !== nextLang ? t('lesson.textLangs', { language: languageName(nextLang) }) : null;
    if (note) {
      const opening = root.querySelector(':scope > .sim-widget');
      const firstSection = root.querySelector(':scope > h2');
      const after = opening && !(firstSection && firstSection.compareDocumentPosition(opening) & Node.DOCUMENT_POSITION_FOLLOWING) ? opening : null;
      const p = h('p', { class: 'lesson-note', lang: nextLang, text: note });
      if (after) after.after(p); else root.prepend(p);
    }
    numberFigures();
    markDeepDives();
    reflow();
    const lead = root.querySelector('.sim-widget[data-sim-id]');
    const firstSection = root.querySelector(':scope > h2');
    if (lead && firstSection && (deps.openAtTop?.() ?? true)) {
      // What sits in the held sections is mounted when they are shown, in the same task.
      const held = (el) => el === firstSection || Boolean(firstSection.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
      holdRest(lead.dataset.simId, mine, mountWidgets(held));
    } else {
      root.setAttribute('aria-busy', 'false');
      mountWidgets();
    }
    fillNumbers();
  }

  /**
   * Keeps the sections after the opening out of the layout until the widget `id` has drawn its
   * first run and that frame is painted (at most OPENING_HOLD_MS), then mounts what they hold
   * (`mountRest`) and lays them out.
   */
  function holdRest(id, mine, mountRest) {
    root.classList.add('is-opening');
    let timer = 0;
    let shown = false; // the timer and the widget's frame may both call show: the first one counts
    const show = () => {
      clearTimeout(timer);
      if (reveal === ready) reveal = null;
      if (shown || mine !== token) return;
      shown = true;
      mountRest();
      root.classList.remove('is-opening');
      root.setAttribute('aria-busy', 'false');
    };
    timer = setTimeout(show, OPENING_HOLD_MS);
    // The widget reports its run before the timeline draws it (in the same task): the frame after.
    const ready = (ranId) => { if (ranId === id) requestAnimationFrame(() => setTimeout(show, 0)); };
    reveal = ready;
  }

  /**
   * What would scroll sideways in its box on a phone reflows instead: a slot-by-slot trace (a text
   * block with a "slot" header) becomes blocks of as many slots as fit (ui/trace-grid.js); a
   * table's cells get their column's heading, so css/lesson.css can stack its rows as cards.
   */
  function reflow() {
    for (const code of root.querySelectorAll('pre > code.language-text')) {
      const trace = parseTraceText(code.textContent);
      if (!trace) continue;
      const grid = createTraceGrid(trace, { t });
      traces.push(grid);
      code.parentElement.replaceWith(grid.element);
    }
    root.querySelectorAll('table').forEach(labelCells);
  }

  /**
   * Numbers the lesson's widgets in order ("Figure 3", shown in each widget's controls) and turns
   * the text's mentions of a widget by its id (`fb24` in code) into a link to it: a learner reads
   * "figure 7", never a widget id.
   */
  function numberFigures() {
    const numbers = new Map();
    root.querySelectorAll('.sim-widget[data-sim-id]').forEach((el, i) => {
      el.dataset.figure = String(i + 1);
      el.id = `figure-${i + 1}`;
      numbers.set(el.dataset.simId, i + 1);
    });
    for (const code of root.querySelectorAll('code')) {
      const n = numbers.get(code.textContent.trim());
      if (!n || code.closest('pre')) continue;
      code.replaceWith(h('a', { class: 'fig-ref', href: `#figure-${n}`, dataset: { figure: n }, text: t('lesson.figureRef', { n }) }));
    }
  }

  /**
   * An optional deep dive's heading (class is-optional, from the build; its body is wrapped in
   * div.deep-dive) says so in the page's language: the core path reads on past it.
   */
  function markDeepDives() {
    for (const heading of root.querySelectorAll('.is-optional')) {
      heading.append(' ', h('span', { class: 'deep-dive-tag', text: t('lesson.optional') }));
    }
  }

  // A figure link scrolls to its widget and puts the focus on its first control (the address,
  // which holds the page's state, is left alone).
  root.addEventListener('click', (event) => {
    const link = event.target.closest('a.fig-ref');
    if (!link) return;
    event.preventDefault();
    const figure = root.querySelector(`#figure-${link.dataset.figure}`);
    figure?.scrollIntoView({ block: 'start', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    figure?.querySelector('select, input')?.focus({ preventScroll: true });
  });

  /** A widget's new run: the numbers quoting its id follow (and say they moved from the text). */
  function onRun(id, config) {
    reveal?.(id);
    const before = JSON.stringify(runs.get(id) ?? null);
    if (config) runs.set(id, config); else runs.delete(id);
    if (JSON.stringify(config ?? null) !== before) fillNumbers();
  }

  /**
   * Mounts every mounter's elements, except those `later(el)` holds back; returns a function that
   * mounts those.
   */
  function mountWidgets(later = null) {
    configs = new Map();
    memories = new Map();
    runs.clear();
    root.querySelectorAll('.sim-widget[data-sim-id]').forEach((el) => {
      try { configs.set(el.dataset.simId, JSON.parse(el.dataset.config)); } catch { /* shown by the widget */ }
    });
    root.querySelectorAll('.memory-widget[data-memory-id]').forEach((el) => {
      try { memories.set(el.dataset.memoryId, JSON.parse(el.dataset.request)); } catch { /* shown by the widget */ }
    });
    // The first widget is known from the fragment: it asks for its run now, so the worker answers
    // it before the quoted numbers (fillNumbers runs after this) and before the fragment's layout.
    const lead = root.querySelector('.sim-widget[data-sim-id]');
    const mountOne = (mounter, el) => {
      const ctx = { lang, configs, memories, t, onRun, lead };
      try {
        const view = mounter.mount(el, ctx);
        widgets.push({ view, el });
      } catch (error) {
        el.replaceChildren(h('div', { class: 'dpl-error', role: 'alert' }, [h('p', { text: String(error.message || error) })]));
      }
    };
    const deferred = [];
    for (const mounter of deps.mounters || []) {
      root.querySelectorAll(mounter.selector).forEach((el) => {
        if (later?.(el)) deferred.push([mounter, el]);
        else mountOne(mounter, el);
      });
    }
    return () => { for (const [mounter, el] of deferred) mountOne(mounter, el); };
  }

  function destroyWidgets() {
    for (const w of widgets) w.view.destroy();
    widgets = [];
    for (const grid of traces) grid.destroy();
    traces = [];
  }

  /** Every {{id.field|quoted}} placeholder gets the live value; a differing quote is flagged. */
  async function fillNumbers() {
    const mine = token;
    const spans = [...root.querySelectorAll('.sim-number[data-ref]')];
    const results = new Map();
    await Promise.all([...new Set(spans.map((s) => s.dataset.ref.split('.')[0]))].map(async (id) => {
      // A ```memory``` fence: the memory model's request, which the costs do not touch.
      const memory = memories.get(id);
      if (memory) {
        try { results.set(id, await deps.sim.memory(memory)); } catch (error) { results.set(id, error); }
        return;
      }
      const config = runs.get(id) ?? configs.get(id) ?? null;
      if (!config) return;
      try { results.set(id, await deps.sim.simulate(config)); } catch (error) { results.set(id, error); }
    }));
    if (mine !== token) return;
    for (const span of spans) {
      const [id, ...path] = span.dataset.ref.split('.');
      const quoted = span.dataset.quoted || '';
      const result = results.get(id);
      span.classList.remove('is-changed', 'is-mismatch', 'is-error');
      span.querySelector('.sim-number-quoted')?.remove();
      const value = result instanceof Error || !result ? undefined : readPath(result, path.join('.'));
      if (typeof value !== 'number') {
        // No live value (unknown id or field, or a config the simulator rejects): keep the quote, flagged.
        span.classList.add('is-error');
        span.title = t('lesson.numberMissing', { ref: span.dataset.ref });
        span.replaceChildren(quoted || '?');
        continue;
      }
      // A run on per-stage costs (a layer split's estimates) is quoted at the quote's precision.
      const estimate = Array.isArray((runs.get(id) ?? configs.get(id))?.stageCosts);
      const live = formatLike(value, quoted, path[path.length - 1], { estimate });
      const valueNode = span.querySelector('.sim-number-value') || h('span', { class: 'sim-number-value' });
      valueNode.textContent = live;
      if (!valueNode.isConnected) span.replaceChildren(valueNode);
      span.dataset.live = live;
      if (quoted && live !== quoted) {
        // With the text's settings a difference is a slip in the text; with the learner's widget
        // settings it is the point of the exercise. Either way both numbers stay visible.
        const learners = runs.has(id);
        span.classList.add(learners ? 'is-changed' : 'is-mismatch');
        span.append(h('span', { class: 'sim-number-quoted', text: t('lesson.quoted', { q: quoted }) }));
        span.title = t(learners ? 'lesson.changed' : 'lesson.mismatch', { q: quoted, v: live });
      } else {
        span.removeAttribute('title');
      }
    }
  }

  return {
    update(state) {
      if (state.lang !== lang) {
        lang = state.lang;
        load(lang);
      }
    },
    destroy() {
      token += 1;
      reveal = null;
      destroyWidgets();
      root.remove();
    },
  };
}
