// The explorer's per-stage costs (core's stageCosts): a switch, then one row per pipeline stage
// of the schedule drawn (F, B, W and F&B), two ways to fill them (the costs above on every stage,
// or DeepSeek-V3's layer split from core's layerSplit), and core's messages beside the fields
// they name. Off, every stage costs the costs above, as every closed form assumes.
// mount(element, deps) -> { update(state), destroy() }
//   deps.sim.layerSplit(request)   deps.t   deps.onChange({stageCosts})
// state: { view, costs, stageCosts (null or a list), config (configOf(state)), fieldErrors }
import { h, uniqueId } from '../ui/dom.js';
import { showFieldError } from '../ui/field-error.js';
import { formatNumber } from '../lib/format.js';
import { STAGE_FIELDS, stageCount } from '../lib/stage-costs-text.js';
import CATALOGUE from '../../generated/catalogue.js';

const TYPING_DELAY_MS = 350; // as the cost fields: simulate when typing pauses
const PRESET = CATALOGUE.layerSplit.presets[0]; // DeepSeek-V3

/** "" or "abc" stays text, so core's message names the field; otherwise a number. */
function readNumber(input) {
  const raw = input.value.trim();
  return raw === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
}

export function mount(element, deps) {
  const t = deps.t;
  const prefix = uniqueId('dpl-stages');
  const switchId = `${prefix}-on`;
  const on = h('input', { type: 'checkbox', id: switchId, name: 'stageCosts', 'aria-describedby': `${switchId}-hint ${switchId}-msg`, dataset: { path: '/stageCosts' } });
  const listMsg = h('p', { class: 'dpl-field-msg', id: `${switchId}-msg`, 'aria-live': 'polite' });
  const equal = h('button', { type: 'button', class: 'dpl-btn' }, [t('stages.equal')]);
  const split = h('button', { type: 'button', class: 'dpl-btn' }, [t('stages.split', { model: PRESET.label })]);
  const fit = h('button', { type: 'button', class: 'dpl-btn', hidden: true });
  const splitNote = h('p', { class: 'dpl-field-hint dpl-stage-note', 'aria-live': 'polite' });
  const body = h('tbody');
  const table = h('table', { class: 'dpl-stage-table' }, [
    h('caption', { class: 'visually-hidden', text: t('stages.caption') }),
    h('thead', {}, h('tr', {}, [
      h('th', { scope: 'col', text: t('stages.stage') }),
      ...STAGE_FIELDS.map((f) => h('th', { scope: 'col', title: t(`cost.${f}`) }, [h('abbr', { title: t(`cost.${f}`), text: t(`cost.${f}.sym`) })])),
    ])),
    body,
  ]);
  const panel = h('div', { class: 'dpl-stage-body', hidden: true }, [
    h('div', { class: 'dpl-stage-actions' }, [equal, split, fit]),
    splitNote,
    h('div', { class: 'dpl-stage-scroll' }, table),
  ]);
  const root = h('div', { class: 'dpl dpl-comm dpl-stages', hidden: true }, [
    h('div', { class: 'dpl-comm-switch' }, [on, h('label', { for: switchId, text: t('stages.switch') })]),
    h('p', { class: 'dpl-field-hint', id: `${switchId}-hint`, text: t('stages.hint') }),
    listMsg,
    panel,
  ]);
  element.append(root);

  let state = null;
  let rows = []; // per stage: {inputs: {field: input}, msgs: {field: p}}
  let timer = 0;
  let splitToken = 0;
  const count = () => (state ? stageCount(state.config) : null);
  const listOf = () => (Array.isArray(state?.stageCosts) ? state.stageCosts : null);
  const change = (stageCosts) => deps.onChange({ stageCosts });

  /** Every stage's four values: its own where given, else the costs above. */
  const resolved = (list, n) => Array.from({ length: n }, (_, i) => Object.fromEntries(
    STAGE_FIELDS.map((f) => [f, list?.[i]?.[f] ?? state.costs[f]])));

  function buildRows(n) {
    rows = [];
    body.replaceChildren(...Array.from({ length: n }, (_, i) => {
      const inputs = {};
      const msgs = {};
      const cells = STAGE_FIELDS.map((f) => {
        const id = `${prefix}-${i}-${f}`;
        inputs[f] = h('input', {
          type: 'number', id, inputmode: 'decimal', step: 'any', min: 0, dataset: { path: `/stageCosts/${i}/${f}` },
          'aria-label': t('stages.cell', { field: t(`cost.${f}`), stage: i }), 'aria-describedby': `${id}-msg`,
        });
        msgs[f] = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
        return h('td', {}, [inputs[f], msgs[f]]);
      });
      rows.push({ inputs, msgs });
      return h('tr', {}, [h('th', { scope: 'row', text: String(i) }), ...cells]);
    }));
  }

  function fill() {
    const n = count();
    const list = listOf();
    on.checked = Boolean(list);
    panel.hidden = !list;
    if (!list || n === null) return;
    const shown = Math.min(n, CATALOGUE.limits.maxStages);
    if (rows.length !== shown) buildRows(shown);
    resolved(list, shown).forEach((stage, i) => {
      for (const f of STAGE_FIELDS) {
        const input = rows[i].inputs[f];
        if (document.activeElement !== input && input.value !== String(stage[f])) {
          input.value = String(stage[f]);
          input.title = String(stage[f]); // the whole value, where the cell is too narrow for it
        }
      }
    });
    // A list of another length (the ranks or schedule changed): one click fits it.
    fit.hidden = list.length === n;
    fit.textContent = t('stages.fit', { n });
  }

  function showMessages() {
    const errors = state?.fieldErrors || {};
    rows.forEach((row, i) => {
      for (const f of STAGE_FIELDS) showFieldError(row.msgs[f], row.inputs[f], errors[`/stageCosts/${i}/${f}`] || null, { config: state.config, t });
    });
    // A message about the list as a whole (its length, a pair of stages) goes under the switch.
    const whole = Object.keys(errors).find((p) => p === '/stageCosts' || (/^\/stageCosts\/\d+$/.test(p)));
    showFieldError(listMsg, on, whole ? errors[whole] : null, { config: state.config, t });
  }

  function read() {
    return rows.map(({ inputs }) => Object.fromEntries(STAGE_FIELDS.map((f) => [f, readNumber(inputs[f])])));
  }

  on.addEventListener('change', () => {
    splitNote.textContent = '';
    const n = count();
    change(on.checked && n ? resolved(null, n) : null);
  });
  equal.addEventListener('click', () => {
    splitNote.textContent = '';
    change(resolved(null, count() || 0));
  });
  fit.addEventListener('click', () => {
    const list = listOf() || [];
    const n = count() || 0;
    // Stages kept as they are; new ones copy the last (the costs above when there is none).
    const base = resolved(list, list.length);
    change(Array.from({ length: n }, (_, i) => base[i] ?? base[base.length - 1] ?? resolved(null, 1)[0]));
  });
  split.addEventListener('click', async () => {
    const mine = ++splitToken;
    const n = count();
    if (!n) return;
    const { comm, ...costs } = state.costs; // the split averages F, B, W and F&B; comm stays shared
    try {
      const result = await deps.sim.layerSplit({ model: PRESET.name, stages: n, costs });
      if (mine !== splitToken) return;
      const layers = result.split.map((s) => t.number(s.layers)).join(', ');  // a sequence of values, not a sentence's list
      splitNote.textContent = t(`stages.split.${result.rule}`, {
        model: result.model.label, layers, stages: n, heaviest: formatNumber(result.imbalance, 3, t.lang),
      });
      change(result.stageCosts);
    } catch (error) {
      if (mine === splitToken) showFieldError(listMsg, on, error, { config: state.config, t });
    }
  });
  body.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => change(read()), TYPING_DELAY_MS);
  });
  body.addEventListener('change', () => {
    clearTimeout(timer);
    change(read());
  });

  return {
    update(next) {
      state = next;
      // The explorer's timeline only: its one schedule has one stage count.
      root.hidden = next.view !== 'timeline';
      fill();
      showMessages();
    },
    destroy() {
      clearTimeout(timer);
      splitToken += 1;
      root.remove();
    },
  };
}
