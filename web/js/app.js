// Wires the page: state from the URL hash, the simulator client, and the views (lesson reader,
// timeline explorer, sweep, schedule form, cost controls). Views never import each other; this
// file hands each one what it needs and forwards their changes to the store.
import { takeLessonText, pageFontsReady } from './boot.js';
import { parseParams, createStore, bindHash, configOf, explorerRuns, comparedSchedules, serializeState, sameValue, problemText } from './state.js';
import { translator, loadLanguage, isLoaded, LOAD_FAILED } from './lib/i18n.js';
import { withCache } from './lib/sim-cache.js';
import { createSimClient } from './lib/sim-client.js';
import FIRST_RUNS from '../generated/first-runs.js';
import { h } from './ui/dom.js';
import { lazyView, loadStyle } from './ui/lazy-view.js';
import * as timelineView from './views/timeline.js';
import * as costView from './views/cost-controls.js';
import * as stageCostView from './views/stage-costs.js';
import * as formView from './views/config-form.js';
import * as memoryControls from './views/memory-controls.js';
import * as lessonView from './views/lesson-reader.js';
import * as lessonWidget from './views/lesson-widget.js';
import * as pairTable from './views/pair-table.js';
import * as memoryTable from './views/memory-table.js';
import { gateTimeline } from './ui/stale-gate.js';
import { explain } from './ui/field-error.js';
import { createScrollMemory } from './ui/scroll-memory.js';
import { createActivities } from './lesson-activities.js';
import { createProgress } from './lib/progress.js';
import { initialLang, rememberLang, localStore } from './lib/lang-pref.js';
import { lessonTextPath } from './lib/first-view.js';
import { LANGS, DEFAULT_LANG, localeOf, languageName, scriptOf } from './lib/locales.js';
import { formatNumber } from './lib/format.js';
import { fontFor, stackEntry, addFontStylesheet } from './embed/locale-fonts.js';
import { prefersReducedMotion } from './ui/dom.js';
import { SCHEDULE_NAMES, chunkedSchedule, scheduleTitle, laneTitle as titleOfLane } from './lib/schedules.js';

const $ = (sel) => document.querySelector(sel);

const initial = parseParams(location.hash);
// The language: #lang=, then ?lang=, then the learner's remembered choice (lib/lang-pref.js).
initial.state.lang = initialLang({ hash: location.hash, search: location.search, storage: localStore() }).lang;
const store = createStore(initial.state);
const progress = createProgress({ storage: localStore() });
let activities = null;
let fieldErrors = {};
const failedLangs = new Set(); // languages whose strings did not load: shown in English
// A Hindi page fetches its strings now, beside the lesson text; start() waits for them.
const initialLangReady = loadLanguage(initial.state.lang).catch(() => failedLangs.add(initial.state.lang));
let t = translator(DEFAULT_LANG);
let sim = null;
let views = {}; // name -> view, mounted on first show
const scrollMemory = createScrollMemory(window);
let mountedLang = null;
// Costs taken from a profiler trace (views/trace-import.js): {name, costs, lines}. The settings say
// where their costs came from while they are these; the address holds the costs, not the trace.
let costSource = null;

function showNotice(errors, heading) {
  const notice = $('#page-notice');
  if (!errors.length) {
    notice.hidden = true;
    return;
  }
  notice.replaceChildren(h('p', { text: heading }), h('ul', {}, errors.map((e) => h('li', { text: problemText(e, t) }))));
  notice.hidden = false;
}

function applyTheme(theme) {
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  $('#pref-theme').value = theme;
}

/**
 * When `lang`'s strings did not load: says so in English and in that language, with a button
 * that reloads the page, which starts it over in that language: the strings, the lesson text and
 * the views (whether a browser fetches a module again that failed once, short of a reload, varies).
 */
function showLangNotice(lang) {
  const notice = $('#lang-notice');
  const own = LOAD_FAILED[lang];
  if (!failedLangs.has(lang) || !own) {
    notice.hidden = true;
    return;
  }
  const retry = () => location.reload();
  // Each line names the language in its own words ("Spanish", "español").
  const fill = (text, inLang) => text.replace('{language}', languageName(lang, inLang));
  notice.replaceChildren(
    h('p', { lang: 'en', text: t('page.langFailed', { language: languageName(lang, 'en') }) }),
    h('p', { lang, text: fill(own.text, lang) }),
    h('button', { type: 'button', class: 'dpl-fix', onclick: retry }, [h('span', { lang: 'en', text: t('page.langRetry') }), ' · ', h('span', { lang, text: own.retry })]),
  );
  notice.hidden = false;
}

