// The explorer's "Load a profiler trace": a file picker and a drop zone for a PyTorch Profiler
// (Kineto) trace or any Chrome trace-event JSON, read by core's trace reader in the simulator's
// worker (the JS API's traceImport; nothing leaves the page) after the size check core's
// catalogue gives (limits.maxTraceBytes). Core's message for a malformed, truncated or foreign
// file goes beside the field, in the page's language. What was read: the trace's GPU streams
// drawn by the explorer's own timeline widget (lib/timeline-trace-lanes.js makes its lanes:
// same zoom, overview, table and keys), the costs of the measured chunk pair with how core
// derived each, the measured pair beside the pair the communication model times on those costs
// (`pipesim overlap`) on one time axis, and one action that hands the costs to the explorer and
// the sweep (deps.onUse), which then say where their costs came from.
// mount(element, deps) -> { update(), destroy() }
//   deps.sim (traceImport, overlapPair)   deps.t   deps.mountTimeline(element) -> timeline view
//   deps.onUse({name, costs, lines})   the costs of lib/trace-costs.js, from the file `name`
import { h, uniqueId, clear } from '../ui/dom.js';
import { errorText } from '../lib/error-text.js';
import { laneSet } from '../lib/timeline-model.js';
import { traceLane, measuredPairLane, modelPairLane } from '../lib/timeline-trace-lanes.js';
import { measuredCosts, derivationText } from '../lib/trace-costs.js';
import { formatNumber } from '../lib/format.js';
import { quoteValue } from '../state.js';
import CATALOGUE from '../../generated/catalogue.js';

const MAX_BYTES = CATALOGUE.limits.maxTraceBytes;
/** The last trace read, kept across a remount (a language switch mounts every view again). */
let remembered = null; // {report, name, ms}

/** A byte count as the page states sizes, in language `lang`: 268435456 -> "256 MiB", 203525 -> "198.8 KiB" (Spanish "198,8 KiB"). */
const sizeText = (bytes, lang) => (bytes >= 2 ** 20 ? `${formatNumber(bytes / 2 ** 20, 1, lang)} MiB` : `${formatNumber(bytes / 2 ** 10, 1, lang)} KiB`);

