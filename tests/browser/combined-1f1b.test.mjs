// Megatron-Core's combined 1F1B on the page, in Chromium: the explorer offers "Overlap all-to-all
// across micro-batches" only for a schedule whose catalogue entry takes a2aOverlap, the choice
// reaches the simulator (the drawn ops are its pairs) and the address; a setting core rejects gets
// its plain words beside the box; the lesson's Figure 4 table is the simulator's pair of each run
// it names (result comm.ops.FB.hiding), in that run's part order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, readDrawnOps, expectedOps } from './helpers.mjs';
import { explainError } from '../../web/js/lib/error-fix.js';
import { translator } from '../../web/js/lib/i18n.js';
import CATALOGUE from '../../web/generated/catalogue.js';

const site = useSite();

const TAKES = CATALOGUE.schedules.find((s) => s.a2aOverlap && s.chunks);
const NOT = CATALOGUE.schedules.find((s) => !s.a2aOverlap);
const SHAPE = { ranks: 4, microbatches: 8 };

const box = (page, name) => page.$eval(`.dpl-field-${name}`, (wrap) => ({
  hidden: wrap.closest('[hidden]') !== null, checked: wrap.querySelector('input').checked,
}));

test('the overlap setting appears only where the catalogue says, runs pairs and round-trips', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=${NOT.name}&ranks=4&microbatches=8`);
    await waitForTimeline(page, '.view-timeline');
    assert.equal((await box(page, 'a2aOverlap')).hidden, true, `${NOT.name} does not take a2aOverlap`);

    await page.selectOption('select[name="schedule"]', TAKES.name);
    await waitForTimeline(page, '.view-timeline');
    assert.deepEqual(await box(page, 'a2aOverlap'), { hidden: false, checked: false });
    assert.equal((await box(page, 'delayWgrad')).hidden, true, 'its companion waits until it is on');

    await page.check('input[name="a2aOverlap"]');
    await page.waitForFunction(() => location.hash.includes('a2aOverlap=1'));
    const config = { schedule: TAKES.name, ...SHAPE, a2aOverlap: true };
    const expected = expectedOps(site.api.simulate(config));
    assert.ok(expected.some((o) => o.op === 'FB'), 'the steady state runs as pairs');
    await page.waitForFunction((n) => document.querySelectorAll('.view-timeline .dpl-op[data-op="FB"]').length === n,
      expected.filter((o) => o.op === 'FB').length);
    assert.deepEqual((await readDrawnOps(page, '.view-timeline'))[0], expected);
    assert.equal((await box(page, 'delayWgrad')).hidden, false);

    await page.check('input[name="delayWgrad"]');
    await page.waitForFunction(() => location.hash.includes('delayWgrad=1'));
    await page.reload();
    await waitForTimeline(page, '.view-timeline');
    assert.deepEqual(await box(page, 'delayWgrad'), { hidden: false, checked: true });
    // Off again: its companion goes with it (core: delayWgrad needs a2aOverlap).
    await page.uncheck('input[name="a2aOverlap"]');
    await page.waitForFunction(() => !location.hash.includes('a2aOverlap') && !location.hash.includes('delayWgrad'));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('more than one rank without chunks: core\'s rule in plain words beside the box', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=1f1b&ranks=8&microbatches=16&a2aOverlap=1`);
    await page.waitForSelector('.view-timeline .dpl-error');
    const config = { schedule: '1f1b', ranks: 8, microbatches: 16, a2aOverlap: true };
    let error = null;
    try { site.api.validate(config); } catch (e) { error = e; }
    assert.equal(error.rule, 'a2a_overlap.chunks');
    const plain = explainError(error, config, translator('en')).text;
    await page.waitForFunction((m) => document.querySelector('.dpl-field-a2aOverlap .dpl-field-msg-text')?.textContent === m, plain);
  } finally {
    await context.close();
  }
});

test('the lesson\'s Figure 4 table is each named run\'s simulated pair, in its part order', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=lesson`);
    const table = page.locator('.pair-table table');
    await table.waitFor({ timeout: 30000 });
    const manifest = await (await fetch(`${site.server.url}/generated/manifest.json`)).json();
    const lesson = manifest.lessons.find((l) => l.lang === 'en');
    const { sources } = lesson.pairs[0];
    const drawn = await page.$$eval('.pair-table tbody tr', (rows) => rows.map((row) => [...row.querySelectorAll('td')]
      .map((cell) => [...cell.querySelectorAll('.pair-table-item > code')].map((c) => c.textContent))));
    // Each run is named as the lesson names its widget: "figure N", a link to it.
    const heads = await page.$$eval('.pair-table thead a.fig-ref', (links) => links.map((a) => a.getAttribute('href')));
    const figures = await Promise.all(sources.map((id) => page.getAttribute(`.sim-widget[data-sim-id="${id}"]`, 'data-figure')));
    assert.deepEqual(heads, figures.map((n) => `#figure-${n}`));
    sources.forEach((id, column) => {
      const pair = site.api.simulate(lesson.sims[id]).comm.ops.FB;
      assert.deepEqual(drawn.map((cells) => cells[column]), pair.hiding.map((h) => h.hiddenBy.map((b) => b.label)), id);
    });
    // DeepSeek's order puts the backward dispatch under MLP(W), Megatron's under MLP(F), and under
    // MLP(W) again with delayed weight gradients.
    assert.deepEqual(drawn[2], [['MLP(W)'], ['MLP(F)'], ['MLP(W)']]);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
