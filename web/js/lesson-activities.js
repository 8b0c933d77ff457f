// Wires the lesson's learning activities into the lesson reader, as mounters it runs after each
// load ({selector, mount(el, ctx)}, see views/lesson-reader.js): the contents list that follows
// the reader, with each section's progress; the progress panel under the title; the quiz's stages where the course places them (pre before the lesson's first section,
// the checks after the concept section, the post questions after the key terms); and one exercise
// widget per definition at the end of the Exercises section. Progress goes to localStorage in the
// course's shape (lib/progress.js). Like app.js, this file wires views; views never import it.
// The exercises sit at the end of a long lesson: their code and definitions load when the section
// comes within a couple of screens of the viewport, or at once when a link targets an exercise.
import * as quizView from './views/quiz.js';
import * as progressView from './views/progress-panel.js';
import * as contentsView from './views/lesson-contents.js';
import { quizQuestionIds, summarize } from './lib/progress.js';
import { lessonFiguresOf, lessonTablesOf } from './lib/exercise-model.js';
import { localizeContent, exercisePrefix, QUIZ_PREFIX } from './lib/content-text.js';
import { h } from './ui/dom.js';

/** The lesson's order of exercises (the Exercises section lists them in this order too). */
export const EXERCISE_ORDER = ['recover-gpu-hours', 'hand-trace', 'overlap-window', 'param-overhead', 'dualpipe-vs-chimera'];

async function defaultFetchJson(path) {
  const response = await fetch(new URL(path, document.baseURI));
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return response.json();
}

/**
 * A memory table of the lesson as an exercise links to it: {id, title}, its element given an id
 * and made focusable, its title the heading of the section it sits in (without the deep-dive tag).
 */
function lessonTable(article, memoryId) {
  const table = article.querySelector(`.memory-widget[data-memory-id="${CSS.escape(memoryId)}"]`);
  if (!table) return null;
  table.id ||= `table-${memoryId}`;
  table.tabIndex = -1;
  let heading = null;
  for (let node = table; node && node !== article && !heading; node = node.parentElement) {
    for (let prev = node.previousElementSibling; prev && !heading; prev = prev.previousElementSibling) {
      if (/^H[1-6]$/.test(prev.tagName)) heading = prev;
    }
  }
  const title = heading ? [...heading.childNodes].filter((n) => !n.classList?.contains('deep-dive-tag')).map((n) => n.textContent).join('').trim() : '';
  return { id: table.id, title };
}

/**
 * createActivities({sim, progress, mountRun, schedules, linkFor, reducedMotion, fetchJson?}) ->
 * {mounters, focusExercise(id) -> boolean}. `progress` is lib/progress.js's createProgress().
 */
