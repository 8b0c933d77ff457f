// The explorer's schedule form: preset, schedule, any number of schedules to compare with it, ranks,
// micro-batches, and model chunks per rank when a schedule run takes them (its catalogue entry's
// `chunks`: range and default from there); timing, and Megatron's combined 1F1B with its delayed
// weight gradients, likewise only where a schedule run takes them (`timings`, `a2aOverlap`).
// Under ranks and micro-batches, what the chosen schedules ask of them (from core's shape data);
// under any field, the simulator's message when its error path points there.
// mount(element, deps) -> { update(state), destroy() }
//   deps.t   deps.onChange(patch)   (the schedules are core's catalogue, lib/schedules.js)
// state: { view, schedule, compare, ranks, microbatches, chunks, axis, costs, fieldErrors: {path: SimError} }
import { h, uniqueId } from '../ui/dom.js';
import { PRESETS, matchPreset } from '../lib/presets.js';
import { showFieldError } from '../ui/field-error.js';
import { SCHEDULES, SCHEDULE_NAMES, chunkedSchedule, timedSchedule, overlappableSchedule, scheduleTitle } from '../lib/schedules.js';
import CATALOGUE from '../../generated/catalogue.js';
import { shapeHint } from '../lib/shape-hint.js';
import { comparedSchedules } from '../state.js';

const TYPING_DELAY_MS = 400;