export function mount(element, deps) {
  const t = deps.t;
  const id = uniqueId('dpl-trace');
  const file = h('input', { type: 'file', id: `${id}-file`, class: 'dpl-trace-file', accept: '.json,application/json', 'aria-describedby': `${id}-hint ${id}-msg` });
  const pick = h('label', { for: file.id, class: 'dpl-btn dpl-trace-pick', text: t('trace.pick') });
  const drop = h('div', { class: 'dpl-trace-drop' }, [file, pick, h('span', { class: 'dpl-trace-drop-text', text: t('trace.drop') })]);
  const message = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
  const status = h('p', { class: 'dpl-trace-status', role: 'status' });
  const result = h('div', { class: 'dpl-trace-result', hidden: true });
  const root = h('details', { class: 'dpl dpl-trace' }, [
    h('summary', {}, [h('h2', { class: 'dpl-trace-title', text: t('trace.title') })]),
    h('p', { class: 'dpl-trace-intro', text: t('trace.intro') }),
    h('div', { class: 'dpl-field dpl-trace-field' }, [
      drop,
      h('p', { class: 'dpl-field-hint', id: `${id}-hint`, text: t('trace.hint', { max: sizeText(MAX_BYTES, t.lang) }) }),
      message,
    ]),
    status, result,
  ]);
  element.append(root);

  let token = 0;
  let views = []; // the timelines drawn for the current trace
  let loads = 0; // a key per load, so the same file loaded again is drawn again

  function dropViews() {
    for (const view of views) view.destroy();
    views = [];
  }

  /** Core's message (or a read failure's) beside the field; the last good trace stays below. */
  function fail(error) {
    status.textContent = '';
    message.textContent = errorText(error, t.lang);
    drop.setAttribute('aria-invalid', 'true');
    file.setAttribute('aria-invalid', 'true');
  }

  async function load(picked) {
    const mine = ++token;
    message.textContent = '';
    drop.removeAttribute('aria-invalid');
    file.removeAttribute('aria-invalid');
    const name = quoteValue(picked.name);
    // The cap before anything is read: a larger file is refused as core refuses it (input.too_large).
    if (picked.size > MAX_BYTES) {
      fail({ code: 'too_large', rule: 'input.too_large', params: { limit: MAX_BYTES }, message: `input is larger than the limit of ${MAX_BYTES} bytes` });
      return;
    }
    status.textContent = t('trace.reading', { name });
    let report;
    let ms;
    try {
      const bytes = new Uint8Array(await picked.arrayBuffer());
      const start = performance.now();
      report = await deps.sim.traceImport(bytes);
      ms = performance.now() - start;
    } catch (error) {
      if (mine === token) fail(error);
      return;
    }
    if (mine !== token) return;
    remembered = { report, name, ms };
    await show(report, name, ms, mine);
  }

  /** Draws what `report` holds: its streams, its costs, its measured pair beside the model's. */
  async function show(report, name, ms, mine) {
    status.textContent = t('trace.read', { name, size: sizeText(report.bytes, t.lang), ms: Math.round(ms), streams: report.streams.length, devices: report.devices.length });
    const key = `${++loads}`;
    dropViews();
    clear(result);
    result.hidden = false;
    if (report.streams.length) {
      const slot = h('div', { class: 'dpl-trace-timeline' });
      result.append(slot);
      const view = deps.mountTimeline(slot);
      views.push(view);
      view.update({ model: laneSet([traceLane(report, name, t.lang)], { unit: 'ms' }), modelKey: key, t: null });
    }
    if (report.streams.length && !report.spans.length) result.append(h('p', { class: 'dpl-trace-note', text: t('trace.noSpans') }));
    const measured = measuredCosts(report);
    if (!measured) {
      result.append(h('p', { class: 'dpl-trace-note', text: t('trace.noCosts', { why: errorText(report.derivedMissingReason ?? report.derivedMissing, t.lang) }) }));
      return;
    }
    const lines = measured.lines.map((line) => h('div', {}, [
      h('dt', { text: `${t(`cost.${line.field}.sym`)} = ${formatNumber(line.value, 6, t.lang)}` }),
      h('dd', { text: derivationText(line, t) }),
    ]));
    const use = h('button', { type: 'button', class: 'dpl-btn dpl-trace-use-btn', text: t('trace.use') });
    const used = h('span', { class: 'dpl-trace-used', role: 'status' });
    use.addEventListener('click', () => {
      deps.onUse({ name, costs: measured.costs, lines: measured.lines });
      used.textContent = t('trace.used', { name });
    });
    result.append(
      h('h3', { text: t('trace.costsTitle') }),
      h('dl', { class: 'dpl-trace-costs' }, lines),
      h('p', { class: 'dpl-trace-use' }, [use, used]),
    );
    // The model's pair on the measured costs (explicit components: the backward's own all-to-alls).
    let pair;
    try {
      pair = await deps.sim.overlapPair(report.derived.costs);
    } catch (error) {
      if (mine === token) result.append(h('p', { class: 'dpl-field-msg', text: errorText(error, t.lang) }));
      return;
    }
    if (mine !== token) return;
    const device = report.derived.firstPair.device;
    const lanes = [measuredPairLane(report, t('trace.pairMeasured', { name, device }), t.lang), modelPairLane(pair, t('trace.pairModel'), t.lang)];
    const slot = h('div', { class: 'dpl-trace-pair' });
    result.append(h('h3', { text: t('trace.pairTitle') }), slot);
    const view = deps.mountTimeline(slot);
    views.push(view);
    view.update({ model: laneSet(lanes, { unit: 'ms' }), modelKey: key, t: null });
  }

  file.addEventListener('change', () => {
    const picked = file.files?.[0];
    if (picked) load(picked);
    file.value = ''; // the same file chosen again is read again
  });
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('is-over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('is-over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('is-over');
    const picked = event.dataTransfer?.files?.[0];
    if (picked) load(picked);
  });

  if (remembered) {
    root.open = true;
    show(remembered.report, remembered.name, remembered.ms, token);
  }

  return {
    update() {},
    destroy() {
      token += 1;
      dropViews();
      root.remove();
    },
  };
}
