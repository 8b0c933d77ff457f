// A lesson's table of one overlapped forward-backward pair (```pairs <id> <sim id>...```): for each
// all-to-all of the pair, the computation it runs under and for how long, in each named run's own
// costs and part order, as core reports it (result comm.ops.FB.hiding: the analysis `pipesim
// overlap` prints). So the lesson's Figure 4 table is the model's, not a second copy of it, and it
// follows the shared costs when the learner changes them.
// mount(element, deps) -> { update(ctx), destroy() }
//   deps.t  deps.sim (simulate)  deps.sources (sim ids)
// ctx (update): { configs (sim id -> config as written), t }: each column is its run as written
// (the lesson has no shared settings that would change it).
import { h, clear } from '../ui/dom.js';
import { scheduleTitle } from '../lib/schedules.js';
import { formatNumber } from '../lib/format.js';
import { errorText } from '../lib/error-text.js';

/** "MLP(W)" -> its words: "MLP weight gradient of the backward chunk" (i18n pairs.part.*). */
function partWords(t, label) {
  const m = /^([A-Z]+)\(([FBW])\)$/.exec(label);
  return m ? t(`pairs.part.${m[1].toLowerCase()}.${m[2]}`) : label;
}

/**
 * The table's rows from each run's pair: one row per communication part of the first run's pair
 * (core lists them in the same sequence in every part order), with each run's cell
 * {items: [{label, overlap}], exposed}, or null where that run's pair has no such part (fewer
 * layers per chunk). DOM-free.
 */
export function pairRows(pairs) {
  return pairs[0].hiding.map((row, i) => ({
    label: row.label,
    layer: row.layer,
    cells: pairs.map((pair) => {
      const part = pair.hiding[i];
      if (!part || part.label !== row.label || part.layer !== row.layer) return null;
      return { items: part.hiddenBy.map((b) => ({ label: b.label, overlap: b.overlap })), exposed: part.exposed };
    }),
  }));
}

export function mount(element, deps) {
  const { sim, sources } = deps;
  let t = deps.t;
  let token = 0;
  const root = h('figure', { class: 'pair-table-box', 'aria-busy': 'true' });
  element.append(root);

  // A run is named as the lesson names its widget: "figure 5", a link to it (the reader numbers
  // the widgets and handles the links), or its id where it has no number.
  const figureOf = (id) => {
    const n = element.closest('.lesson')?.querySelector(`.sim-widget[data-sim-id="${CSS.escape(id)}"]`)?.dataset.figure;
    return n ? h('a', { class: 'fig-ref pair-table-id', href: `#figure-${n}`, dataset: { figure: n }, text: t('lesson.figureRef', { n }) })
      : h('span', { class: 'pair-table-id', text: id });
  };
  const columnLabel = (config, result) => `${scheduleTitle(config.schedule, t)} · ${t(`pairs.order.${result.comm?.partOrder}`)}`;
  const heading = (id, config, result) => h('th', { scope: 'col' }, [
    h('span', { class: 'pair-table-run', text: scheduleTitle(config.schedule, t) }),
    h('span', { class: 'pair-table-order', text: t(`pairs.order.${result.comm?.partOrder}`) }),
    figureOf(id),
  ]);

  function draw(runs) {
    const pairs = runs.map((r) => r.result.comm.ops.FB);
    const layers = runs[0].result.costs.comm.layers;
    const rows = pairRows(pairs);
    // Each cell names its column, so css/lesson.css can stack a row as a card on a phone (as the
    // reader labels the lesson's own tables, ui/table-labels.js).
    const labels = runs.map((r) => columnLabel(r.config, r.result));
    const body = rows.map((row) => h('tr', {}, [
      h('th', { scope: 'row' }, [
        h('code', { text: row.label }),
        layers > 1 ? h('span', { class: 'pair-table-layer', text: t('part.layer', { layer: row.layer + 1, layers }) }) : null,
        h('span', { class: 'pair-table-words', text: partWords(t, row.label) }),
      ]),
      ...row.cells.map((cell, i) => (!cell ? h('td', { text: '—', dataset: { label: labels[i] } }) : h('td', { dataset: { label: labels[i] } }, [
        ...cell.items.map((item) => h('span', { class: 'pair-table-item' }, [
          h('code', { text: item.label }), ` ${formatNumber(item.overlap, 3, t.lang)}`,
          h('span', { class: 'pair-table-words', text: partWords(t, item.label) }),
        ])),
        cell.exposed > 1e-9 ? h('span', { class: 'pair-table-exposed', text: t('pairs.exposed', { value: formatNumber(cell.exposed, 3, t.lang) }) }) : null,
        !cell.items.length && cell.exposed <= 1e-9 ? '—' : null,
      ]))),
    ]));
    clear(root).append(
      h('table', { class: 'pair-table' }, [
        h('thead', {}, [h('tr', {}, [h('th', { scope: 'col', text: t('pairs.a2a') }), ...runs.map((r) => heading(r.id, r.config, r.result))])]),
        h('tbody', {}, body),
        h('tfoot', {}, [h('tr', {}, [
          h('th', { scope: 'row', text: t('pairs.duration') }),
          ...pairs.map((p, i) => h('td', { dataset: { label: labels[i] }, text: t('pairs.lasts', { duration: formatNumber(p.duration, 3, t.lang), compute: formatNumber(p.compute, 3, t.lang), comm: formatNumber(p.comm, 3, t.lang) }) })),
        ])]),
      ]),
      h('figcaption', { text: t('pairs.caption') }),
    );
    root.setAttribute('aria-busy', 'false');
  }

  async function run(ctx) {
    const mine = ++token;
    t = ctx.t || t;
    const wanted = sources.map((id) => ({ id, written: ctx.configs.get(id) })).filter((r) => r.written);
    try {
      const runs = await Promise.all(wanted.map(async ({ id, written }) => {
        return { id, config: written, result: await sim.simulate(written) };
      }));
      if (mine !== token) return;
      // The learner may have switched the communication model off in the shared costs.
      if (!runs.length || runs.some((r) => !r.result.comm)) {
        clear(root).append(h('p', { class: 'lesson-note', text: t('pairs.noComm') }));
        root.setAttribute('aria-busy', 'false');
        return;
      }
      draw(runs);
    } catch (error) {
      if (mine !== token) return;
      clear(root).append(h('div', { class: 'dpl-error', role: 'alert' }, [h('p', { text: errorText(error, t.lang) })]));
      root.setAttribute('aria-busy', 'false');
    }
  }

  return {
    update(ctx) { run(ctx); },
    destroy() {
      token += 1;
      root.remove();
    },
  };
}
