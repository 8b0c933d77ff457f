// The explorer's "Write your own schedule": a text box for a hand-written schedule (one line of op
// labels per rank, the JSON request, or a torch.distributed.pipelining schedule CSV, pasted or
// loaded from a file), its timeline drawn by the same widget as the explorer's,
// and core's message beside the box, in the learner's language, pointing at the line and op it
// blames. The text is read by lib/custom-schedule-text.js and judged only by core, through the
// same simulate call the CLI's `simulate --input` makes. The text goes into the address while it
// is short enough to share (state.js MAX_CUSTOM_URL_CHARS). Either schedule, the explorer's or
// the one written here, downloads as a PyTorch CSV written by core (the JS API's exportCsv).
// mount(element, deps) -> { update(state), destroy() }
//   deps.sim   deps.t   deps.onChange({custom})   deps.mountTimeline(element, {onError}) -> timeline view
// state: { custom (text), costs (the panel's), config (the explorer's main config) }
import { h, uniqueId } from '../ui/dom.js';
import { errorText } from '../lib/error-text.js';
import { readScheduleText, locate, scheduleText } from '../lib/custom-schedule-text.js';
import { normalizeTimeline } from '../lib/timeline-data.js';
import { MAX_CUSTOM_URL_CHARS, quoteValue } from '../state.js';

const TYPING_DELAY_MS = 500;

