// Exercise 1's answer at other micro-batch counts: core's recover() result carries byMicrobatches,
// the saving at the smallest M both schedules accept and at 1.5 to 8 times it. A schedule's idle
// time per rank does not grow with M, so the saving shrinks as M grows; this table puts that in
// plain sight, and states the M and costs behind any whole-run figure on the row it belongs to.
import { h } from './dom.js';
import { numberLocale, formatNumber } from '../lib/format.js';

/**
 * createRecoveryByM(result, {t, lang, title}) -> HTMLElement: a table of result.byMicrobatches
 * (core's RecoverResult), the request's own M marked. `title(name)` gives a schedule's display name.
 */
export function createRecoveryByM(result, { t, lang, title }) {
  const c = result.costs;
  const percent = new Intl.NumberFormat(numberLocale(lang), { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const hours = new Intl.NumberFormat(numberLocale(lang), { maximumSignificantDigits: 3 });
  const runTotals = result.trainingTokens !== null;
  const caption = t('ex.recoverByM.caption', {
    p: result.ranks, ...Object.fromEntries(Object.entries({ f: c.forward, b: c.backward, w: c.weight, fb: c.overlapped }).map(([k, v]) => [k, formatNumber(v, 6, lang)])),
    baseline: hours.format(result.gpuHoursPerMillionTokens),
  });
  const columns = [
    t('ex.recoverByM.m'),
    t('ex.recoverByM.utilization', { from: title(result.from), to: title(result.to) }),
    t('ex.recoverByM.perMillion'),
    ...(runTotals ? [t('ex.recoverByM.run', { tokens: hours.format(result.trainingTokens / 1e12) })] : []),
  ];
  const rows = result.byMicrobatches.map((point) => {
    const own = point.microbatches === result.microbatches;
    const cells = [
      h('th', { scope: 'row', text: own ? t('ex.recoverByM.thisM', { m: point.microbatches }) : String(point.microbatches) }),
      h('td', { text: `${percent.format(point.utilizationFrom)} → ${percent.format(point.utilizationTo)}` }),
      h('td', { text: hours.format(point.recoveredGpuHoursPerMillionTokens) }),
      ...(runTotals ? [h('td', { text: hours.format(point.recoveredGpuHoursForRun) })] : []),
    ];
    return h('tr', own ? { 'aria-current': 'true', class: 'dpl-row-current' } : {}, cells);
  });
  // The caption sits above the table rather than in it, so it wraps on a phone.
  return h('div', { class: 'dpl-recover-by-m' }, [
    h('p', { class: 'dpl-recover-by-m-caption', text: caption }),
    h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': t('ex.recoverByM.title') }, [
      h('table', { class: 'dpl-table' }, [
        h('thead', {}, [h('tr', {}, columns.map((text) => h('th', { scope: 'col', text })))]),
        h('tbody', {}, rows),
      ]),
    ]),
    h('p', { class: 'dpl-field-hint', text: t(runTotals ? 'ex.recoverByM.noteRun' : 'ex.recoverByM.note') }),
  ]);
}
