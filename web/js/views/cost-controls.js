// Cost controls shared by every widget: F, B, W, F&B and p2p latency. Also tells whether
// DeepSeek's published bubble formula holds for the current schedule and costs, and shows its
// value next to the simulated bubble (max idle per rank).
// mount(element, deps) -> { update(state), destroy() }
//   deps.sim.simulate(config)   deps.t   deps.onChange({costs})
// state: { costs, config (the schedule the formula is about), fieldErrors: {path: message} }
import { h, uniqueId } from '../ui/dom.js';
import { formatNumber } from '../lib/format.js';
import { DEFAULT_COSTS } from '../state.js';

const FIELDS = ['forward', 'backward', 'weight', 'overlapped', 'p2pLatency'];
const TYPING_DELAY_MS = 350; // simulate when typing pauses, not on every keystroke

export function mount(element, deps) {
  const t = deps.t;
  const prefix = uniqueId('dpl-cost');
  const inputs = {};
  const messages = {};
  const rows = FIELDS.map((field) => {
    const id = `${prefix}-${field}`;
    inputs[field] = h('input', {
      type: 'number', id, name: field, inputmode: 'decimal', step: 'any', min: 0,
      'aria-describedby': `${id}-msg`, dataset: { path: `/costs/${field}` },
    });
    messages[field] = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
    return h('div', { class: 'dpl-field' }, [
      h('label', { for: id }, [h('span', { class: 'dpl-field-sym', text: t(`cost.${field}.sym`) }), h('span', { text: t(`cost.${field}`) })]),
      inputs[field],
      messages[field],
    ]);
  });
  const reset = h('button', { type: 'button', class: 'dpl-btn dpl-reset' }, [t('cost.reset')]);
  const reference = h('div', { class: 'dpl-reference', 'aria-live': 'polite' });
  const root = h('fieldset', { class: 'dpl dpl-costs' }, [
    h('legend', { text: t('cost.legend') }),
    h('div', { class: 'dpl-cost-grid' }, [...rows, h('div', { class: 'dpl-cost-foot' }, [reset])]),
    reference,
  ]);
  element.append(root);

  let costs = { ...DEFAULT_COSTS };
  let timer = 0;
  let token = 0;
  let configKey = '';
  let stateErrors = {}; // from the app (the explorer's timeline)
  let ownError = null; // {path, message} from this panel's own run of the config

  /** Each field shows the message whose JSON pointer names it, from either source. */
  function showMessages() {
    for (const field of FIELDS) {
      const path = `/costs/${field}`;
      const message = stateErrors[path] || (ownError && ownError.path === path ? ownError.message : '');
      messages[field].textContent = message;
      if (message) inputs[field].setAttribute('aria-invalid', 'true');
      else inputs[field].removeAttribute('aria-invalid');
    }
  }

  function read() {
    const next = {};
    for (const field of FIELDS) {
      const raw = inputs[field].value.trim();
      // An empty or half-typed field goes to the simulator as text so its message names the field.
      next[field] = raw === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
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
  reset.addEventListener('click', () => {
    costs = { ...DEFAULT_COSTS };
    for (const field of FIELDS) inputs[field].value = String(DEFAULT_COSTS[field]);
    deps.onChange({ costs: { ...DEFAULT_COSTS } });
  });

  async function showReference(config) {
    const mine = ++token;
    let result;
    try {
      result = await deps.sim.simulate(config);
    } catch (error) {
      if (mine !== token) return;
      reference.replaceChildren();
      // A cost the simulator rejects is marked here too: in the lesson no form shows it.
      ownError = error && error.path ? { path: error.path, message: error.message } : null;
      showMessages();
      return;
    }
    if (mine !== token) return;
    ownError = null;
    showMessages();
    const ref = result.reference || {};
    const simulated = h('p', { class: 'dpl-ref-sim' }, [
      h('span', { text: t('ref.simulated') }), ' ', h('strong', { text: formatNumber(result.bubble.max) }),
    ]);
    if (!ref.formula) {
      reference.replaceChildren(h('p', { class: 'dpl-ref-none', text: t('ref.none', { schedule: t(`sched.${config.schedule}`) }) }), simulated);
      return;
    }
    const applies = Boolean(ref.applies);
    const verdict = applies ? t('ref.applies') : t('ref.notApplies');
    const condition = ref.condition ? ` ${t('ref.condition', { c: ref.condition })}` : '';
    reference.replaceChildren(
      h('p', { class: 'dpl-ref-formula' }, [
        h('span', { text: t('ref.formula', { schedule: t(`sched.${config.schedule}`) }) }), ' ',
        h('code', { text: ref.formula }), ' = ', h('strong', { text: formatNumber(ref.bubbleMax) }),
      ]),
      simulated,
      h('p', { class: `dpl-ref-verdict ${applies ? 'is-ok' : 'is-off'}` }, [
        h('span', { class: 'dpl-ref-mark', 'aria-hidden': 'true', text: applies ? '✓' : '!' }),
        h('span', { text: `${verdict}${condition}` }),
      ]),
      ref.source ? h('p', { class: 'dpl-ref-source', text: t('ref.source', { s: ref.source }) }) : null,
    );
  }

  return {
    update(state) {
      costs = { ...state.costs };
      for (const field of FIELDS) {
        const input = inputs[field];
        // Leave a field alone while the learner is typing in it.
        if (document.activeElement !== input && input.value !== String(costs[field])) input.value = String(costs[field]);
      }
      stateErrors = state.fieldErrors || {};
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
