// Exercise 4's calculator: pick a preset (the exercise's models and layouts) or change P, TP, EP,
// DP, the precision recipe, the ZeRO stage and GPU memory, and see core's parameter breakdown of
// the model (every matrix family with its formula). What one GPU holds under each schedule (core
// lists every catalogue schedule, shown in the catalogue's order) is the exercise's answer, so that
// table stays hidden until the learner has made an attempt; beside it, what every row assumes,
// with its source. Every number comes from pipesim params(), a view of core's memory model.
import { h, uniqueId } from './dom.js';
import { sig as sigIn } from './exercise-fields.js';
import { formatCount } from '../lib/format.js';
import { SCHEDULE_NAMES, scheduleTitle } from '../lib/schedules.js';
import { errorText } from '../lib/error-text.js';
import { showFieldError, withFieldNames } from './field-error.js';
import { setStale } from './stale.js';
import { labelCells } from './table-labels.js';
import { countWords, plainPercent } from '../lib/plain-number.js';
import { assumptionsList, labelText, sourceText } from './memory-assumptions.js';
import CATALOGUE from '../../generated/catalogue.js';
const FIELDS = [
  ['pp', 'ex.params.pp'], ['tp', 'ex.params.tp'], ['ep', 'ex.params.ep'], ['dp', 'ex.params.dp'], ['gpuMemoryGb', 'ex.params.memory'],
];
// The memory model's choices and defaults: core's catalogue, never restated here.
const MEMORY = CATALOGUE.memory;


