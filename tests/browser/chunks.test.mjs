// Model chunks per rank on the page, in Chromium: the explorer offers the field only for a
// schedule whose catalogue entry takes chunks, with that entry's range and default; the value
// reaches the simulator (the drawn ops are its result), round-trips through the address, moves
// the shape hint's stage count and reaches the sweep; a value core rejects gets its message
// beside the field. Names and ranges come from the catalogue, not from this file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, readDrawnOps, expectedOps } from './helpers.mjs';
import { sweepRequest } from '../../web/js/lib/sweep-data.js';
import { formatNumber } from '../../web/js/lib/format.js';
import { explainError } from '../../web/js/lib/error-fix.js';
import { translator } from '../../web/js/lib/i18n.js';
import CATALOGUE from '../../web/generated/catalogue.js';

const site = useSite();

const CHUNKED = CATALOGUE.schedules.find((s) => s.chunks);
const FIXED = CATALOGUE.schedules.find((s) => !s.chunks && !s.shape.evenRanks && !s.shape.microbatchesMultipleOfRanks);
const SHAPE = { ranks: 4, microbatches: 8 }; // a multiple of ranks, as interleaved 1F1B asks

const field = (page) => page.$eval('.dpl-field-chunks', (wrap) => {
  const input = wrap.querySelector('input');
  return { hidden: wrap.closest('[hidden]') !== null, value: input.value, min: input.min, max: input.max };
});
const ranksHint = (page) => page.$eval('.dpl-field-ranks .dpl-shape-hint', (p) => p.textContent);

test('the chunks field appears for a schedule that takes chunks, and its value runs, hints and round-trips', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=${FIXED.name}&ranks=4&microbatches=8`);
    await waitForTimeline(page, '.view-timeline');
    assert.equal((await field(page)).hidden, true, `${FIXED.name} has a fixed layout`);

    await page.selectOption('select[name="schedule"]', CHUNKED.name);
    await page.waitForFunction((name) => location.hash.includes(`schedule=${name}`), CHUNKED.name);
    await waitForTimeline(page, '.view-timeline');
    const { min, max, default: initial } = CHUNKED.chunks;
    assert.deepEqual(await field(page), { hidden: false, value: String(initial), min: String(min), max: String(max) });
    assert.equal(await ranksHint(page), `Needs: ≥ 1 and ${initial} stages per rank`);
    assert.doesNotMatch(await page.evaluate(() => location.hash), /chunks=/, 'the default is not pinned into the address');

    const chunks = initial + 2;
    await page.fill('input[name="chunks"]', String(chunks));
    await page.press('input[name="chunks"]', 'Enter');
    await page.waitForFunction((v) => location.hash.includes(`chunks=${v}`), chunks);
    const config = { schedule: CHUNKED.name, ...SHAPE, chunks };
    await page.waitForFunction((n) => document.querySelectorAll('.view-timeline .dpl-op').length === n, expectedOps(site.api.simulate(config)).length);
    assert.deepEqual((await readDrawnOps(page, '.view-timeline'))[0], expectedOps(site.api.simulate(config)));
    assert.equal(await ranksHint(page), `Needs: ≥ 1 and ${chunks} stages per rank`);

    await page.reload();
    await waitForTimeline(page, '.view-timeline');
    assert.equal((await field(page)).value, String(chunks));
    assert.deepEqual((await readDrawnOps(page, '.view-timeline'))[0], expectedOps(site.api.simulate(config)));

    // Compared with a fixed-layout schedule: that one runs without chunks (core would reject them).
    await page.click('.dpl-compare > summary');
    await page.check(`input[name="compare"][value="${FIXED.name}"]`);
    await page.waitForFunction(() => document.querySelectorAll('.view-timeline .dpl-timeline-svg').length === 2);
    assert.deepEqual((await readDrawnOps(page, '.view-timeline'))[1], expectedOps(site.api.simulate({ schedule: FIXED.name, ...SHAPE })));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('chunks core rejects get its message, in plain words, beside the field', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    const chunks = CHUNKED.chunks.max + 1;
    await page.goto(`${site.server.url}#view=timeline&schedule=${CHUNKED.name}&ranks=4&microbatches=8&chunks=${chunks}`);
    await page.waitForSelector('.view-timeline .dpl-error');
    const config = { schedule: CHUNKED.name, ...SHAPE, chunks };
    let error = null;
    try { site.api.validate(config); } catch (e) { error = e; }
    assert.match(error.message, /chunks/);
    // The field says core's complaint in plain words (lib/error-fix.js), as every field does.
    const plain = explainError(error, config, translator('en')).text;
    await page.waitForFunction((m) => document.querySelector('.dpl-field-chunks .dpl-field-msg .dpl-field-msg-text')?.textContent === m, plain);
    assert.equal(await page.$eval('input[name="chunks"]', (i) => i.getAttribute('aria-invalid')), 'true');
  } finally {
    await context.close();
  }
});

test('the sweep passes chunks on: the chunked schedule\'s points are the simulator\'s at that chunk count', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    const chunks = CHUNKED.chunks.default + 2;
    await page.goto(`${site.server.url}#view=sweep&ranks=4&chunks=${chunks}`);
    await page.waitForSelector('.view-sweep .dpl-sweep-svg');
    assert.equal((await field(page)).value, String(chunks), 'the sweep shows the field: one of its schedules takes chunks');
    await page.click('.view-sweep .dpl-sweep-bar .dpl-toggle');
    await page.waitForSelector('.view-sweep .dpl-table');
    const shown = await page.$$eval(`.view-sweep .dpl-table tbody tr[data-schedule="${CHUNKED.name}"]`, (trs) => trs.map((tr) => tr.querySelector('[data-col="makespan"]').textContent));
    const request = sweepRequest({ axis: 'microbatches', ranks: 4, microbatches: 20, costs: CATALOGUE.costs, chunks });
    const makespans = site.api.sweep(request).rows.filter((r) => r.schedule === CHUNKED.name).map((r) => r.makespan);
    const atDefault = site.api.sweep({ ...request, chunks: undefined }).rows.filter((r) => r.schedule === CHUNKED.name).map((r) => r.makespan);
    assert.notDeepEqual(makespans, atDefault, 'the chunk count changes the result, so the check can fail');
    assert.deepEqual(shown, makespans.map((v) => formatNumber(v)));
  } finally {
    await context.close();
  }
});
