// A lesson's ```memory``` fence drawn as a table: core's memory model (sim.memory) for the fence's
// request, one row per side (model and layout, parameters per copy, the routed experts' share,
// one copy's model states, the extra copies, the total), and under it what every side assumes,
// each with its source, or what sets the sides apart when the request counts them differently.
// mount(el, {sim, t, request}) -> {update({t}), destroy()}
import { h, clear } from '../ui/dom.js';
import { assumptionText, labelText, sentenceGap, sourceText } from '../ui/memory-assumptions.js';
import { formatPercent, formatFixedIn, formatNumber, formatCount } from '../lib/format.js';
import { errorText } from '../lib/error-text.js';

const gb = (bytes, t) => t('mem.gb', { v: formatFixedIn(bytes / 1e9, 2, t.lang) });
const billions = (n, t) => `${formatFixedIn(n / 1e9, 2, t.lang)}B`;

function layoutCell(side, t) {
  const l = side.assumptions.layout;
  return l.ep > 1 ? t('mem.table.layoutEp', { pp: l.pp, ep: l.ep, dp: l.dp }) : t('mem.table.layout', { tp: l.tp, pp: l.pp, dp: l.dp });
}

function table(result, t) {
  const sides = result.sides ?? [result];
  const head = ['mem.table.side', 'mem.table.params', 'mem.table.routed', 'mem.table.extra', 'mem.table.total'];
  return h('table', { class: 'dpl-table dpl-memory-table' }, [
    h('caption', { text: t('mem.table.caption', { schedule: sides[0].assumptions.copies.title }) }),
    h('thead', {}, [h('tr', {}, head.map((k) => h('th', { scope: 'col', text: t(k) })))]),
    h('tbody', {}, sides.map((side) => h('tr', {}, [
      h('th', { scope: 'row' }, [h('span', { text: labelText(side.assumptions.model, t) }), h('span', { class: 'dpl-memory-layout', text: layoutCell(side, t) })]),
      h('td', { text: billions(side.perCopy.params, t) }),
      h('td', { text: `${formatPercent(side.perCopy.routedShare.params, 0, t.lang)}; ${formatPercent(side.perCopy.routedShare.bytes, 0, t.lang)}` }),
      h('td', { text: gb(side.extraCopyBytes, t) }),
      h('td', { text: gb(side.perGpu.bytes.total, t) }),
    ]))),
  ]);
}

/**
 * What the sides share, said once without any side's numbers (each side's DP and P are its own),
 * or what sets them apart; then each side's model and layout with its source.
 */
function assumptions(result, t) {
  const sides = result.sides ?? [result];
  const same = result.accounting ? result.accounting.same : true;
  const a = sides[0].assumptions;
  const shared = [];
  if (same) {
    const sharding = a.sharding.zero === 0 ? t('mem.a.sharding0') : t('mem.a.shardingShared', { zero: a.sharding.zero, what: t(`mem.shards.${a.sharding.zero}`) });
    const copies = t('mem.a.copiesShared', { title: a.copies.title, copies: formatNumber(a.copies.paramCopies, 3, t.lang) });
    const policy = a.layout.policy === 'gpus' ? t('mem.a.policyGpus', { gpus: formatCount(a.layout.gpus, t.lang) }) : t('mem.a.policyGiven');
    for (const [topic, text, source] of [['recipe', assumptionText('recipe', a.recipe, t), sourceText(a.recipe, t)],
      ['sharding', sharding, sourceText(a.sharding, t)], ['copies', copies, sourceText(a.copies, t)], ['layout', policy, sourceText(a.layout, t)]]) {
      shared.push(h('dt', { text: t(`mem.topic.${topic}`) }),
        h('dd', {}, [h('span', { text }), sentenceGap(t), h('span', { class: 'dpl-assumption-source', text: t('mem.source', { source }) })]));
    }
  }
  const perSide = sides.flatMap((side) => [
    h('dt', { text: labelText(side.assumptions.model, t) }),
    h('dd', {}, [
      h('span', { text: t.sentences(assumptionText('model', side.assumptions.model, t), assumptionText('layout', side.assumptions.layout, t)) }),
      sentenceGap(t), h('span', { class: 'dpl-assumption-source', text: t('mem.source', { source: sourceText(side.assumptions.model, t) }) }),
    ]),
  ]);
  return h('div', { class: 'dpl-memory-assumptions' }, [
    h('p', { text: same ? t('mem.table.same') : t('mem.table.apart', { text: result.accounting.text }) }),
    h('dl', { class: 'dpl-assumptions' }, [...shared, ...perSide]),
  ]);
}

export function mount(el, { sim, t: initialT, request }) {
  let t = initialT;
  let result = null;
  let failure = null;
  let alive = true;
  const root = h('div', { class: 'dpl dpl-memory', 'aria-live': 'polite' });
  el.append(root);

  function render() {
    clear(root);
    if (failure) {
      root.append(h('div', { class: 'dpl-error', role: 'alert' }, [h('p', { text: t('mem.table.error', { message: errorText(failure, t.lang) }) })]));
      return;
    }
    if (!result) return;
    root.append(h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': t('mem.table.caption', { schedule: '' }) }, [table(result, t)]), assumptions(result, t));
  }

  (async () => {
    try {
      result = await sim.memory(request);
    } catch (error) {
      failure = error;
    }
    if (alive) render();
  })();

  return {
    update(ctx) {
      if (ctx?.t && ctx.t !== t) {
        t = ctx.t;
        render();
      }
    },
    destroy() {
      alive = false;
      root.remove();
    },
  };
}