/** createParamsCalculator({t, sim, presets: [{id, request, label}]}) -> {element, reveal(), solution(), destroy()} */
export function createParamsCalculator({ t, sim, presets }) {
  const prefix = uniqueId('dpl-params');
  // Counts with the language's grouping (formatCount: one an answer field reads back), GB and shares in its decimal sign.
  const grouped = (n) => formatCount(n, t.lang);
  const gb = (bytes) => `${sigIn(bytes / 1e9, 4, t.lang)} GB`;
  const presetSelect = h('select', { id: `${prefix}-preset`, name: 'preset' },
    presets.map((p) => h('option', { value: p.id, text: p.label })));
  const inputs = {};
  const messages = {};
  const fieldNodes = FIELDS.map(([name, key]) => {
    const id = `${prefix}-${name}`;
    inputs[name] = h('input', { type: 'number', id, name, step: 'any', min: 1, 'aria-describedby': `${id}-msg` });
    messages[name] = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
    return h('div', { class: 'dpl-field' }, [h('label', { for: id, text: t(key) }), inputs[name], messages[name]]);
  });
  const select = (name, key, options) => {
    const id = `${prefix}-${name}`;
    inputs[name] = h('select', { id, name, 'aria-describedby': `${id}-msg` }, options.map(([value, label]) => h('option', { value, text: label })));
    messages[name] = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
    return h('div', { class: 'dpl-field' }, [h('label', { for: id, text: t(key) }), inputs[name], messages[name]]);
  };
  const recipeField = select('recipe', 'ex.params.recipe', MEMORY.recipes.map((r) => [r.id, labelText(r, t)]));
  const zeroField = select('zero', 'ex.params.zero', MEMORY.zeroStages.map((z) => [String(z), `ZeRO-${z}`]));
  const form = h('div', { class: 'dpl-ex-inputs dpl-params-form' }, [
    h('div', { class: 'dpl-field dpl-field-wide' }, [h('label', { for: presetSelect.id, text: t('ex.params.preset') }), presetSelect]),
    ...fieldNodes, recipeField, zeroField,
  ]);
  const breakdown = h('div', { class: 'dpl-params-breakdown', 'aria-live': 'polite' });
  const footprint = h('div', { class: 'dpl-params-footprint', hidden: true });
  const error = h('div');
  const element = h('div', { class: 'dpl-params' }, [form, error, breakdown, footprint]);

  let token = 0;
  let timer = 0;
  let lastResult = null;
  // A part's name and what it counts; a part core adds before the page has words for it shows its id.
  const partText = (part, what) => {
    const key = `ex.part.${part}${what ? `.${what}` : ''}`;
    return t(key) === key ? (what ? '' : part) : t(key);
  };
  const partName = (part) => partText(part, '');
  // An error's sentence names a field by its label here (pf.<field> has none for these).
  const named = withFieldNames(t, Object.fromEntries(FIELDS.map(([name, key]) => [`pf.${name}`, t(key)])));

  function fill(preset) {
    const r = preset.request;
    inputs.pp.value = r.pp;
    inputs.tp.value = r.tp ?? MEMORY.defaults.tp;
    inputs.ep.value = r.ep ?? MEMORY.defaults.ep;
    inputs.dp.value = r.dp ?? MEMORY.defaults.dp;
    inputs.gpuMemoryGb.value = r.gpuMemoryGb ?? MEMORY.defaults.gpuMemoryGb;
    inputs.recipe.value = r.recipe ?? MEMORY.defaults.recipe;
    inputs.zero.value = String(r.zero ?? MEMORY.defaults.zero);
  }

  function request() {
    const preset = presets.find((p) => p.id === presetSelect.value) || presets[0];
    const req = { model: preset.request.model, recipe: inputs.recipe.value, zero: Number(inputs.zero.value) };
    if (preset.request.custom) req.custom = preset.request.custom;
    for (const [name] of FIELDS) {
      const raw = inputs[name].value.trim();
      req[name] = raw === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
    }
    return req;
  }

  function footprintTable(result) {
    return labelCells(h('table', { class: 'dpl-table dpl-params-table dpl-ex-table' }, [
      h('caption', { text: t('ex.params.footprintCaption', { model: labelText(result.model, t) || result.model.name, tp: result.tp, pp: result.pp, ep: result.ep, dp: result.dp }) }),
      h('thead', {}, [h('tr', {}, ['ex.params.col.schedule', 'ex.params.col.stages', 'ex.params.col.perRank', 'ex.params.col.copies',
        'ex.params.col.params', 'ex.params.col.weights', 'ex.params.col.bytes', 'ex.params.col.share'].map((k) => h('th', { scope: 'col', text: t(k) })))]),
      h('tbody', {}, SCHEDULE_NAMES.filter((name) => result.schedules[name]).map((name) => {
        const f = result.schedules[name];
        return h('tr', {}, [h('th', { scope: 'row', text: scheduleTitle(name, t) }), h('td', { text: String(f.stages) }), h('td', { text: String(f.stagesPerRank) }),
          h('td', { text: String(f.paramCopies) }), h('td', { text: grouped(f.paramsPerGpu) }), h('td', { text: gb(f.weightBytesPerGpu) }),
          h('td', { text: gb(f.bytesPerGpu) }), h('td', { text: plainPercent(f.shareOfGpuMemory, 3, t.lang) })]);
      })),
    ]));
  }

  /** The table with what every row assumes, each assumption with its source. */
  function footprintBlock(result) {
    return [
      h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': t('ex.params.footprintTitle') }, [footprintTable(result)]),
      h('p', { class: 'dpl-params-assumptions', text: t('ex.params.assumptions') }),
      assumptionsList(result.assumptions, t),
    ];
  }

  function render(result) {
    lastResult = result;
    // What each part counts, in words (core's formula names its config fields: no learner reads those).
    const rows = result.breakdown.map((p) => h('tr', { dataset: { part: p.part } }, [
      h('th', { scope: 'row', text: partName(p.part) }),
      h('td', { class: 'is-num', text: grouped(p.params) }), h('td', { text: partText(p.part, 'what') }),
    ]));
    const excluded = result.excluded.map((p) => h('li', { text: t('ex.params.excluded', { part: partName(p.part), n: grouped(p.params) }) }));
    breakdown.replaceChildren(
      h('p', { class: 'dpl-params-model' }, [h('strong', { text: labelText(result.model, t) || result.model.name }), ' · ', h('span', { text: sourceText(result.model, t) })]),
      h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': t('ex.params.breakdownCaption') }, [labelCells(h('table', { class: 'dpl-table dpl-params-table dpl-ex-table' }, [
        h('caption', { text: t('ex.params.breakdownCaption') }),
        h('thead', {}, [h('tr', {}, ['ex.params.col.part', 'ex.params.col.count', 'ex.params.col.formula'].map((k) => h('th', { scope: 'col', text: t(k) })))]),
        h('tbody', {}, rows),
        h('tfoot', {}, [
          h('tr', {}, [h('th', { scope: 'row', text: t('ex.params.total') }), h('td', { class: 'is-num', text: grouped(result.totalParams) }), h('td', { text: countWords(result.totalParams, t, 5) })]),
          h('tr', {}, [h('th', { scope: 'row', text: t('ex.params.routed') }), h('td', { class: 'is-num', text: grouped(result.routedParams) }), h('td', { text: result.routedParams ? t('ex.params.routedNote', { ep: result.ep }) : '' })]),
        ]),
      ]))]),
      excluded.length ? h('ul', { class: 'dpl-params-excluded' }, excluded) : '',
    );
    footprint.replaceChildren(...footprintBlock(result));
  }

  async function run() {
    const mine = ++token;
    for (const name of Object.keys(inputs)) showFieldError(messages[name], inputs[name], null, { t });
    error.replaceChildren();
    try {
      const result = await sim.params(request());
      if (mine !== token) return;
      setStale(breakdown, null, t);
      render(result);
    } catch (err) {
      if (mine !== token) return;
      if (lastResult) setStale(breakdown, t('stale.params'), t);
      const name = (err.path || '').slice(1);
      if (inputs[name]) {
        showFieldError(messages[name], inputs[name], err, { config: request(), t: named });
      } else {
        error.replaceChildren(h('div', { class: 'dpl-error', role: 'alert' }, [h('p', { text: errorText(err, t.lang) })]));
      }
    }
  }

  presetSelect.addEventListener('change', () => { fill(presets.find((p) => p.id === presetSelect.value)); run(); });
  form.addEventListener('input', (e) => {
    if (e.target === presetSelect || e.target.tagName === 'SELECT') return;  // selects run on change
    clearTimeout(timer);
    timer = setTimeout(run, 350);
  });
  inputs.recipe.addEventListener('change', run);
  inputs.zero.addEventListener('change', run);
  fill(presets[0]);
  run();

  return {
    element,
    /** Shows what each GPU holds under each schedule (after an attempt). */
    reveal() { footprint.hidden = false; },
    /** The footprint tables of every preset, for the worked solution. */
    async solution() {
      const tables = await Promise.all(presets.map(async (p) => {
        try {
          return h('div', {}, footprintBlock(await sim.params(p.request)));
        } catch (err) {
          return h('p', { class: 'dpl-field-msg', text: errorText(err, t.lang) });
        }
      }));
      return h('div', { class: 'dpl-params-solution' }, tables);
    },
    get result() { return lastResult; },
    destroy() { clearTimeout(timer); token += 1; },
  };
}
