// Cost controls shared by every widget: F, B, W, F&B and p2p latency, and the optional
// communication model (costs.comm: all-to-all ratio, attention share, layers per chunk; off
// unless switched on). Also tells whether DeepSeek's published bubble formula holds for the
// current schedule and costs, and shows its value next to the simulated bubble (max idle per rank).
// mount(element, deps) -> { update(state), destroy() }
//   deps.sim.simulate(config)   deps.t   deps.onChange({costs})
// state: { costs, config (the schedule the formula is about), fieldErrors: {path: SimError},
//          source?: {name, lines} when the costs are a profiler trace's (views/trace-import.js):
//          which file, and how core derived each cost, said under the fields }
import { h, messageNodes, uniqueId } from '../ui/dom.js';
import { formatNumber } from '../lib/format.js';
import { derivationText } from '../lib/trace-costs.js';
import { showFieldError } from '../ui/field-error.js';
import { DEFAULT_COSTS, DEFAULT_COMM, PARAMS } from '../state.js';
import { scheduleInfo, scheduleTitle } from '../lib/schedules.js';
import { regionText } from '../lib/region-text.js';
import CATALOGUE from '../../generated/catalogue.js';

const FIELDS = Object.keys(DEFAULT_COSTS); // forward, backward, weight, overlapped, p2pLatency
// Form name (the field's key in the address, state.js) -> costs.comm field.
const COMM_FIELDS = Object.fromEntries(PARAMS.filter((p) => p.group === 'comm').map((p) => [p.key, p.path[p.path.length - 1]]));
const TYPING_DELAY_MS = 350; // simulate when typing pauses, not on every keystroke

/** "" or "abc" stays text, so the simulator's message names the field; otherwise a number. */
function readNumber(input) {
  const raw = input.value.trim();
  return raw === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
}

