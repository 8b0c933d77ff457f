// The communication model in the timeline explorer (Chromium): the Streams toggle splits every
// rank into its compute and communication streams with exactly the parts the simulator reports
// (each op's comm.ops parts shifted by the op's start: helpers.mjs expectedParts, worked out from
// the raw result); the exposed waits add up to each rank's exposedComm; the toggle
// works from the keyboard; comm costs and the toggle survive the address; a bad comm value gets
// the simulator's message beside its field; without comm nothing changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, readDrawnOps, expectedOps, expectedParts, screenshot } from './helpers.mjs';
import { explainError } from '../../web/js/lib/error-fix.js';
import { translator } from '../../web/js/lib/i18n.js';

const site = useSite();

const DEEPSEEK = { schedule: 'dualpipe', ranks: 8, microbatches: 20, costs: { forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 } };
const withComm = (config, comm) => ({ ...config, costs: { ...config.costs, comm } });
const TL = '.view-timeline';
const STREAMS = `${TL} [data-action="streams"]`;

const order = (a, b) => Number(a.rank) - Number(b.rank) || Number(a.op) - Number(b.op) || Number(a.start) - Number(b.start) || a.stream.localeCompare(b.stream);

/** The data-* attributes of every drawn part, in chart order, plus the exposed marks' spans. */
function readParts(page, scope = TL) {
  return page.evaluate((s) => ({
    parts: [...document.querySelectorAll(`${s} .dpl-timeline-svg [data-part]`)].map((r) => ({ ...r.dataset })),
    exposed: [...document.querySelectorAll(`${s} .dpl-timeline-svg .dpl-exposed`)].map((r) => ({ ...r.dataset })),
  }), scope);
}