/** The language picker offers every language the lab speaks (lib/locales.js: those with a catalogue), each in its own name. */
function fillLangPicker() {
  $('#pref-lang').replaceChildren(...LANGS.map((code) => h('option', { value: code, lang: code, text: localeOf(code).native })));
}

/**
 * The web font of the language's script (lib/font-sets.js, named by lib/locales.js), first in the
 * page's stacks, so a machine without a font for the script draws no boxes; and, where the page's
 * own stylesheets do not declare it (they declare Devanagari alone, css/fonts.css), its set's
 * stylesheet, as the course figure adds it (embed/locale-fonts.js). Only on a page in that
 * script: in a stack, a web font costs a second font lookup per size and weight even where it
 * draws no letter (traced, the English lesson's first screen: 46 -> 24 lookups).
 */
function applyFont(lang) {
  const font = fontFor(lang, new URL('generated/fonts/', document.baseURI));
  const style = document.documentElement.style;
  const declared = font && [...document.fonts].some((face) => face.family.replace(/^["']|["']$/g, '') === font.family);
  if (!font) {
    style.removeProperty('--font-body');
    style.removeProperty('--font-mono');
    return;
  }
  style.setProperty('--font-body', `${stackEntry(font)} var(--font-system)`);
  style.setProperty('--font-mono', `ui-monospace, Menlo, Consolas, ${stackEntry(font)} monospace`);
  if (!declared) addFontStylesheet(font.href);
}

function applyLang(lang) {
  // Kept when its strings did not load: the lesson's text is still in it, and draws in its font.
  document.documentElement.lang = lang;
  // Its direction with it: a right-to-left language mirrors the page (css/: logical properties),
  // not its plots (ui/dom.js PLOT_DIR).
  document.documentElement.dir = localeOf(lang)?.dir ?? 'ltr';
  // Its script, for the CSS its letters need (css/: [data-script]).
  document.documentElement.dataset.script = scriptOf(lang);
  applyFont(lang);
  $('#pref-lang').value = lang;
  document.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll('[data-i18n-label]').forEach((el) => el.setAttribute('aria-label', t(el.dataset.i18nLabel)));
  document.title = t('app.title');
}

const laneTitle = (c, options) => titleOfLane(c, t, options);

/** Records which field a SimError blames (its JSON pointer), for the form and cost controls. */
function onSimError(error, index) {
  const next = {};
  // A compared schedule's error goes under the compare control, with the schedule it is about.
  if (error) next[index >= 1 ? 'compare' : error.path || '/'] = index >= 1 ? Object.assign(error, { comparedSchedule: comparedSchedules(store.get())[index - 1] }) : error;
  const key = (errors) => JSON.stringify(Object.entries(errors).map(([path, e]) => [path, e.rule, e.params, e.message]));
  if (key(next) === key(fieldErrors)) return;
  fieldErrors = next;
  updatePanels(store.get());
  // On a narrow screen the settings start folded: unfold them so the field, its plain words and
  // its one-click fix are on screen, not only the chart's message that something is wrong.
  if (error) $('#side-panel').open = true;
}

/** The explorer's address for one config (keeping the page's language and theme). */
const explorerLink = (config, extra = {}) => `#${serializeState({ ...store.get(), view: 'timeline', compare: '', t: null, ...config, ...extra })}`;

/** The explorer's out-of-date note for a rejected setting: the plain error and its one-click fix. */
async function describeStale(error, index) {
  const state = store.get();
  const info = await explain(error, index >= 1 ? configOf(state, comparedSchedules(state)[index - 1]) : configOf(state), t);
  const fix = info.fix ? h('button', { type: 'button', class: 'dpl-fix', onclick: () => store.set({ ...info.fix.patch, t: null }) }, [info.fixLabel]) : null;
  return { why: t('stale.timelineWhy', { why: info.text }), extra: fix };
}

/**
 * A timeline of one config inside an exercise: {update(config), destroy()}. With `streams` it
 * starts with the compute and communication streams expanded (when the config has costs.comm);
 * with `link` it ends with a link that opens the same run in the explorer.
 */
function mountRun(el, config, { streams = false, link = '' } = {}) {
  const view = timelineView.mount(el, { sim, t });
  const anchor = link ? h('a', { class: 'sim-widget-open', text: link }) : null;
  if (anchor) el.append(anchor);
  const update = (c) => {
    view.update({ configs: [c], titles: [laneTitle(c)], t: null, streams });
    if (anchor) anchor.href = explorerLink(c, { streams });
  };
  update(config);
  return { update, destroy: () => { view.destroy(); anchor?.remove(); } };
}

// The lesson reader mounts a timeline into each ```sim``` placeholder, a pair's table into each
// ```pairs``` placeholder and a memory table into each ```memory``` placeholder through these
// mounters; the quiz, the progress panel and the exercises
// (lesson-activities.js) add theirs to the list.
function lessonMounters() {
  activities = createActivities({
    sim, progress, mountRun, schedules: SCHEDULE_NAMES,
    reducedMotion: prefersReducedMotion,
    linkFor: (id) => `#${serializeState({ ...store.get(), view: 'lesson', t: null, exercise: id })}`,
  });
  return [...activities.mounters, {
    // A ```memory``` fence: the memory model's table, with what it assumes.
    selector: '.memory-widget[data-request]',
    mount(el, ctx) {
      return memoryTable.mount(el, { sim, t: ctx.t, request: JSON.parse(el.dataset.request) });
    },
  }, {
    selector: '.sim-widget[data-config]',
    mount(el, ctx) {
      const view = lessonWidget.mount(el, {
        sim, t, id: el.dataset.simId, figure: Number(el.dataset.figure), config: JSON.parse(el.dataset.config), eager: el === ctx.lead,
        compare: el.dataset.compare || '', autoplay: el.dataset.autoplay === '1', streams: el.dataset.streams === '1',
        mountTimeline: (host) => timelineView.mount(host, { sim, t }),
        laneTitle, onRun: ctx.onRun,
        explorerLink: (config, compare, streams) => explorerLink(config, { ...(compare ? { compare } : {}), ...(streams ? { streams } : {}) }),
      });
      view.update(ctx);
      return view;
    },
  }, {
    selector: '.pair-table[data-sources]',
    mount(el, ctx) {
      const view = pairTable.mount(el, { sim, t, sources: el.dataset.sources.split(' ') });
      view.update(ctx);
      return view;
    },
  }];
}

function mountViews() {
  for (const v of Object.values(views)) v.destroy();
  const common = { sim, t };
  const onChange = (patch) => store.set(patch);
  views = {
    form: formView.mount($('#form-root'), { ...common, onChange }),
    costs: costView.mount($('#costs-root'), { ...common, onChange }),
    stageCosts: stageCostView.mount($('#stage-costs-root'), { ...common, onChange }),
    memory: memoryControls.mount($('#memory-root'), { ...common, onChange }),
  };
  mountedLang = store.get().lang;
}

function ensureView(name) {
  if (views[name]) return views[name];
  const onChange = (patch) => store.set(patch);
  if (name === 'lesson') views.lesson = lessonView.mount($('#lesson-root'), { sim, t, mounters: lessonMounters(), fetchText: prefetchedText, openAtTop: () => !store.get().exercise });
  if (name === 'timeline') {
    // A rejected setting leaves the last good run drawn, marked out of date (ui/stale-gate.js).
    const host = $('#timeline-root');
    views.timeline = gateTimeline(timelineView.mount(host, { sim, t, onChange }), host, { sim, t, onError: onSimError, describe: describeStale });
    // The hand-written schedule's panel loads when first shown, and draws with the same widget.
    const mountTimeline = (el, { onError }) => timelineView.mount(el, { sim, t, onError });
    views.custom = lazyView(() => import('./views/custom-schedule.js'), $('#custom-root'), { sim, t, onChange, mountTimeline });
    // A profiler trace: its streams drawn by the same widget, its costs handed to every run.
    const onUse = (source) => {
      costSource = source;
      store.set({ costs: source.costs });
    };
    views.trace = lazyView(() => Promise.all([import('./views/trace-import.js'), loadStyle('css/trace.css')]).then(([module]) => module), $('#trace-root'), {
      sim, t, onUse, mountTimeline: (el) => timelineView.mount(el, { sim, t }),
    });
  }
  // Tabs the landing page does not show load their code when first opened.
  if (name === 'sweep') {
    views.sweep = lazyView(() => import('./views/sweep-chart.js'), $('#sweep-root'), { sim, t, onChange, onError: onSimError });
    // The Zero Bubble paper's published rates beside ours, run when the panel is opened.
    views.papers = lazyView(() => import('./views/papers.js'), $('#papers-root'), { sim, t });
  }
  if (name === 'planner') views.planner = lazyView(() => Promise.all([import('./views/planner.js'), loadStyle('css/planner.css')]).then(([module]) => module), $('#planner-root'), { sim, t, onChange });
  return views[name];
}

// Keyboard order follows what the eye sees: the settings come first in the document wherever
// they are drawn first (above the sweep; above the explorer on narrow screens) and after the
// explorer where they sit beside it on the right. The explorer's chart fits any width, so its
// settings move beside it from 900 px: drawn above as a band, they left the chart below the first
// screen of a 1280x800 laptop. The lesson has none: each of its widgets shows and changes its own
// run where it stands, so no number on it follows a setting drawn elsewhere (issue 29).
const besideWhen = { timeline: matchMedia('(min-width: 900px)') };
function placeSettings(view) {
  const side = $('.layout > .side');
  const main = $('#main');
  const after = besideWhen[view]?.matches ?? false;
  if (after && side.nextElementSibling === main) main.after(side);
  if (!after && main.nextElementSibling === side) main.before(side);
  // page.css lays the settings out by this: a column beside, a compact band above the sweep's
  // charts (from 900 px), stacked above the chart, or none (the lesson, the planner).
  $('#layout').dataset.settings = view === 'lesson' || view === 'planner' ? 'none' : after ? 'beside' : view === 'sweep' ? 'band' : 'above';
}
for (const query of Object.values(besideWhen)) query.addEventListener('change', () => placeSettings(store.get().view));

// The lesson's text is fetched before the reader asks for it: by boot.js, when the page opens on
// the lesson (takeLessonText), else as soon as this module runs. The reader takes it from here.
const prefetched = new Map(); // url -> Promise<text>
function prefetchText(url) {
  if (!prefetched.has(url)) {
    prefetched.set(url, (takeLessonText(url) ?? fetch(url)).then((response) => {
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return response.text();
    }));
    prefetched.get(url).catch(() => prefetched.delete(url)); // a failure is not kept: a retry fetches again
  }
  return prefetched.get(url);
}
const prefetchedText = (url) => prefetchText(url);
// The page's first render waits for it too (a failure is the reader's to report), so the lesson
// is laid out and its first widget drawn with the rest of the page rather than in a later task.
const initialText = initial.state.view === 'lesson'
  ? prefetchText(new URL(lessonTextPath(initial.state.lang), document.baseURI).href).catch(() => {})
  : null;

/**
 * One line that says what is simulated, shown beside the settings heading (useful folded), in
 * plain words: "DualPipe vs 1F1B · 8 ranks · 20 micro-batches · F 1, B 2, W 1, F&B 3". The sweep
 * leaves out the count it varies.
 */
function settingsSummary(state) {
  const c = state.costs;
  const count = (key, n) => (typeof n === 'number' ? t.plural(key, n) : String(n));
  const num = (v) => formatNumber(v, 6, t.lang); // a value the form holds that is no number stays as typed
  const costs = t.list([t('summary.costs', { f: num(c.forward), b: num(c.backward), w: num(c.weight), fb: num(c.overlapped) }),
    c.p2pLatency ? t('summary.latency', { v: num(c.p2pLatency) }) : '',
    c.comm ? t('summary.comm', { ratio: num(c.comm.ratio) }) : '',
    state.view === 'timeline' && state.stageCosts ? t('stages.summary') : ''].filter(Boolean));
  const others = comparedSchedules(state).map((name) => scheduleTitle(name, t));
  const names = others.length ? t('summary.versus', { schedule: scheduleTitle(state.schedule, t), others: t.list(others) }) : scheduleTitle(state.schedule, t);
  // Chunks per rank (Megatron's V) when a schedule run takes them: the form's value or default.
  const chunked = chunkedSchedule(state.view === 'sweep' ? SCHEDULE_NAMES : [state.schedule, ...comparedSchedules(state)]);
  const chunks = chunked ? [t('summary.chunks', { v: state.chunks ?? chunked.chunks.default })] : [];
  const sweep = state.view === 'sweep';
  const shape = [sweep && state.axis === 'ranks' ? '' : count('lane.ranks', state.ranks),
    sweep && state.axis !== 'ranks' ? '' : count('lane.mb', state.microbatches), ...chunks].filter(Boolean).join(' · ');
  if (sweep) return `${shape} · ${costs}`;
  const config = configOf(state);
  const timing = config.timing ? ` · ${t(`timing.lane.${config.timing}`)}` : '';
  const overlap = config.a2aOverlap ? ` · ${t(config.delayWgrad ? 'a2a.lane.delayWgrad' : 'a2a.lane')}` : '';
  return `${names} · ${shape} · ${costs}${timing}${overlap}`;
}

function updatePanels(state) {
  $('#side-summary').textContent = settingsSummary(state);
  views.form.update({ ...state, fieldErrors });
  const source = costSource && sameValue(state.costs, costSource.costs) ? costSource : null;
  views.costs.update({ costs: state.costs, config: configOf(state), fieldErrors, source });
  views.stageCosts.update({ view: state.view, costs: state.costs, stageCosts: state.stageCosts, config: configOf(state), fieldErrors });
  views.memory.update({ view: state.view, memoryModel: state.memoryModel, fieldErrors });
}

function render(state) {
  // A language change rebuilds every view: their strings are set when they mount.
  if (state.lang !== mountedLang) {
    // A switch to a language not loaded yet keeps the page as it is until its strings arrive,
    // then renders once in it: never half in one language and half in the other.
    if (!isLoaded(state.lang) && !failedLangs.has(state.lang)) {
      loadLanguage(state.lang).catch(() => failedLangs.add(state.lang)).then(() => render(store.get()));
      return;
    }
    t = translator(state.lang);
    applyLang(state.lang);
    showLangNotice(state.lang);
    mountViews();
  }
  applyTheme(state.theme);
  document.querySelectorAll('.view').forEach((section) => { section.hidden = section.dataset.view !== state.view; });
  $('#layout').dataset.view = state.view;
  document.querySelectorAll('.site-nav a').forEach((a) => {
    const target = { ...state, view: a.dataset.view, t: null };
    a.href = `#${serializeState(target)}`;
    if (a.dataset.view === state.view) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  placeSettings(state.view);
  updatePanels(state);
  const view = ensureView(state.view);
  scrollMemory.show(state.view);
  if (state.view === 'lesson') view.update({ lang: state.lang });
  if (state.view === 'timeline') {
    const configs = explorerRuns(state);
    view.update({ configs, titles: configs.map(laneTitle), t: state.t, table: state.table, speed: state.speed, streams: state.streams, memory: state.memory });
    views.custom.update({ custom: state.custom, costs: state.costs, config: configOf(state) });
  }
  if (state.view === 'planner') view.update({ lang: state.lang, plan: state.plan });
  if (state.view === 'sweep') view.update({ ranks: state.ranks, microbatches: state.microbatches, chunks: state.chunks, costs: state.costs, axis: state.axis, table: state.table, picked: [state.schedule, ...comparedSchedules(state)] });
}

function start() {
  fillLangPicker();
  t = translator(initial.state.lang);
  applyLang(initial.state.lang);
  applyTheme(initial.state.theme);
  showNotice(initial.errors, t('page.paramError'));
  // On a narrow screen the settings start folded so the chart comes first.
  if (matchMedia('(max-width: 899px)').matches) $('#side-panel').open = false;
  bindHash(store, window, {
    isSettled: () => !document.querySelector('.dpl-timeline.is-playing'),
    onErrors: (errors) => showNotice(errors, t('page.paramError')),
  });
  store.subscribe(render);
  store.subscribe((state, changed) => {
    if (changed.includes('exercise') && state.exercise && state.view === 'lesson') activities?.focusExercise(state.exercise);
  });
  $('#pref-theme').addEventListener('change', (e) => store.set({ theme: e.target.value }));
  $('#pref-lang').addEventListener('change', (e) => {
    rememberLang(localStore(), e.target.value);
    store.set({ lang: e.target.value });
  });
  progress.recordVisit();
  mountedLang = null;
  render(store.get());
  if (store.get().exercise && store.get().view === 'lesson') activities?.focusExercise(store.get().exercise);
  requestAnimationFrame(() => setTimeout(startSimulator, 0));
}

/**
 * Starts the simulator's worker, once the first screen has been drawn and painted (its runs come
 * with the page: scripts/first-runs.mjs), unless a run nobody computed ahead started it sooner. Its
 * wasm compiles on the machine's cores: started with the page, it took one from the first draw on
 * two cores (interleaved runs, first widget drawn: lesson 713 -> 558 ms, explorer 549 -> 475 ms),
 * while a run asked for right after the first draw was drawn no later (1028 vs 1020 ms from
 * navigation). A module that fails to load is reported once, above the views.
 */
function startSimulator() {
  sim.catalogue().catch((error) => {
    $('#main').prepend(h('div', { class: 'dpl-error', role: 'alert' }, [h('strong', { text: t('page.loadError') }), h('p', { text: String(error.message || error) })]));
  });
}

// The runs the page draws first come with the page (scripts/first-runs.mjs): the first timeline
// does not wait for the simulator's worker (startSimulator).
sim = withCache(createSimClient(), { seeds: FIRST_RUNS });
Promise.all([initialLangReady, initialText, pageFontsReady()]).then(start);
