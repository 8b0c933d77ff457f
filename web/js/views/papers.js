// "Checked against the papers": the Zero Bubble paper's published bubble rates (its Table 5, from
// the per-op times of its Table 9; lessons/papers/zero-bubble-bubble-rates.json, copied into
// web/generated/ by the site build) beside the rates of our schedules run live, through the
// worker, at the same times. One table per model size; each rate pair says whether it matches to
// the paper's 4 printed decimals and, where not, why in words. The runs start when the panel is
// first opened. What is run and how a result is measured: lib/paper-rates.js.
// mount(element, deps) -> { update(state), destroy() }
//   deps.sim.simulate(config) -> Promise<result>   deps.t   deps.fetchJson?(url)
// state: { lang }
import { h, uniqueId } from '../ui/dom.js';
import { errorText } from '../lib/error-text.js';
import { scheduleTitle } from '../lib/schedules.js';
import { formatFixedIn, formatNumber } from '../lib/format.js';
import { byModel, paperConfig, paperBubbleRate, verdict, workPerRank, interleavedChunks } from '../lib/paper-rates.js';

export const PAPER_URL = 'generated/lessons/papers/zero-bubble-bubble-rates.json';


async function fetchJson(url) {
  const response = await fetch(new URL(url, document.baseURI));
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  return response.json();
}

export function mount(element, deps) {
  const t = deps.t;
  const fixed4 = (x) => formatFixedIn(x, 4, t.lang); // the paper's 4 printed decimals, in the page's decimal sign
  const id = uniqueId('dpl-papers');
  const status = h('p', { class: 'dpl-papers-status', role: 'status' });
  const body = h('div', { class: 'dpl-papers-body' });
  const root = h('details', { class: 'dpl dpl-papers' }, [
    h('summary', {}, [h('h2', { class: 'dpl-papers-title', id: `${id}-title`, text: t('papers.title') })]),
    h('p', { class: 'dpl-papers-intro', text: t('papers.intro') }),
    h('p', { class: 'dpl-papers-measure', text: t('papers.measure') }),
    status, body,
  ]);
  element.append(root);

  let started = false;
  let alive = true;

  /** One model's table: a row per (micro-batches, schedule) with the two rates and the verdict. */
  function modelTable(group, results) {
    const rows = [];
    const notes = new Set();
    group.rows.forEach((row, i) => {
      for (const [schedule, published] of Object.entries(row.published)) {
        const ours = results[i][schedule];
        const kind = verdict(schedule, ours, published);
        if (kind !== 'match') notes.add(kind);
        const gap = fixed4(ours - published);
        rows.push(h('tr', { dataset: { schedule, microbatches: row.microbatches, verdict: kind } }, [
          h('td', { class: 'num', text: String(row.microbatches) }),
          h('th', { scope: 'row', text: scheduleTitle(schedule, t) }),
          h('td', { class: 'num dpl-papers-published', text: fixed4(published) }),
          h('td', { class: 'num dpl-papers-ours', text: fixed4(ours) }),
          h('td', { class: `dpl-papers-verdict is-${kind}`, text: t(`papers.verdict.${kind}`, { gap }) }),
        ]));
      }
    });
    const times = t.series(group.rows.map((row) => t('papers.times', { m: row.microbatches, ...Object.fromEntries(['tF', 'tB', 'tW', 'tComm'].map((k) => [k, formatNumber(row[k], 6, t.lang)])) })));
    const caption = t('papers.caption', { model: group.model, layers: group.layers, stages: group.stages });
    const table = h('table', { class: 'dpl-table dpl-papers-table', dataset: { model: group.model } }, [
      h('caption', { text: caption }),
      h('thead', {}, [h('tr', {}, [
        h('th', { scope: 'col', text: t('papers.col.microbatches') }),
        h('th', { scope: 'col', text: t('papers.col.schedule') }),
        h('th', { scope: 'col', text: t('papers.col.published') }),
        h('th', { scope: 'col', text: t('papers.col.ours') }),
        h('th', { scope: 'col', text: t('papers.col.verdict') }),
      ])]),
      h('tbody', {}, rows),
    ]);
    const noteText = [...notes].map((kind) => t(`papers.note.${kind}`, { v: interleavedChunks(group.rows[0]), layers: group.layers, stages: group.stages }));
    return h('div', { class: 'dpl-papers-model' }, [
      h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': caption }, [table]),
      h('p', { class: 'dpl-papers-times', text: t('papers.timesLead', { times }) }),
      ...noteText.map((text) => h('p', { class: 'dpl-papers-note', text })),
    ]);
  }

  async function run() {
    started = true;
    status.textContent = t('papers.running');
    try {
      const table = await (deps.fetchJson ?? fetchJson)(PAPER_URL);
      const groups = byModel(table);
      const sections = [];
      let matches = 0;
      let total = 0;
      for (const group of groups) {
        // Every run of a model at once: the worker queues them.
        const results = await Promise.all(group.rows.map(async (row) => {
          const out = {};
          await Promise.all(Object.keys(row.published).map(async (schedule) => {
            const result = await deps.sim.simulate(paperConfig(row, schedule));
            out[schedule] = paperBubbleRate(result, workPerRank(row));
            total += 1;
            if (verdict(schedule, out[schedule], row.published[schedule]) === 'match') matches += 1;
          }));
          return out;
        }));
        if (!alive) return;
        sections.push(modelTable(group, results));
      }
      body.replaceChildren(...sections,
        h('p', { class: 'dpl-papers-note', text: t('papers.zbv') }),
        h('p', { class: 'dpl-papers-source', text: t('papers.source', { source: table.source }) }));
      status.textContent = t('papers.summary', { matches, total, models: groups.length });
      root.dataset.ready = '1';
    } catch (error) {
      if (!alive) return;
      status.textContent = t('papers.error', { message: errorText(error, t.lang) });
    }
  }

  root.addEventListener('toggle', () => {
    if (root.open && !started) run();
  });

  return {
    update() {},
    destroy() {
      alive = false;
      root.remove();
    },
  };
}
