// A profiler trace on the page (Chromium), issue 28: a trace scripts/kineto-trace.py writes (with
// the measurements it must give) dropped on the explorer's "Load a profiler trace" is drawn stream
// by stream by the explorer's own timeline widget, with exactly the generator's spans, its zoom
// and its overview; its costs, taken with one action, run DualPipe in the explorer (the ops the
// simulator gives for those costs) and the sweep, and the settings say which trace they came
// from; the measured pair is drawn beside the model's with the same part names. A truncated or
// foreign file, through the picker, gets core's one line beside the field; a file over the cap
// is refused before it is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useSite, openPage, waitForTimeline, readDrawnOps, expectedOps, REPO, screenshot } from './helpers.mjs';
import CATALOGUE from '../../web/generated/catalogue.js';

const site = useSite();
const PANEL = '.dpl-trace';
const TRACE_TL = `${PANEL} .dpl-trace-timeline`;
const PAIR_TL = `${PANEL} .dpl-trace-pair`;

/** The generator's trace for `args` (text) with its expectations (`report`, or `error` for a variant). */
function generated(...args) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dpl-trace-page-'));
  const file = path.join(dir, 'trace.json');
  const expect = path.join(dir, 'expect.json');
  execFileSync('python3', [path.join(REPO, 'scripts/kineto-trace.py'), '--out', file, '--expect', expect, ...args]);
  return { bytes: readFileSync(file), expect: JSON.parse(readFileSync(expect, 'utf8')) };
}

/** Opens the explorer and its trace panel. */
async function openPanel(page, hash = '') {
  await page.goto(`${site.server.url}#view=timeline${hash}`);
  await waitForTimeline(page, '#timeline-root');
  await page.click(`${PANEL} > summary`);
  await page.waitForSelector(`${PANEL} .dpl-trace-drop`);
}

/** Drops a file holding `bytes` called `name` on the drop zone, as a file dragged from the desktop. */
async function dropFile(page, name, bytes) {
  const transfer = await page.evaluateHandle(({ name, text }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name, { type: 'application/json' }));
    return dt;
  }, { name, text: bytes.toString('utf8') });
  await page.dispatchEvent(`${PANEL} .dpl-trace-drop`, 'drop', { dataTransfer: transfer });
}

/** The overview strip's window of the widget in `scope`. */
const viewOf = (page, scope) => page.$eval(`${scope} .dpl-overview`, (el) => ({ start: Number(el.dataset.start), end: Number(el.dataset.end), max: Number(el.getAttribute('aria-valuemax')) }));

