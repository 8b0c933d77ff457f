// The explorer's memory model: name a model and the timeline's memory lane counts each rank's
// memory in GB (core's pipesim/memory.h: model states under a precision recipe and ZeRO stage,
// plus in-flight activations from the model's shape) instead of per-GPU units. Off until a model
// is picked; every choice and default is core's (catalogue().memory, state.js). Under any field,
// the simulator's message when its error path points there (/memoryModel/...).
// mount(element, deps) -> { update(state), destroy() }
//   deps.t   deps.onChange({memoryModel})
// state: { view, memoryModel?, fieldErrors: {path: SimError} }
import { h, uniqueId } from '../ui/dom.js';
import { showFieldError } from '../ui/field-error.js';
import { defaultMemoryModel } from '../state.js';
import { labelText } from '../ui/memory-assumptions.js';
import CATALOGUE from '../../generated/catalogue.js';

const MEMORY = CATALOGUE.memory;
const TYPING_DELAY_MS = 400;

// [field, path inside memoryModel, control kind, its choices (or a function of t giving them)]
const FIELDS = [
  ['recipe', ['recipe'], 'select', (t) => MEMORY.recipes.map((r) => [r.id, labelText(r, t)])],
  ['zero', ['zero'], 'select', MEMORY.zeroStages.map((z) => [String(z), `ZeRO-${z}`])],
  ['tp', ['layout', 'tp'], 'number'],
  ['dp', ['layout', 'dp'], 'number'],
  ['ep', ['layout', 'ep'], 'number'],
  ['seqLength', ['activations', 'seqLength'], 'number'],
  ['microBatchSize', ['activations', 'microBatchSize'], 'number'],
  ['recompute', ['activations', 'recompute'], 'select', MEMORY.recompute.map((r) => [r, null])],
  ['sequenceParallel', ['layout', 'sequenceParallel'], 'check'],
];

const at = (object, path) => path.reduce((node, name) => node?.[name], object);

export function mount(element, deps) {
  const t = deps.t;
  const prefix = uniqueId('dpl-mem');
  const controls = {};
  const messages = {};
  const control = (name, kind, options) => {
    const id = `${prefix}-${name}`;
    const c = kind === 'select'
      ? h('select', { id, name }, options.map(([value, label]) => h('option', { value, text: label ?? t(`mem.recompute.${value}`) })))
      : kind === 'check' ? h('input', { id, name, type: 'checkbox' })
        : h('input', { id, name, type: 'number', min: 1, step: 1, inputmode: 'numeric' });
    messages[name] = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
    c.setAttribute('aria-describedby', `${id}-msg`);
    controls[name] = c;
    return kind === 'check'
      ? h('div', { class: 'dpl-field dpl-field-check' }, [h('div', { class: 'dpl-check' }, [c, h('label', { for: id, text: t(`memc.${name}`) })]), messages[name]])
      : h('div', { class: 'dpl-field' }, [h('label', { for: id, text: t(`memc.${name}`) }), c, messages[name]]);
  };
  const modelField = control('model', 'select', [['', t('memc.none')], ...MEMORY.models.map((m) => [m.name, m.label])]);
  const grid = h('div', { class: 'dpl-form-grid dpl-memory-grid', hidden: true }, FIELDS.map(([name, , kind, options]) => control(name, kind, typeof options === 'function' ? options(t) : options)));
  const root = h('fieldset', { class: 'dpl dpl-form dpl-memory-form' }, [
    h('legend', { text: t('memc.legend') }),
    h('p', { class: 'dpl-field-hint', text: t('memc.hint') }),
    h('div', { class: 'dpl-form-grid' }, [modelField]),
    grid,
  ]);
  element.append(root);

  let current = null; // the memoryModel in force
  let timer = 0;

  /** The memoryModel the form shows: numbers as numbers, other text left for core to reject. */
  function read() {
    const model = defaultMemoryModel();
    model.model = controls.model.value;
    for (const [name, path, kind] of FIELDS) {
      const c = controls[name];
      let value = c.value;
      if (kind === 'check') value = c.checked;
      else if (name === 'zero') value = Number(value);
      else if (kind === 'number') value = value.trim() === '' || Number.isNaN(Number(value)) ? value.trim() : Number(value);
      let node = model;
      for (const key of path.slice(0, -1)) node = node[key];
      node[path[path.length - 1]] = value;
    }
    return model;
  }

  const commit = () => {
    clearTimeout(timer);
    deps.onChange({ memoryModel: controls.model.value ? read() : undefined, t: null });
  };
  controls.model.addEventListener('change', () => {
    // A newly named model starts from core's defaults; switching models keeps the settings.
    if (controls.model.value && !current) {
      deps.onChange({ memoryModel: { ...defaultMemoryModel(), model: controls.model.value }, t: null });
      return;
    }
    commit();
  });
  for (const [name, , kind] of FIELDS) {
    const c = controls[name];
    if (kind === 'number') {
      c.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(commit, TYPING_DELAY_MS); });
    }
    c.addEventListener('change', commit);
  }

  return {
    update(state) {
      // The memory lane is the explorer's: elsewhere the model has nothing to show.
      root.hidden = state.view !== 'timeline';
      current = state.memoryModel || null;
      const set = (c, value) => {
        if (c.type === 'checkbox') c.checked = Boolean(value);
        else if (document.activeElement !== c && c.value !== String(value)) c.value = String(value);
      };
      set(controls.model, current?.model ?? '');
      grid.hidden = !current;
      if (current) for (const [name, path] of FIELDS) set(controls[name], at(current, path) ?? '');
      const errors = state.fieldErrors || {};
      showFieldError(messages.model, controls.model, errors['/memoryModel'] || errors['/memoryModel/model'], { t });
      for (const [name, path] of FIELDS) {
        showFieldError(messages[name], controls[name], errors[`/memoryModel/${path.join('/')}`], { t });
      }
    },
    destroy() {
      clearTimeout(timer);
      root.remove();
    },
  };
}