export function mount(element, deps) {
  const t = deps.t;
  const prefix = uniqueId('dpl-cost');
  const inputs = {};
  const messages = {};
  const paths = {}; // field name -> the JSON pointer a SimError names it by
  const numberField = (name, path, hint) => {
    const id = `${prefix}-${name}`;
    paths[name] = path;
    inputs[name] = h('input', {
      type: 'number', id, name, inputmode: 'decimal', step: 'any', min: 0,
      'aria-describedby': `${id}-msg${hint ? ` ${id}-hint` : ''}`, dataset: { path },
    });
    messages[name] = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
    return h('div', { class: 'dpl-field' }, [
      h('label', { for: id }, [h('span', { class: 'dpl-field-sym', text: t(`cost.${name}.sym`) }), h('span', { text: t(`cost.${name}`) })]),
      inputs[name],
      hint ? h('p', { class: 'dpl-field-hint', id: `${id}-hint`, text: hint }) : null,
      messages[name],
    ]);
  };
  const rows = FIELDS.map((field) => numberField(field, `/costs/${field}`));
  const reset = h('button', { type: 'button', class: 'dpl-btn dpl-reset' }, [t('cost.reset')]);
  const reference = h('div', { class: 'dpl-reference', 'aria-live': 'polite' });
  const source = h('div', { class: 'dpl-cost-source', hidden: true });

  // The communication model: a switch, and its three fields while it is on.
  const commId = `${prefix}-comm`;
  const commOn = h('input', { type: 'checkbox', id: commId, name: 'comm', 'aria-describedby': `${commId}-hint ${commId}-msg`, dataset: { path: '/costs/comm' } });
  messages.comm = h('p', { class: 'dpl-field-msg', id: `${commId}-msg`, 'aria-live': 'polite' });
  const commGrid = h('div', { class: 'dpl-cost-grid dpl-comm-grid', hidden: true },
    Object.entries(COMM_FIELDS).map(([name, field]) => numberField(name, `/costs/comm/${field}`, t(`cost.${name}.hint`, { max: CATALOGUE.limits.maxCommLayers }))));
  const commBox = h('div', { class: 'dpl-comm' }, [
    h('div', { class: 'dpl-comm-switch' }, [commOn, h('label', { for: commId, text: t('cost.comm') })]),
    h('p', { class: 'dpl-field-hint', id: `${commId}-hint`, text: t('cost.comm.hint') }),
    messages.comm,
    commGrid,
  ]);
  const root = h('fieldset', { class: 'dpl dpl-costs' }, [
    h('legend', { text: t('cost.legend') }),
    source,
    h('div', { class: 'dpl-cost-grid' }, [...rows, h('div', { class: 'dpl-cost-foot' }, [reset])]),
    commBox,
    reference,
  ]);
  element.append(root);

  let costs = { ...DEFAULT_COSTS };
  let timer = 0;
  let token = 0;
  let configKey = '';
  let config = null; // the run the formula is about (its schedule and shape)
  let stateErrors = {}; // from the app (the explorer's timeline)
  let ownError = null; // the SimError of this panel's own run of the config

  /**
   * Each field shows the message whose JSON pointer names it, from either source; a message
   * about the comm model as a whole (or a field it does not show) goes under its switch.
   */
  function showMessages() {
    const errorFor = (path) => stateErrors[path] || (ownError && ownError.path === path ? ownError : null);
    const commPaths = [...Object.keys(stateErrors), ownError?.path || ''].filter((p) => p === '/costs/comm' || p.startsWith('/costs/comm/'));
    const shown = new Set(Object.values(paths));
    const about = { ...(config || {}), costs: { ...costs } };
    for (const [name, path] of Object.entries(paths)) {
      showFieldError(messages[name], inputs[name], errorFor(path), {
        config: about, t,
        onFix: (patch) => {
          costs = { ...patch.costs };
          fill();
          deps.onChange({ costs: { ...patch.costs } });
          inputs[name].focus();
        },
      });
    }
    const other = commPaths.find((p) => !shown.has(p));
    showFieldError(messages.comm, commOn, other ? errorFor(other) : null, { config: about, t });
  }

  function read() {
    const next = {};
    // An empty or half-typed field goes to the simulator as text so its message names the field.
    for (const field of FIELDS) next[field] = readNumber(inputs[field]);
    if (commOn.checked) {
      next.comm = {};
      for (const [name, field] of Object.entries(COMM_FIELDS)) next.comm[field] = readNumber(inputs[name]);
    }
    return next;
  }

  function commit() {
    clearTimeout(timer);
    const next = read();
    if (JSON.stringify(next) !== JSON.stringify(costs)) {
      costs = next;
      deps.onChange({ costs: next });
    }
  }

  root.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(commit, TYPING_DELAY_MS);
  });
  root.addEventListener('change', commit);
  commOn.addEventListener('change', () => { commGrid.hidden = !commOn.checked; });
  reset.addEventListener('click', () => {
    costs = { ...DEFAULT_COSTS };
    fill();
    deps.onChange({ costs: { ...DEFAULT_COSTS } });
  });

  /** Shows `costs` in the fields, except one the learner is typing in; comm fields keep defaults while off. */
  function fill() {
    const comm = costs.comm && typeof costs.comm === 'object' ? costs.comm : null;
    const values = { ...costs };
    for (const [name, field] of Object.entries(COMM_FIELDS)) values[name] = comm && comm[field] !== undefined ? comm[field] : DEFAULT_COMM[field];
    for (const [name, input] of Object.entries(inputs)) {
      if (document.activeElement !== input && input.value !== String(values[name])) input.value = String(values[name]);
    }
    commOn.checked = Boolean(comm);
    commGrid.hidden = !comm;
  }

  async function showReference(config) {
    const mine = ++token;
    let result;
    try {
      result = await deps.sim.simulate(config);
    } catch (error) {
      if (mine !== token) return;
      reference.replaceChildren();
      // A cost the simulator rejects is marked here too: in the lesson no form shows it.
      ownError = error && error.path ? error : null;
      showMessages();
      return;
    }
    if (mine !== token) return;
    ownError = null;
    showMessages();
    const ref = result.reference || {};
    // Whole messages with the numbers (and the formula, which is maths) as elements inside.
    const simulated = h('p', { class: 'dpl-ref-sim' },
      messageNodes(t('ref.simulated'), { value: h('strong', { text: formatNumber(result.bubble.max, 3, t.lang) }) }));
    if (!ref.formula) {
      reference.replaceChildren(h('p', { class: 'dpl-ref-none', text: t('ref.none', { schedule: scheduleTitle(config.schedule, t) }) }), simulated);
      return;
    }
    const applies = Boolean(ref.applies);
    const verdict = applies ? t('ref.applies') : t('ref.notApplies');
    // A result's reference has no region; the catalogue's is the same for any shape, said here in
    // the page's language from its clauses (lib/region-text.js), not from core's English.
    const region = regionText(scheduleInfo(config.schedule)?.reference?.region, t);
    // Unequal per-stage costs are outside every region: say that rather than the region.
    // A reason puts the config outside the region: combined 1F1B, or unequal per-stage costs.
    const condition = ref.reason ? t(config.a2aOverlap ? 'ref.a2aOverlap' : 'ref.unequal') : region ? t('ref.condition', { c: region }) : '';
    reference.replaceChildren(
      // The equation "formula = value" is maths, one left-to-right unit inside the message, so a
      // right-to-left page does not reorder it.
      h('p', { class: 'dpl-ref-formula' }, messageNodes(t('ref.formula', { schedule: scheduleTitle(config.schedule, t) }), {
        formula: h('bdi', { dir: 'ltr' }, [h('code', { text: ref.formula }), ' = ', h('strong', { text: formatNumber(ref.bubbleMax, 3, t.lang) })]),
      })),
      simulated,
      h('p', { class: `dpl-ref-verdict ${applies ? 'is-ok' : 'is-off'}` }, [
        h('span', { class: 'dpl-ref-mark', 'aria-hidden': 'true', text: applies ? '✓' : '!' }),
        h('span', { text: t.sentences(verdict, condition) }),
      ]),
      ref.source ? h('p', { class: 'dpl-ref-source', text: t('ref.source', { s: ref.source }) }) : null,
    );
  }

  /** Where the costs came from, when a profiler trace gave them: the file and each derivation. */
  let sourceKey = '';
  function showSource(from) {
    const key = from ? `${from.name}\n${JSON.stringify(from.lines)}\n${t.lang}` : '';
    if (key === sourceKey) return;
    sourceKey = key;
    source.hidden = !from;
    if (!from) {
      source.replaceChildren();
      return;
    }
    // The file and the form in a line; the derivations one click away (the settings stay short).
    source.replaceChildren(h('details', {}, [
      h('summary', { text: t('trace.costsFrom', { name: from.name }) }),
      h('ul', {}, from.lines.map((line) => h('li', { text: `${t(`cost.${line.field}.sym`)} = ${formatNumber(line.value, 6, t.lang)}: ${derivationText(line, t)}` }))),
    ]));
  }

  return {
    update(state) {
      costs = { ...state.costs };
      fill();
      showSource(state.source ?? null);
      stateErrors = state.fieldErrors || {};
      config = state.config || null;
      showMessages();
      if (state.config) {
        const key = JSON.stringify(state.config);
        if (key !== configKey) {
          configKey = key;
          showReference(state.config);
        }
      }
    },
    destroy() {
      clearTimeout(timer);
      token += 1;
      root.remove();
    },
  };
}