test('Streams on DualPipe 8x20 at ratio 1 draws, on every rank, exactly the simulated compute and comm parts', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&commRatio=1`);
    await waitForTimeline(page, TL);
    const config = withComm(DEEPSEEK, { ratio: 1, attnShare: 0.5, layers: 1 });
    const result = site.api.simulate(config);
    assert.equal(await page.getAttribute(STREAMS, 'aria-pressed'), 'false');
    assert.equal(await page.getAttribute(STREAMS, 'aria-disabled'), null);
    assert.equal((await readParts(page)).parts.length, 0, 'collapsed until asked for');
    // The ops themselves are the simulated ones (each op lasts its parts' span).
    assert.deepEqual((await readDrawnOps(page, TL))[0], expectedOps(result));

    // Keyboard: focus the toggle, Enter expands, Space collapses, Enter again expands.
    await page.focus(STREAMS);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${TL} .dpl-timeline-svg [data-part]`);
    assert.equal(await page.getAttribute(STREAMS, 'aria-pressed'), 'true');
    await page.waitForFunction(() => location.hash.includes('streams=1'));
    await page.keyboard.press('Space');
    await page.waitForFunction((s) => !document.querySelector(`${s} .dpl-timeline-svg [data-part]`), TL);
    assert.equal(await page.getAttribute(STREAMS, 'aria-pressed'), 'false');
    await page.waitForFunction(() => !location.hash.includes('streams'));
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${TL} .dpl-timeline-svg [data-part]`);

    const drawn = await readParts(page);
    const expected = expectedParts(result);
    assert.ok(expected.length > 1000, `${expected.length} parts`);
    assert.deepEqual(drawn.parts.slice().sort(order), expected.slice().sort(order));
    assert.deepEqual([...new Set(drawn.parts.map((p) => p.part))].sort(), ['attn', 'combine', 'dispatch', 'mlp']);
    for (let r = 0; r < 8; r++) {
      const mine = drawn.parts.filter((p) => p.rank === String(r));
      // Every op of DualPipe computes; at ratio 1 every op but W also communicates.
      assert.ok(mine.some((p) => p.stream === 'compute') && mine.some((p) => p.stream === 'comm'), `rank ${r}`);
      // The compute stream's waits (red) add up to the rank's exposed communication.
      const waited = drawn.exposed.filter((e) => e.rank === String(r)).reduce((n, e) => n + Number(e.end) - Number(e.start), 0);
      assert.ok(Math.abs(waited - result.perRank[r].exposedComm) < 1e-6, `rank ${r}: waits ${waited} vs exposedComm ${result.perRank[r].exposedComm}`);
    }

    // The heading reports the hidden share and the compute utilisation; the legend names the parts.
    const stats = await page.$eval(`${TL} .dpl-lane-stats`, (e) => e.textContent);
    assert.match(stats, new RegExp(`all-to-all hidden ${(result.comm.hiddenFraction * 100).toFixed(1)}%`));
    assert.match(stats, new RegExp(`compute utilisation ${(result.comm.computeUtilization * 100).toFixed(1)}%`));
    assert.deepEqual(await page.$$eval(`${TL} .dpl-legend li[data-part]`, (lis) => lis.map((li) => li.dataset.part)), ['attn', 'dispatch', 'mlp', 'combine']);

    // Hovering a part names it; the veil over the future covers the sub-rows too.
    await page.hover(`${TL} .dpl-part[data-rank="0"][data-op="0"][data-part="dispatch"]`);
    assert.equal(await page.$eval(`${TL} .dpl-tooltip`, (t) => t.textContent),
      'Rank 0, op 1: DISPATCH(F), communication stream; chunk of direction 0, micro-batch 0. Time 0.5 to 1.');
    await page.click(`${TL} [data-action="start"]`);
    const cover = await page.$eval(`${TL} .dpl-lane-plot`, (plot) => {
      const veil = plot.querySelector('.dpl-veil').getBoundingClientRect();
      const parts = [...plot.querySelectorAll('.dpl-part')].map((p) => p.getBoundingClientRect());
      return { top: veil.top, bottom: veil.bottom, lowest: Math.max(...parts.map((b) => b.bottom)), highest: Math.min(...parts.map((b) => b.top)) };
    });
    assert.ok(cover.top <= cover.highest && cover.bottom >= cover.lowest, JSON.stringify(cover));
    await screenshot(page, 'timeline-streams.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('comm costs and streams round-trip through the address; the form edits them', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8&commRatio=0.5&attnShare=0.25&commLayers=2&streams=1`);
    await page.waitForSelector(`${TL} .dpl-timeline-svg [data-part]`);
    const read = () => page.evaluate(() => ({
      on: document.querySelector('input[name="comm"]').checked,
      ratio: document.querySelector('input[name="commRatio"]').value,
      share: document.querySelector('input[name="attnShare"]').value,
      layers: document.querySelector('input[name="commLayers"]').value,
    }));
    assert.deepEqual(await read(), { on: true, ratio: '0.5', share: '0.25', layers: '2' });
    const config = withComm({ ...DEEPSEEK, ranks: 4, microbatches: 8 }, { ratio: 0.5, attnShare: 0.25, layers: 2 });
    assert.deepEqual((await readParts(page)).parts.sort(order), expectedParts(site.api.simulate(config)).sort(order));

    // Edit the ratio: the address follows; a reload restores the costs and the expanded view.
    await page.fill('input[name="commRatio"]', '2');
    await page.press('input[name="commRatio"]', 'Enter');
    await page.waitForFunction(() => location.hash.includes('commRatio=2'));
    assert.match(await page.evaluate(() => location.hash), /attnShare=0\.25&commLayers=2/);
    await page.reload();
    await page.waitForSelector(`${TL} .dpl-timeline-svg [data-part]`);
    assert.deepEqual(await read(), { on: true, ratio: '2', share: '0.25', layers: '2' });
    assert.equal(await page.getAttribute(STREAMS, 'aria-pressed'), 'true');
    const parts = (await readParts(page)).parts.sort(order);
    assert.deepEqual(parts, expectedParts(site.api.simulate(withComm(config, { ratio: 2, attnShare: 0.25, layers: 2 }))).sort(order));

    // A preset sets schedule, shape and the four costs, and leaves the communication model on.
    await page.selectOption('select[name="preset"]', 'dualpipe-vs-1f1b');
    await page.waitForFunction(() => location.hash.includes('compare=1f1b'));
    assert.match(await page.evaluate(() => location.hash), /commRatio=2&attnShare=0\.25&commLayers=2/);
    await page.waitForFunction((s) => document.querySelectorAll(`${s} .dpl-timeline-svg`).length === 2, TL);
    await page.waitForFunction((s) => [...document.querySelectorAll(`${s} .dpl-timeline-svg`)].every((svg) => svg.querySelector('[data-part]')), TL);

    // Switching the model off drops it from the address, and the parts with it.
    await page.uncheck('input[name="comm"]');
    await page.waitForFunction(() => !location.hash.includes('commRatio'));
    await page.waitForFunction((s) => !document.querySelector(`${s} .dpl-timeline-svg [data-part]`), TL);
    assert.equal(await page.getAttribute(STREAMS, 'aria-disabled'), 'true');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a bad comm value from the address gets the simulator\'s complaint, in plain words, beside its field', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    const cases = [
      ['commRatio=abc', 'commRatio', { ratio: 'abc', attnShare: 0.5, layers: 1 }],
      ['commRatio=1&attnShare=1.5', 'attnShare', { ratio: 1, attnShare: 1.5, layers: 1 }],
      ['commRatio=1&commLayers=100', 'commLayers', { ratio: 1, attnShare: 0.5, layers: 100 }],
    ];
    for (const [params, field, comm] of cases) {
      let expected = null;
      let plain = null;
      const config = withComm(DEEPSEEK, comm);
      try { site.api.simulate(config); } catch (error) { expected = error.message; plain = explainError(error, config, translator('en')).text; }
      assert.ok(expected, `${params} is rejected by the simulator`);
      await page.goto(`${site.server.url}#view=timeline&${params}`);
      await page.waitForSelector(`${TL} .dpl-error`);
      // The field is marked at once; its plain-words message follows once lib/error-fix.js loads.
      const describedText = (name) => {
        const input = document.querySelector(`input[name="${name}"]`);
        return input.getAttribute('aria-invalid') === 'true'
          && document.getElementById(input.getAttribute('aria-describedby').split(' ')[0]).textContent;
      };
      const message = await (await page.waitForFunction(describedText, field)).jsonValue();
      // Beside the field, in plain words (with its one-click fix after them); in the chart, the
      // plain words and core's message under them.
      assert.ok(message.startsWith(plain), `${params}: ${message}`);
      assert.equal(await page.$eval(`${TL} .dpl-error-message`, (p) => p.textContent), plain);
      assert.equal(await page.$eval(`${TL} .dpl-error-detail`, (p) => p.textContent), expected);
      // Only that field is marked.
      assert.deepEqual(await page.$$eval('.dpl-costs [aria-invalid="true"]', (els) => els.map((e) => e.name)), [field]);
    }
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('without comm the ops are as before, nothing is split, and Streams explains what it needs', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&streams=1`);
    await waitForTimeline(page, TL);
    assert.deepEqual((await readDrawnOps(page, TL))[0], expectedOps(site.api.simulate(DEEPSEEK)));
    assert.equal(await page.$$eval(`${TL} [data-stream], ${TL} .dpl-exposed`, (els) => els.length), 0);
    assert.equal(await page.getAttribute(STREAMS, 'aria-disabled'), 'true');
    assert.equal(await page.getAttribute(STREAMS, 'aria-pressed'), 'false');
    // Asked for by the address, so the hint is already showing; pressing the toggle changes nothing.
    const hint = `${TL} .dpl-streams-hint`;
    assert.equal(await page.isVisible(hint), true);
    assert.match(await page.textContent(hint), /set a ratio/);
    await page.focus(STREAMS);
    await page.keyboard.press('Enter');
    assert.equal(await page.$$eval(`${TL} [data-part]`, (els) => els.length), 0);
    assert.doesNotMatch(await page.$eval(`${TL} .dpl-lane-stats`, (e) => e.textContent), /all-to-all/);
    // The lesson's widgets have no address: there the hint appears when the toggle is pressed.
    await page.goto(`${site.server.url}#view=lesson`);
    const widget = '.lesson .sim-widget';
    await page.waitForSelector(`${widget} .dpl-op`, { timeout: 20000 });
    assert.equal(await page.isVisible(`${widget} .dpl-streams-hint`), false);
    await page.focus(`${widget} [data-action="streams"]`); // aria-disabled: Playwright will not click it
    await page.keyboard.press('Enter');
    assert.equal(await page.isVisible(`${widget} .dpl-streams-hint`), true);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the table view lists every part and every wait under its op when the streams are expanded', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8&commRatio=1&streams=1&table=1`);
    await page.waitForSelector(`${TL} .dpl-table tr.is-part`);
    const result = site.api.simulate(withComm({ ...DEEPSEEK, ranks: 4, microbatches: 8 }, { ratio: 1 }));
    const rows = await page.$$eval(`${TL} .dpl-table tbody tr`, (trs) => trs.map((tr) => ({ ...tr.dataset, cls: tr.className, cells: tr.cells.length })));
    const opRows = rows.filter((r) => !r.cls.includes('is-part')).map(({ cls, cells, ...d }) => d);
    assert.deepEqual(opRows, expectedOps(result));
    const partRows = rows.filter((r) => r.part).map(({ cls, cells, ...d }) => d);
    assert.deepEqual(partRows.sort(order), expectedParts(result).sort(order));
    const waits = rows.filter((r) => r.cls.includes('is-exposed')).reduce((n, r) => n + Number(r.end) - Number(r.start), 0);
    assert.ok(Math.abs(waits - result.comm.exposed) < 1e-6, `waits ${waits} vs comm.exposed ${result.comm.exposed}`);
    assert.ok(rows.every((r) => r.cells === 9), 'every row has the stream column');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('exercise 3 shows a whole DualPipe run at ratio 1 with its streams expanded, and links to it', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#exercise=overlap-window`);
    const scope = '#exercise-overlap-window .dpl-ex-streams';
    await page.waitForSelector(`${scope} .dpl-timeline-svg [data-part]`, { timeout: 30000 });
    const result = site.api.simulate(withComm({ ...DEEPSEEK, microbatches: 16 }, { ratio: 1, attnShare: 0.5, layers: 1 }));
    assert.deepEqual((await readParts(page, scope)).parts.sort(order), expectedParts(result).sort(order));
    const href = await page.getAttribute(`${scope} a.sim-widget-open`, 'href');
    const params = new URLSearchParams(href.slice(1));
    assert.deepEqual(['view', 'microbatches', 'commRatio', 'streams'].map((k) => params.get(k)), ['timeline', '16', '1', '1']);
    await page.click(`${scope} a.sim-widget-open`);
    await page.waitForSelector(`${TL} .dpl-timeline-svg [data-part]`, { timeout: 30000 });
    assert.deepEqual((await readParts(page)).parts.sort(order), expectedParts(result).sort(order));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