test('a dropped trace is drawn stream by stream with zoom and overview, and its costs run DualPipe and the sweep', async () => {
  const { bytes, expect } = generated(); // 2 devices, 4 layers: DeepSeek's Fig. 4 pair on each
  const want = expect.report;
  const { context, page, log } = await openPage(site.browser);
  try {
    await openPanel(page);
    await dropFile(page, 'two-devices.json', bytes);
    await page.waitForSelector(`${TRACE_TL} .dpl-timeline-svg .dpl-op`, { timeout: 20000 });

    // One row per GPU stream, named by device and stream, as the generator placed them.
    const rows = await page.$$eval(`${TRACE_TL} .dpl-rank-label`, (els) => els.map((e) => e.textContent));
    assert.deepEqual(rows, want.streams.map((s) => `GPU${s.device} s${s.stream}`));
    // Every span the generator expects, drawn on its stream with its exact times and busy time.
    const drawn = (await readDrawnOps(page, TRACE_TL))[0].map((d) => ({ name: d.name, device: Number(d.device), stream: Number(d.stream), startMs: Number(d.start), endMs: Number(d.end), busyMs: Number(d.busy) }));
    const order = (a, b) => a.device - b.device || a.stream - b.stream || a.startMs - b.startMs;
    assert.equal(drawn.length, want.spans.length);
    assert.deepEqual(drawn.sort(order), want.spans.slice().sort(order));
    // Labelled with the simulator's part names; all-to-alls drawn as communication.
    const dispatch = await page.$eval(`${TRACE_TL} .dpl-op[data-name="dispatch(F)"]`, (g) => ({ text: g.textContent, comm: g.classList.contains('is-comm'), tip: g.getAttribute('aria-label') }));
    assert.equal(dispatch.comm, true);
    assert.match(dispatch.tip, /^DISPATCH\(F\): GPU0 s27, communication stream, [\d.]+ to [\d.]+ ms, busy [\d.]+ ms$/);
    // The heading: busy time per kind summed over devices, and HTA's overlap, as generated.
    const stats = await page.$eval(`${TRACE_TL} .dpl-lane-stats`, (e) => e.textContent);
    assert.match(stats, new RegExp(`communication under computation ${(want.overlap * 100).toFixed(1)}%`));

    // The overview strip spans the trace (ms) and is painted; zoom narrows the view and the items.
    const end = Math.max(...want.spans.map((s) => s.endMs));
    assert.deepEqual(await viewOf(page, TRACE_TL), { start: 0, end, max: end });
    const painted = await page.$eval(`${TRACE_TL} .dpl-overview-canvas`, (c) => c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 3 && v > 0));
    assert.ok(painted, 'the overview strip shows the streams');
    await page.click(`${TRACE_TL} [data-action="zoomIn"]`);
    const zoomed = await viewOf(page, TRACE_TL);
    assert.ok(Math.abs((zoomed.end - zoomed.start) - end / 2) < 1e-9, `half the trace: ${JSON.stringify(zoomed)}`);
    const inView = (await readDrawnOps(page, TRACE_TL))[0];
    assert.ok(inView.length < want.spans.length && inView.length > 0, `${inView.length} of ${want.spans.length} in view`);
    for (const d of inView) assert.ok(Number(d.end) >= zoomed.start && Number(d.start) <= zoomed.end, 'only items in view');

    // The costs, each with core's derivation; one action hands them to the explorer.
    const forward = await page.$eval(`${PANEL} .dpl-trace-costs dt`, (e) => e.textContent);
    assert.equal(forward, `F = ${Number(want.derived.forward.toFixed(6))}`);
    await page.click(`${PANEL} .dpl-trace-use-btn`);
    await page.waitForFunction(() => location.hash.includes('commRatio='));
    const costs = { forward: want.derived.forward, backward: want.derived.backward, weight: want.derived.weight, overlapped: want.derived.overlapped, p2pLatency: 0, comm: { ratio: want.derived.commRatio, attnShare: want.derived.attnShare, layers: want.derived.layers } };
    const result = site.api.simulate({ schedule: 'dualpipe', ranks: 8, microbatches: 20, costs });
    // The explorer's DualPipe 8 x 20 now runs with the measured costs: exactly the simulator's ops.
    await page.waitForFunction((end) => [...document.querySelectorAll('#timeline-root .dpl-op')].some((g) => Number(g.dataset.end) === end), result.makespan, { timeout: 20000 });
    assert.deepEqual((await readDrawnOps(page, '#timeline-root'))[0], expectedOps(result));
    assert.equal(await page.inputValue('#costs-root input[name="forward"]'), String(want.derived.forward));
    const source = await page.$eval('#costs-root .dpl-cost-source', (e) => ({ hidden: e.hidden, text: e.textContent }));
    assert.equal(source.hidden, false);
    assert.match(source.text, /^These costs come from the profiler trace two-devices\.json, in ms of one rank/);
    assert.match(source.text, /F = [\d.]+: attn\(F\) \+ mlp\(F\) = /);

    // The measured pair beside the model's, on one axis, with the same part names.
    await page.waitForSelector(`${PAIR_TL} .dpl-timeline-svg .dpl-op`);
    const pair = await readDrawnOps(page, PAIR_TL);
    assert.equal(pair.length, 2);
    const names = (lane) => [...new Set(lane.map((d) => `${d.part}(${d.pass})`))].sort();
    assert.deepEqual(names(pair[0]), names(pair[1]));
    assert.equal(names(pair[1]).length, 10);
    const titles = await page.$$eval(`${PAIR_TL} .dpl-lane-title`, (els) => els.map((e) => e.textContent));
    assert.deepEqual(titles, ['measured: two-devices.json, GPU 0', 'model: the communication model’s pair on these costs']);
    await screenshot(page, 'trace-page-1280-en.png', { fullPage: true });

    // The sweep runs with them too: the same costs and the same note in its settings.
    await page.click('.site-nav a[data-view="sweep"]');
    await page.waitForSelector('#sweep-root svg', { timeout: 30000 });
    assert.equal(await page.inputValue('#costs-root input[name="forward"]'), String(want.derived.forward));
    assert.equal(await page.$eval('#costs-root .dpl-cost-source', (e) => e.hidden), false);
    // A cost changed by hand is no longer the trace's: the note goes.
    await page.fill('#costs-root input[name="forward"]', '1');
    await page.press('#costs-root input[name="forward"]', 'Tab');
    await page.waitForFunction(() => document.querySelector('#costs-root .dpl-cost-source').hidden);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a truncated or foreign file gets core’s one line beside the field; a file over the cap is not read', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await openPanel(page);
    const message = () => page.$eval(`${PANEL} .dpl-field-msg`, (e) => e.textContent);
    for (const variant of ['truncated', 'foreign']) {
      const { bytes, expect } = generated('--variant', variant);
      let error = null;
      try {
        site.api.traceImport(bytes);
      } catch (e) {
        error = e;
      }
      assert.equal(error?.rule, expect.error.rule, variant);
      await page.setInputFiles(`${PANEL} .dpl-trace-file`, { name: `${variant}.json`, mimeType: 'application/json', buffer: bytes });
      await page.waitForFunction((text) => document.querySelector('.dpl-trace .dpl-field-msg').textContent === text, error.message);
      assert.ok(!error.message.includes('\n') && error.message.length < 300, `one short line: ${error.message}`);
      assert.equal(await page.getAttribute(`${PANEL} .dpl-trace-file`, 'aria-invalid'), 'true');
      assert.equal(await page.$eval(`${PANEL} .dpl-trace-result`, (e) => e.hidden), true, 'nothing drawn');
    }
    assert.match(await message(), /^input is not a trace: expected an array of trace events or an object with a traceEvents array \(got /);
    // Over the catalogue's cap: core's input.too_large, before the file is read.
    const limit = CATALOGUE.limits.maxTraceBytes;
    await page.evaluate(async (size) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(size)], 'huge.json'));
      document.querySelector('.dpl-trace .dpl-trace-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, limit + 1);
    await page.waitForFunction((text) => document.querySelector('.dpl-trace .dpl-field-msg').textContent === text, `input is larger than the limit of ${limit} bytes`);
    // A good trace afterwards clears the message.
    const { bytes } = generated('--devices', '1', '--layers', '1');
    await page.setInputFiles(`${PANEL} .dpl-trace-file`, { name: 'one.json', mimeType: 'application/json', buffer: bytes });
    await page.waitForSelector(`${TRACE_TL} .dpl-op`);
    assert.equal(await message(), '');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('in Russian the trace panel says how each cost was derived, and why a trace gives none, in Russian', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await openPanel(page, '&lang=ru');
    const { bytes } = generated('--devices', '1', '--layers', '2');
    await dropFile(page, 'one.json', bytes);
    await page.waitForSelector(`${PANEL} .dpl-trace-costs dd`, { timeout: 20000 });
    const derivations = await page.$$eval(`${PANEL} .dpl-trace-costs dd`, (els) => els.map((e) => e.textContent));
    // F&B, then the layers per chunk (a plural family: "2 раза"), from core's phrases.
    // Its numbers in Russian form, with a decimal comma (lib/plan-text.js).
    assert.match(derivations[3], /^прямой проход \+ обратный проход = \d+,\d+ ms \+ \d+,\d+ ms: вычисления пары/);
    assert.equal(derivations[6], 'каждая из десяти частей запускала работу на GPU 2 раза за пару');
    for (const text of derivations) assert.doesNotMatch(text, /\{\w+(:\w+)?\}|modelPairMs|pairMs|undefined/);
    // A trace without DeepSeek's part annotations: no costs, and the reason in Russian (profile.no_parts).
    await dropFile(page, 'empty.json', Buffer.from(JSON.stringify({ traceEvents: [] })));
    await page.waitForFunction(() => document.querySelector('.dpl-trace .dpl-trace-note')?.textContent.startsWith('Нет стоимостей для симулятора: внутри диапазонов с именами частей DeepSeek'));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