export function mount(element, deps) {
  const t = deps.t;
  const id = uniqueId('dpl-own');
  const box = h('textarea', {
    id: `${id}-text`, name: 'custom', rows: 6, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off',
    class: 'dpl-own-text', 'aria-describedby': `${id}-hint ${id}-read ${id}-msg`,
  });
  const read = h('p', { class: 'dpl-field-hint dpl-own-read', id: `${id}-read`, 'aria-live': 'polite' });
  const message = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
  const where = h('span', { class: 'dpl-own-where' });
  const select = h('button', { type: 'button', class: 'dpl-btn dpl-own-select', text: t('own.select') });
  const place = h('p', { class: 'dpl-own-place', hidden: true }, [where, ' ', select]);
  const fromExplorer = h('button', { type: 'button', class: 'dpl-btn dpl-own-from', text: t('own.fromExplorer') });
  const fromExplorerCsv = h('button', { type: 'button', class: 'dpl-btn dpl-own-from-csv', text: t('own.fromExplorerCsv') });
  const clearButton = h('button', { type: 'button', class: 'dpl-btn dpl-own-clear', text: t('own.clear') });
  const upload = h('input', { type: 'file', id: `${id}-file`, class: 'dpl-own-file', accept: '.csv,text/csv,text/plain' });
  const uploadLabel = h('label', { for: upload.id, class: 'dpl-btn dpl-own-upload', text: t('own.upload') });
  const downloadMine = h('button', { type: 'button', class: 'dpl-btn dpl-own-download', text: t('own.download'), hidden: true });
  const downloadExplorer = h('button', { type: 'button', class: 'dpl-btn dpl-own-download-explorer', text: t('own.downloadExplorer') });
  const fileStatus = h('p', { class: 'dpl-field-msg dpl-own-file-msg', 'aria-live': 'polite' });
  const tooLong = h('p', { class: 'dpl-notice dpl-own-long', role: 'status', hidden: true });
  const slot = h('div', { class: 'dpl-own-timeline' });
  const cli = h('code');
  const cliBox = h('details', { class: 'dpl-own-cli', hidden: true }, [h('summary', { text: t('own.cli') }), h('pre', {}, [cli])]);
  const root = h('details', { class: 'dpl dpl-own' }, [
    h('summary', {}, [h('h2', { class: 'dpl-own-title', text: t('own.title') })]),
    h('p', { class: 'dpl-own-intro', text: t('own.intro') }),
    h('div', { class: 'dpl-field dpl-own-field' }, [
      h('label', { for: box.id, text: t('own.label') }), box,
      h('p', { class: 'dpl-field-hint', id: `${id}-hint`, text: t('own.hint') }),
      read, message, place,
    ]),
    h('div', { class: 'dpl-own-actions' }, [fromExplorer, fromExplorerCsv, upload, uploadLabel, clearButton]),
    h('div', { class: 'dpl-own-actions dpl-own-downloads' }, [downloadExplorer, downloadMine]),
    fileStatus, tooLong, slot, cliBox,
  ]);
  element.append(root);

  let text = null; // the text last shown (from state or typed)
  let costs = null;
  let config = null;
  let current = null; // what readScheduleText made of the text
  let spot = null; // where the current error points in the text
  let timer = 0;
  let token = 0;
  let timeline = null;
  let drawing = false; // the timeline shows the current text (its errors are ours to show)

  function showError(error) {
    message.textContent = error ? errorText(error, t.lang) : '';
    spot = error && current ? locate(current, error.path) : null;
    if (error) box.setAttribute('aria-invalid', 'true');
    else box.removeAttribute('aria-invalid');
    place.hidden = !spot;
    select.hidden = !spot?.end;
    if (!spot) return;
    const label = spot.end !== undefined ? quoteValue(box.value.slice(spot.start, spot.end)) : '';
    if (current.kind === 'csv') {
      where.textContent = spot.end !== undefined
        ? t('own.atCell', { row: spot.rank + 1, column: spot.index + 1, label })
        : t('own.atRow', { row: spot.rank + 1 });
      return;
    }
    where.textContent = spot.end !== undefined
      ? t('own.at', { line: spot.line, op: spot.index + 1, label })
      : t('own.atLine', { line: spot.line, rank: spot.rank });
  }

  /** The request for the current text: the page's costs unless the JSON brings its own. */
  function requestOf(r) {
    if (r.kind === 'lines' || r.kind === 'csv') return { ...r.request, costs: { ...costs } };
    return r.request;
  }

  function describe(r) {
    if (r.kind === 'json') return t('own.readJson');
    if (r.kind === 'csv') return t('own.readCsv', { ranks: r.shape.ranks, actions: r.shape.actions });
    if (!r.shape) return t('own.nothing');
    const { ranks, stages, directions, microbatches } = r.shape;
    return t('own.read', { ranks, stages, mb: microbatches, dirs: t(`own.dirs.${directions}`) });
  }

  async function run() {
    const mine = ++token;
    current = readScheduleText(text);
    tooLong.hidden = text.length <= MAX_CUSTOM_URL_CHARS;
    tooLong.textContent = tooLong.hidden ? '' : t('own.tooLong', { n: text.length, max: MAX_CUSTOM_URL_CHARS });
    read.textContent = current.kind === 'empty' ? '' : describe(current);
    if (!current.request) {
      drawing = false;
      slot.hidden = true;
      cliBox.hidden = true;
      downloadMine.hidden = true;
      showError(null);
      if (current.kind === 'json') {
        // Not JSON: core's parser says where, as the CLI would.
        const error = await deps.sim.simulateJson(text).then(() => null, (e) => e);
        if (mine === token) showError(error);
      }
      return;
    }
    const request = requestOf(current);
    slot.hidden = false;
    cliBox.hidden = false;
    downloadMine.hidden = false;
    // The request as data (the box above reads it back): no command line on the page.
    cli.textContent = JSON.stringify(request);
    drawing = true;
    timeline ??= deps.mountTimeline(slot, { onError: (error) => { if (drawing) showError(error); } });
    const ranks = Array.isArray(request.rankOps) ? request.rankOps.length : '?';
    const title = current.kind === 'csv'
      ? t('own.laneCsv', { ranks: current.shape.ranks })
      : t('own.lane', { ranks, mb: request.microbatches ?? '?' });
    timeline.update({ configs: [request], titles: [title], t: null });
  }

  function commit() {
    clearTimeout(timer);
    if (box.value === text) return;
    text = box.value;
    deps.onChange({ custom: text });
    run();
  }

  box.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(commit, TYPING_DELAY_MS);
  });
  box.addEventListener('change', commit);
  select.addEventListener('click', () => {
    if (!spot?.end) return;
    box.focus();
    box.setSelectionRange(spot.start, spot.end);
  });
  clearButton.addEventListener('click', () => {
    box.value = '';
    commit();
    box.focus();
  });
  /** Saves `text` as a file called `name` (a same-origin blob: URL, nothing leaves the page). */
  function save(name, text) {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
    const a = h('a', { href: url, download: name, hidden: true });
    root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** The CSV core writes for `request`, saved as `name`; a rejected request is said beside the buttons. */
  async function downloadCsv(request, name) {
    fileStatus.textContent = '';
    try {
      const csv = await deps.sim.exportCsv(request);
      save(name, csv);
      fileStatus.textContent = t('own.downloaded', { name });
    } catch (error) {
      fileStatus.textContent = errorText(error, t.lang);
    }
  }

  downloadExplorer.addEventListener('click', () => {
    if (config) downloadCsv(config, `${config.schedule}-${config.ranks}x${config.microbatches}.csv`);
  });
  downloadMine.addEventListener('click', () => {
    if (current?.request) downloadCsv(requestOf(current), 'my-schedule.csv');
  });
  upload.addEventListener('change', async () => {
    const file = upload.files?.[0];
    if (!file) return;
    fileStatus.textContent = '';
    box.value = await file.text();
    upload.value = '';
    commit();
    fileStatus.textContent = t('own.loaded', { name: file.name });
    box.focus();
  });
  // Fills the box with the explorer's schedule as `textOf(config)` writes it (labels or CSV).
  const startFromExplorer = async (textOf) => {
    if (!config) return;
    const mine = ++token;
    try {
      const text = await textOf(config);
      if (mine !== token) return;
      box.value = text;
      commit();
      box.focus();
    } catch (error) {
      if (mine === token) showError(error); // the explorer's config cannot run: its message says why
    }
  };
  fromExplorerCsv.addEventListener('click', () => startFromExplorer((c) => deps.sim.exportCsv(c)));
  fromExplorer.addEventListener('click', () =>
    startFromExplorer(async (c) => scheduleText(normalizeTimeline(await deps.sim.simulate(c)))));

  return {
    update(state) {
      config = state.config;
      const nextCosts = JSON.stringify(state.costs);
      const textChanged = state.custom !== text && document.activeElement !== box;
      if (textChanged) {
        text = state.custom;
        box.value = text;
      }
      if (text && !root.open && textChanged) root.open = true;
      if (textChanged || nextCosts !== JSON.stringify(costs)) {
        costs = state.costs;
        if (text !== null) run();
      }
    },
    destroy() {
      clearTimeout(timer);
      token += 1;
      timeline?.destroy();
      root.remove();
    },
  };
}