export function mount(element, deps) {
  const t = deps.t;
  const prefix = uniqueId('dpl-form');
  // `hint`: the class of a hint line under the control, or none.
  const field = (name, control, hint) => {
    const id = `${prefix}-${name}`;
    control.id = id;
    control.name = name;
    const msg = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
    const hintEl = hint ? h('p', { class: `dpl-field-hint ${hint}`, id: `${id}-hint` }) : null;
    control.setAttribute('aria-describedby', [hintEl ? `${id}-hint` : '', `${id}-msg`].join(' ').trim());
    return { wrap: h('div', { class: `dpl-field dpl-field-${name}` }, [h('label', { for: id, text: t(`form.${name}`) }), control, hintEl, msg]), control, msg, hint: hintEl };
  };
  const scheduleOptions = () => SCHEDULES.map((s) => h('option', { value: s.name, text: scheduleTitle(s.name, t) }));
  const preset = field('preset', h('select', {}, [
    h('option', { value: '', text: t('form.custom') }),
    ...PRESETS.map((p) => h('option', { value: p.id, text: t(`preset.${p.id}`) })),
  ]), 'dpl-preset-name');
  // A closed select cannot wrap, and a narrow settings column cuts the longer preset names: the
  // chosen one is repeated below it in full (page.css shows it where the select is narrow). The
  // select already says it to a screen reader, so the repeat is for the eye only.
  preset.hint.setAttribute('aria-hidden', 'true');
  preset.control.setAttribute('aria-describedby', preset.msg.id);
  const schedule = field('schedule', h('select', {}, scheduleOptions()));
  const compare = compareField();
  const ranks = field('ranks', h('input', { type: 'number', min: 1, step: 1, inputmode: 'numeric' }), 'dpl-shape-hint');
  const microbatches = field('microbatches', h('input', { type: 'number', min: 1, step: 1, inputmode: 'numeric' }), 'dpl-shape-hint');
  // Its range hint stays in the sweep, where the shape hints (which name one schedule) are hidden.
  const chunks = field('chunks', h('input', { type: 'number', step: 1, inputmode: 'numeric' }), 'dpl-chunks-hint');
  const timing = field('timing', h('select', {}, CATALOGUE.timing.values.map((value) => h('option', { value, text: t(`timing.${value}`) }))), 'dpl-timing-hint');
  // A switch: the box first, its label beside it, the hint and message under both.
  const toggle = (name) => {
    const f = field(name, h('input', { type: 'checkbox' }), 'dpl-switch-hint');
    f.hint.textContent = t(`form.${name}.hint`);
    f.wrap.classList.add('dpl-field-switch');
    const label = f.wrap.querySelector('label');
    f.wrap.prepend(h('div', { class: 'dpl-switch' }, [f.control, label]));
    return f;
  };
  const a2aOverlap = toggle('a2aOverlap');
  const delayWgrad = toggle('delayWgrad');
  const fields = { preset, schedule, compare, ranks, microbatches, chunks, timing, a2aOverlap, delayWgrad };
  const root = h('fieldset', { class: 'dpl dpl-form' }, [
    h('legend', { text: t('form.legend') }),
    h('div', { class: 'dpl-form-grid' }, Object.values(fields).map((f) => f.wrap)),
  ]);
  element.append(root);

  let timer = 0;
  const num = (control) => {
    const raw = control.value.trim();
    return raw === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
  };

  /**
   * The schedules drawn beside the chosen one, on the same axis: a checkbox each, folded under a
   * summary that names those picked. Any number; the chosen schedule's own box is off.
   */
  function compareField() {
    const id = `${prefix}-compare`;
    const boxes = SCHEDULES.map((s) => h('input', { type: 'checkbox', name: 'compare', value: s.name, id: `${id}-${s.name}` }));
    const chosen = h('span', { class: 'dpl-compare-chosen' });
    const msg = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
    const group = h('div', { class: 'dpl-compare-options', role: 'group', id, 'aria-label': t('form.compare'), 'aria-describedby': msg.id },
      boxes.map((box, i) => h('label', { class: 'dpl-check', for: box.id }, [box, h('span', { text: scheduleTitle(SCHEDULES[i].name, t) })])));
    const wrap = h('details', { class: 'dpl-field dpl-field-compare dpl-compare' }, [
      h('summary', {}, [h('span', { class: 'dpl-compare-label', text: t('form.compare') }), ' ', chosen]), group, msg,
    ]);
    return { wrap, control: group, msg, boxes, chosen };
  }

  let comm = null; // the communication model in force: a preset sets the costs, not this
  preset.control.addEventListener('change', () => {
    const p = PRESETS.find((x) => x.id === preset.control.value);
    const costs = comm ? { ...p?.costs, comm } : { ...p?.costs };
    if (p) deps.onChange({ schedule: p.schedule, compare: p.compare, ranks: p.ranks, microbatches: p.microbatches, costs, t: null });
  });
  schedule.control.addEventListener('change', () => deps.onChange({ schedule: schedule.control.value, t: null }));
  compare.control.addEventListener('change', () => {
    deps.onChange({ compare: compare.boxes.filter((b) => b.checked).map((b) => b.value).join(','), t: null });
  });
  timing.control.addEventListener('change', () => deps.onChange({ timing: timing.control.value, t: null }));
  // Turning the overlap off turns its companion off too (core: delayWgrad needs a2aOverlap).
  a2aOverlap.control.addEventListener('change', () => deps.onChange({
    a2aOverlap: a2aOverlap.control.checked, ...(a2aOverlap.control.checked ? {} : { delayWgrad: false }), t: null,
  }));
  delayWgrad.control.addEventListener('change', () => deps.onChange({ delayWgrad: delayWgrad.control.checked, t: null }));
  const commitShape = () => {
    clearTimeout(timer);
    deps.onChange({ ranks: num(ranks.control), microbatches: num(microbatches.control), t: null });
  };
  // Its own commit, so editing ranks does not pin the default chunks shown into the address; an
  // emptied field means the schedule's own default again.
  const commitChunks = () => {
    clearTimeout(timer);
    deps.onChange({ chunks: chunks.control.value.trim() === '' ? null : num(chunks.control), t: null });
  };
  for (const [f, commit] of [[ranks, commitShape], [microbatches, commitShape], [chunks, commitChunks]]) {
    f.control.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(commit, TYPING_DELAY_MS); });
    f.control.addEventListener('change', commit);
  }
  return {
    update(state) {
      comm = state.costs?.comm || null;
      const set = (f, value) => {
        if (document.activeElement !== f.control && f.control.value !== String(value)) f.control.value = String(value);
      };
      // An unknown schedule from the URL has no option; the select then shows none selected and
      // the simulator's message (below) says which names exist.
      set(schedule, state.schedule);
      const compared = comparedSchedules(state);
      for (const box of compare.boxes) {
        box.checked = compared.includes(box.value) && box.value !== state.schedule;
        box.disabled = box.value === state.schedule; // a schedule beside itself says nothing
      }
      compare.chosen.textContent = compared.length ? t.list(compared.map((name) => scheduleTitle(name, t))) : t('form.none');
      set(ranks, state.ranks);
      set(microbatches, state.microbatches);
      // The sweep varies one of them: its fixed value would say nothing there.
      ranks.wrap.hidden = state.view === 'sweep' && state.axis === 'ranks';
      microbatches.wrap.hidden = state.view === 'sweep' && state.axis !== 'ranks';
      // Chunks: shown when a schedule run takes them (the sweep runs every schedule), with the
      // first such schedule's range; empty state means its default, shown as the value.
      const chunked = chunkedSchedule(state.view === 'sweep' ? SCHEDULE_NAMES : [state.schedule, ...compared]);
      chunks.wrap.hidden = !chunked;
      if (chunked) {
        const { min, max, default: initial } = chunked.chunks;
        Object.assign(chunks.control, { min, max });
        set(chunks, state.chunks ?? initial);
        chunks.hint.textContent = t('form.chunks.hint', { min, max });
      }
      // Timing: only in the explorer, and only for a schedule that runs under more than one.
      const timed = state.view !== 'sweep' && timedSchedule([state.schedule, ...compared]);
      timing.wrap.hidden = !timed;
      if (timed) {
        const value = state.timing ?? CATALOGUE.timing.default;
        set(timing, value);
        timing.hint.textContent = t(`timing.hint.${value}`);
      }
      // Combined 1F1B: only in the explorer, and only for a schedule that takes it; its companion
      // while it is on (or set without it, so core's message shows beside it).
      const overlappable = state.view !== 'sweep' && overlappableSchedule([state.schedule, ...compared]);
      a2aOverlap.wrap.hidden = !overlappable;
      delayWgrad.wrap.hidden = !overlappable || !(state.a2aOverlap || state.delayWgrad);
      a2aOverlap.control.checked = Boolean(state.a2aOverlap);
      delayWgrad.control.checked = Boolean(state.delayWgrad);
      const match = matchPreset(state);
      preset.control.value = match ? match.id : '';
      preset.hint.textContent = match ? t(`preset.${match.id}`) : '';
      // The sweep runs every schedule: there the hints (which name the chosen ones) are hidden.
      for (const f of [ranks, microbatches]) f.hint.textContent = shapeHint([state.schedule, ...compared], f.control.name, t, state.chunks);
      const errors = state.fieldErrors || {};
      const config = { schedule: state.schedule, ranks: state.ranks, microbatches: state.microbatches, costs: state.costs };
      // A fix applies to the settings, then focus returns to the field it repaired.
      const onFix = (f) => (patch) => {
        deps.onChange({ ...patch, t: null });
        f.control.focus();
      };
      const show = (f, error, about = config) => showFieldError(f.msg, f.control, error, { config: about, t, onFix: onFix(f) });
      show(schedule, errors['/schedule']);
      // A compared schedule's own shape rules: its error (any field) is shown under the picker,
      // and a fix there changes the shared ranks or micro-batches.
      show(compare, errors.compare, { ...config, schedule: errors.compare?.comparedSchedule ?? compared[0] });
      if (errors.compare) compare.wrap.open = true;
      show(ranks, errors['/ranks']);
      show(microbatches, errors['/microbatches']);
      show(chunks, errors['/chunks']);
      show(timing, errors['/timing']);
      show(a2aOverlap, errors['/a2aOverlap']);
      show(delayWgrad, errors['/delayWgrad']);
    },
    destroy() {
      clearTimeout(timer);
      root.remove();
    },
  };
}
