// A lesson's live timeline with compact controls of its own (schedule, ranks, micro-batches, F&B;
// play and step are the timeline's transport), so each "Use it" task is done where it is read.
// The widget starts from its ```sim``` config, shows its figure number (the text's mentions of it
// link here, lesson-reader.js), and reports every run that works to the reader (numbers quoting this id follow it). A rejected
// setting is said in plain words beside its field with a one-click fix, while the last good run
// stays drawn, dimmed and marked out of date. The costs are the ```sim``` config's, with the F&B
// typed here. With `compare`, a second schedule is drawn
// on the same time axis; `autoplay` plays once when it comes on screen (not under reduced motion); `streams` opens with the compute and communication streams
// drawn (the learner can still fold them). A long lesson holds a dozen widgets: each one's timeline is
// drawn when it comes within a screen of the viewport (its height reserved until then), so the
// first one on screen is drawn without waiting for the rest; the lesson's first widget (`eager`)
// runs at once, without waiting for the page's layout to say it is in view.
// mount(element, deps) -> { update(ctx), destroy() }
//   deps.t  deps.sim  deps.id  deps.figure (its number in the lesson)  deps.config (as written)
//   deps.compare?  deps.autoplay?  deps.streams?  deps.eager?
//   deps.mountTimeline(el) -> timeline view   deps.laneTitle(config, options)   deps.explorerLink(config, compare, streams)
//   deps.onRun?(id, config | null)   a run that worked (null: the text's own config again)
import { h, uniqueId, prefersReducedMotion } from '../ui/dom.js';
import { gateTimeline } from '../ui/stale-gate.js';
import { showFieldError, explain } from '../ui/field-error.js';
import { SCHEDULES, scheduleTitle } from '../lib/schedules.js';
import { widgetRuns } from '../lib/lesson-runs.js';

const TYPING_DELAY_MS = 400;
// Which control a SimError's path blames.
const FIELD_OF_PATH = { '/schedule': 'schedule', '/ranks': 'ranks', '/microbatches': 'microbatches', '/costs/overlapped': 'overlapped' };