export function createActivities(deps) {
  const fetchJson = deps.fetchJson || defaultFetchJson;
  const exercises = new Map(); // id -> view
  const loaders = new Set(); // the mounted exercise section's "load now" (see exerciseMounter)
  let pendingFocus = null;
  let quizIds = [];
  // Which exercises are optional is read from their definitions (`optional`); until those load,
  // every exercise counts, so the lesson is never marked complete too early.
  let optionalIds = [];
  const refreshers = new Set(); // the progress panel's refresh, rerun when optionalIds arrive

  const summaryOf = (entry) => summarize(entry, { quizIds, exerciseIds: EXERCISE_ORDER, optionalIds });

  /** Marks the lesson complete when the course's rule and ours say so. */
  function maybeComplete(entry) {
    if (summaryOf(entry).complete && !entry.completedAt) deps.progress.markComplete();
  }

  const quizMounter = {
    selector: 'h1',
    mount(el, ctx) {
      const t = ctx.t;
      const article = el.parentElement;
      const nodes = [];
      const views = [];
      const place = (node, beforeSelector) => {
        const anchor = beforeSelector && article.querySelector(beforeSelector);
        if (anchor) anchor.before(node); else article.append(node);
        nodes.push(node);
        return node;
      };
      const panelSlot = h('div', { class: 'lesson-progress' });
      // Under the lesson's opening widget when it has one: the first screen shows the schedule
      // moving, and the progress right after it.
      const lead = el.nextElementSibling?.matches('.sim-widget') ? el.nextElementSibling : el;
      lead.after(panelSlot);
      nodes.push(panelSlot);
      const panel = progressView.mount(panelSlot, { t, onReset: () => deps.progress.reset(), onResetShared: () => deps.progress.resetShared() });
      views.push(panel);
      const refresh = (entry) => {
        panel.update({ summary: summaryOf(entry), storage: deps.progress.status() });
        for (const v of views) if (v !== panel) v.update({ answers: entry.answers });
      };
      const unsubscribe = deps.progress.onChange((entry) => { refresh(entry); maybeComplete(entry); });
      refreshers.add(refresh);
      let alive = true;

      (async () => {
        // The quiz is written in English; its texts in the page's language are in the page's
        // catalogue (lib/content-text.js).
        let quiz;
        try { quiz = localizeContent(await fetchJson('generated/lessons/quiz.json'), QUIZ_PREFIX, t); } catch { quiz = null; }
        if (!alive) return;
        if (!quiz || !Array.isArray(quiz.questions)) {
          refresh(deps.progress.get());
          return;
        }
        const ids = quizQuestionIds(quiz.questions);
        quizIds = ids;
        const questions = quiz.questions.map((q, i) => ({ ...q, qid: ids[i] }));
        const where = { pre: 'h2#objectives', check: 'h2#use-it', post: 'h2#corrections' };
        for (const stage of ['pre', 'check', 'post']) {
          const list = questions.filter((q) => q.stage === stage);
          if (!list.length) continue;
          const slot = place(h('div', { class: 'lesson-quiz' }), where[stage]);
          views.push(quizView.mount(slot, {
            t, stage, questions: list,
            onAnswer: (qid, picked, correct) => deps.progress.recordAnswer(qid, picked, correct),
          }));
        }
        const entry = deps.progress.get();
        refresh(entry);
        maybeComplete(entry);
      })();

      refresh(deps.progress.get());
      return {
        update() {},
        destroy() {
          alive = false;
          unsubscribe();
          refreshers.delete(refresh);
          views.forEach((v) => v.destroy());
          nodes.forEach((n) => n.remove());
        },
      };
    },
  };

  // Beside the lesson (a sheet behind a button on a narrow screen): its sections, the one being
  // read, and each one's quiz questions and exercises done.
  const contentsMounter = {
    selector: 'h1',
    mount(el, ctx) {
      const article = el.parentElement;
      return contentsView.mount(article.parentElement, { t: ctx.t, article, progress: deps.progress, reducedMotion: deps.reducedMotion });
    },
  };

  const exerciseMounter = {
    selector: 'h2#exercises',
    mount(el, ctx) {
      const t = ctx.t;
      // The widgets go at the end of the Exercises section, after its overview list.
      let last = el;
      while (last.nextElementSibling && last.nextElementSibling.tagName !== 'H2') last = last.nextElementSibling;
      const container = h('div', { class: 'exercise-list' });
      last.after(container);
      const codes = [...el.parentElement.querySelectorAll('code')].filter((c) => EXERCISE_ORDER.includes(c.textContent.trim()) && !c.closest('pre'));
      const order = [...new Set([...codes.map((c) => c.textContent.trim()), ...EXERCISE_ORDER])];
      // The overview list names each exercise by its id (`hand-trace`): the learner reads a link
      // to it, "exercise 2", which loads and focuses it and leaves the address alone.
      for (const code of codes) {
        const id = code.textContent.trim();
        const link = h('a', { class: 'ex-ref', href: deps.linkFor ? deps.linkFor(id) : '#', dataset: { exercise: id }, text: t('lesson.exerciseRef', { n: order.indexOf(id) + 1 }) });
        link.addEventListener('click', (event) => {
          if (event.ctrlKey || event.metaKey || event.shiftKey) return; // a new tab or window: the address opens it
          event.preventDefault();
          focusExercise(id);
        });
        code.replaceWith(link);
      }
      const views = new Map(); // index -> view
      const definitions = [];
      let alive = true;
      const slots = order.map((id) => {
        const slot = h('div', { class: 'exercise-widget', dataset: { exercise: id } }, [h('p', { class: 'lesson-loading-inline', text: t('ex.loading') })]);
        container.append(slot);
        return slot;
      });
      let exerciseView = null;
      const mountOne = (index) => {
        const id = order[index];
        slots[index].replaceChildren();
        // The lesson's figures that draw one of its runs, by their numbers (lesson-reader.js numbers them).
        const figures = lessonFiguresOf(definitions[index], ctx.configs ?? new Map())
          .map((simId) => Number(el.parentElement.querySelector(`.sim-widget[data-sim-id="${simId}"]`)?.dataset.figure)).filter(Boolean);
        // The lesson's memory tables that count its models, named by the section they sit in.
        const tables = lessonTablesOf(definitions[index], ctx.memories).map((memoryId) => lessonTable(el.parentElement, memoryId)).filter(Boolean);
        const view = exerciseView.mount(slots[index], {
          t, lang: ctx.lang, sim: deps.sim, definition: definitions[index], number: index + 1, figures, tables,
          saved: deps.progress.get().exercises[id] || null,
          onResult: (record) => deps.progress.recordExercise(id, record).exercises[id],
          mountRun: deps.mountRun, schedules: deps.schedules, reducedMotion: deps.reducedMotion, linkFor: deps.linkFor,
        });
        views.set(index, view);
        exercises.set(id, view);
        if (pendingFocus === id) {
          pendingFocus = null;
          view.focus();
        }
      };
      const showError = (index, error) => {
        slots[index].replaceChildren(h('div', { class: 'dpl-error', role: 'alert' }, [h('p', { text: String(error.message || error) })]));
      };
      let started = false;
      const loadAll = () => {
        if (started) return;
        started = true;
        approach?.disconnect();
        const code = import('./views/exercise.js').then((module) => { exerciseView = module; });
        let pending = order.length;
        const known = () => {
          if (--pending || !alive) return;
          optionalIds = definitions.filter((d) => d?.optional).map((d) => d.id);
          const entry = deps.progress.get();
          refreshers.forEach((refresh) => refresh(entry));
          maybeComplete(entry);
        };
        order.forEach(async (id, index) => {
          try {
            const [definition] = await Promise.all([fetchJson(`generated/lessons/exercises/${id}.json`), code]);
            // Written in English; its texts in the page's language from the page's catalogue.
            definitions[index] = localizeContent(definition, exercisePrefix(definition), t);
          } catch (error) {
            if (alive) showError(index, error);
            known();
            return;
          }
          if (alive) mountOne(index);
          known();
        });
      };
      const approach = typeof IntersectionObserver === 'function'
        ? new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) loadAll(); }, { rootMargin: '200% 0px' })
        : null;
      if (approach && !pendingFocus) approach.observe(container);
      else loadAll(); // no observer, or a link already asked for an exercise
      loaders.add(loadAll);
      // "Reset progress" forgets the answers: remount every exercise empty.
      const unsubscribe = deps.progress.onChange((entry, { reset } = {}) => {
        if (!reset) return;
        for (const [index, view] of views) {
          view.destroy();
          mountOne(index);
        }
      });
      return {
        update() {},
        destroy() {
          alive = false;
          approach?.disconnect();
          loaders.delete(loadAll);
          unsubscribe();
          for (const [index, view] of views) {
            view.destroy();
            if (exercises.get(order[index]) === view) exercises.delete(order[index]);
          }
          container.remove();
        },
      };
    },
  };

  /** Scrolls to an exercise and focuses its heading; waits for it when it is still loading. */
  function focusExercise(id) {
    const view = exercises.get(id);
    if (view) { view.focus(); return true; }
    pendingFocus = id;
    for (const load of loaders) load();
    return false;
  }

  return { mounters: [contentsMounter, quizMounter, exerciseMounter], focusExercise };
}