export function mount(element, deps) {
  const { t, id } = deps;
  const prefix = uniqueId('dpl-lw');
  const written = deps.config;
  let local = { schedule: written.schedule, ranks: written.ranks, microbatches: written.microbatches, overlapped: null };
  let timer = 0;

  const field = (name, control, label) => {
    control.id = `${prefix}-${name}`;
    control.name = name;
    const msg = h('p', { class: 'dpl-field-msg', id: `${prefix}-${name}-msg`, 'aria-live': 'polite' });
    control.setAttribute('aria-describedby', msg.id);
    return { name, control, msg, wrap: h('div', { class: `lw-field lw-field-${name}` }, [h('label', { for: control.id, text: label }), control]) };
  };
  const number = (step, inputmode) => h('input', { type: 'number', min: 0, step, inputmode });
  const fields = {
    schedule: field('schedule', h('select', {}, SCHEDULES.map((s) => h('option', { value: s.name, text: scheduleTitle(s.name, t) }))), t('form.schedule')),
    ranks: field('ranks', number(1, 'numeric'), t('lw.ranks')),
    microbatches: field('microbatches', number(1, 'numeric'), t('lw.microbatches')),
    overlapped: field('overlapped', number('any', 'decimal'), t('cost.overlapped.sym')),
  };
  const reset = h('button', { type: 'button', class: 'dpl-btn lw-reset', hidden: true }, [t('lw.reset')]);
  const open = h('a', { class: 'sim-widget-open', text: t('tl.open') });
  const host = h('div', { class: 'lw-run' });
  const controls = h('div', { class: 'lw-controls', role: 'group', 'aria-label': t('lw.controls', { n: deps.figure }) }, [
    h('span', { class: 'lw-figure', text: t('lw.figure', { n: deps.figure }) }),
    ...Object.values(fields).map((f) => f.wrap), reset,
  ]);
  const root = h('div', { class: 'dpl lw' }, [controls, h('div', { class: 'lw-msgs' }, Object.values(fields).map((f) => f.msg)), host, open]);
  element.append(root);

  const readValue = (control) => {
    const raw = control.value.trim();
    return raw === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
  };

  /** The config the widget runs now: the text's, then this widget's own settings. */
  function current() {
    const base = written;
    const config = { ...base, schedule: local.schedule, ranks: local.ranks, microbatches: local.microbatches };
    if (local.overlapped !== null) config.costs = { ...base.costs, overlapped: local.overlapped };
    return config;
  }
  const changed = () => local.schedule !== written.schedule || local.ranks !== written.ranks
    || local.microbatches !== written.microbatches || local.overlapped !== null;

  /** Puts a run's values in the fields (not into one the learner is typing in). */
  function fill() {
    const c = current();
    const values = { schedule: c.schedule, ranks: c.ranks, microbatches: c.microbatches, overlapped: c.costs?.overlapped ?? '' };
    for (const f of Object.values(fields)) {
      if (document.activeElement !== f.control && f.control.value !== String(values[f.name])) f.control.value = String(values[f.name]);
    }
    reset.hidden = !changed();
  }

  function showErrors(error) {
    const blamed = error ? FIELD_OF_PATH[error.path] : null;
    for (const f of Object.values(fields)) {
      showFieldError(f.msg, f.control, f.name === blamed ? error : null, {
        config: current(), t,
        onFix: (patch) => {
          apply(patch);
          f.control.focus();
        },
      });
    }
  }

  /** The out-of-date note: the plain error (when no field here shows it) and the fix. */
  async function describe(error) {
    const info = await explain(error, current(), t);
    const here = FIELD_OF_PATH[error.path];
    const fix = info.fix && !here ? h('button', { type: 'button', class: 'dpl-fix', onclick: () => apply(info.fix.patch) }, [info.fixLabel]) : null;
    return { why: here ? t('stale.timeline') : t('stale.timelineWhy', { why: info.text }), extra: fix };
  }

  // Until drawn, hold about the height the timeline will take, so nothing below it jumps.
  const lanes = deps.compare ? 2 : 1;
  host.style.minHeight = `${lanes * (Math.min(Number(written.ranks) || 4, 64) * 32 + 90) + 60}px`;
  const timeline = deps.mountTimeline(host);
  const gate = gateTimeline(timeline, host, {
    sim: deps.sim, t, describe,
    onError: (error) => {
      showErrors(error);
      if (!error) deps.onRun?.(id, changed() ? current() : null);
    },
    onRun: () => {
      host.style.minHeight = ''; // the timeline holds its own height from here
    },
  });
  let played = false;
  let opened = false; // the streams are asked for once: a later run keeps the learner's choice
  let visible = Boolean(deps.eager) || typeof IntersectionObserver !== 'function';
  const approach = visible ? null : new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    approach.disconnect();
    visible = true;
    run();
  }, { rootMargin: '100% 0px' });
  approach?.observe(root);

  function run() {
    fill();
    const config = current();
    const configs = widgetRuns(config, deps.compare);
    open.href = deps.explorerLink(config, deps.compare, Boolean(deps.streams));
    if (!visible) return;
    // Autoplay once (the timeline waits until it is on screen), never under reduced motion: a
    // still frame shows the end. The lanes are named by schedule: the controls above give the shape.
    const autoplay = Boolean(deps.autoplay) && !played && !prefersReducedMotion();
    played = true;
    const streams = opened ? {} : { streams: Boolean(deps.streams) };
    opened = true;
    gate.update({ configs, titles: configs.map((c) => deps.laneTitle(c, { shape: false })), t: autoplay ? 0 : null, autoplay, ...streams });
  }

  function apply(patch) {
    clearTimeout(timer);
    if (patch.costs) local.overlapped = patch.costs.overlapped ?? local.overlapped;
    for (const key of ['schedule', 'ranks', 'microbatches']) if (key in patch) local[key] = patch[key];
    run();
  }

  function commit() {
    clearTimeout(timer);
    const overlapped = readValue(fields.overlapped.control);
    const base = written.costs?.overlapped;
    local = {
      schedule: fields.schedule.control.value,
      ranks: readValue(fields.ranks.control),
      microbatches: readValue(fields.microbatches.control),
      overlapped: overlapped === base && local.overlapped === null ? null : overlapped,
    };
    run();
  }

  controls.addEventListener('change', (e) => { if (e.target !== reset) commit(); });
  controls.addEventListener('input', (e) => {
    if (e.target.tagName !== 'INPUT') return;
    clearTimeout(timer);
    timer = setTimeout(commit, TYPING_DELAY_MS);
  });
  reset.addEventListener('click', () => {
    local = { schedule: written.schedule, ranks: written.ranks, microbatches: written.microbatches, overlapped: null };
    run();
    fields.schedule.control.focus();
  });

  return {
    update() {
      run();
    },
    destroy() {
      clearTimeout(timer);
      approach?.disconnect();
      gate.destroy();
      root.remove();
    },
    get results() { return gate.results; },
  };
}
