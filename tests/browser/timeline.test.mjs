// The timeline explorer in Chromium: it draws exactly what the simulator computes, its
// keyboard controls move the time cursor, its state survives a reload, and bad parameters
// show the simulator's message next to the offending field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, readDrawnOps, expectedOps } from './helpers.mjs';

const site = useSite();

const DEEPSEEK = { schedule: 'dualpipe', ranks: 8, microbatches: 20, costs: { forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 } };

async function readout(page) {
  return page.$eval('.view-timeline .dpl-readout', (o) => o.value);
}

test('the DualPipe 8x20 timeline draws 8 rank rows and exactly the simulated ops, in order', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline`);
    await waitForTimeline(page, '.view-timeline');
    assert.equal(await page.$$eval('.view-timeline .dpl-rank-label', (els) => els.length), 8);
    const lanes = await readDrawnOps(page, '.view-timeline');
    assert.equal(lanes.length, 1);
    const expected = expectedOps(site.api.simulate(DEEPSEEK));
    assert.equal(lanes[0].length, expected.length);
    assert.deepEqual(lanes[0], expected);
    // DeepSeek's figure: max idle per rank (F&B + B - 3W)(PP/2 - 1) = (3 + 2 - 3)(4 - 1) = 6.
    const stats = await page.$eval('.view-timeline .dpl-lane-stats', (e) => e.textContent);
    assert.match(stats, /max idle per rank 6\b/);
    // DualPipe keeps two copies of its weights and optimizer state: core's trainingState.perGpu.
    assert.match(stats, /weights and optimizer 2× a rank's share/);
    // Every op shows its micro-batch id(s): one label per F/B/W, two per overlapped pair.
    const labels = await page.$$eval('.view-timeline .dpl-op', (gs) => gs.every((g) => g.querySelectorAll('.dpl-cell-label').length === (g.dataset.op === 'FB' ? 2 : 1)));
    assert.ok(labels);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('two compared schedules share one time axis of the longer makespan', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&compare=1f1b`);
    await waitForTimeline(page, '.view-timeline');
    await page.waitForFunction(() => document.querySelectorAll('.view-timeline .dpl-timeline-svg').length === 2);
    const widths = await page.$$eval('.view-timeline .dpl-timeline-svg', (svgs) => svgs.map((s) => s.getAttribute('width')));
    assert.equal(widths[0], widths[1]);
    const lanes = await readDrawnOps(page, '.view-timeline');
    assert.deepEqual(lanes[1], expectedOps(site.api.simulate({ ...DEEPSEEK, schedule: '1f1b' })));
  } finally {
    await context.close();
  }
});

test('play, step and scrub work from the keyboard', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline`);
    await waitForTimeline(page, '.view-timeline');
    await page.focus('.view-timeline .dpl-scroll');
    assert.equal(await readout(page), 't = 66 of 66');
    await page.keyboard.press('Home');
    assert.equal(await readout(page), 't = 0 of 66');
    await page.keyboard.press('ArrowRight'); // next op boundary: the first forward ends at 1
    assert.equal(await readout(page), 't = 1 of 66');
    await page.keyboard.press('Shift+ArrowRight'); // one time unit
    assert.equal(await readout(page), 't = 2 of 66');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await readout(page), 't = 1 of 66');
    await page.waitForFunction(() => location.hash.includes('t=1'));

    await page.keyboard.press('Space');
    await page.waitForSelector('.view-timeline .dpl-timeline.is-playing');
    await page.waitForFunction(() => Number(document.querySelector('.view-timeline .dpl-scrub').value) > 3);
    await page.keyboard.press('Space');
    await page.waitForSelector('.view-timeline .dpl-timeline:not(.is-playing)');
    const paused = Number(await page.$eval('.view-timeline .dpl-scrub', (s) => s.value));
    assert.ok(paused > 3 && paused < 66, `paused at ${paused}`);
    // What has not run yet is veiled: the veil starts where the cursor is.
    const edges = await page.$eval('.view-timeline .dpl-lane-plot', (plot, at) => ({
      veil: plot.querySelector('.dpl-veil').getBoundingClientRect().left,
      cursor: plot.querySelector('.dpl-cursor').getBoundingClientRect().left + 1,
      running: [...plot.querySelectorAll('.dpl-op')].filter((g) => +g.dataset.start < at && +g.dataset.end > at).map((g) => g.getBoundingClientRect()),
    }), paused);
    assert.equal(edges.veil, edges.cursor);
    // The ops running at the cursor straddle it on screen.
    assert.ok(edges.running.length > 0);
    for (const box of edges.running) assert.ok(box.left < edges.veil && box.right > edges.veil);

    // The scrubber: arrows move one time unit; End goes to the end.
    await page.focus('.view-timeline .dpl-scrub');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await readout(page), 't = 2 of 66');
    await page.keyboard.press('End');
    assert.equal(await readout(page), 't = 66 of 66');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('arrow keys move focus between op cells, and focus shows the details tooltip', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8`);
    await waitForTimeline(page, '.view-timeline');
    await page.focus('.view-timeline .dpl-scroll');
    await page.keyboard.press('Tab'); // the one cell in the tab order: rank 0's first op
    const first = await page.evaluate(() => ({ ...document.activeElement.dataset }));
    assert.deepEqual([first.rank, first.op, first.mb, first.start], ['0', 'F', '0', '0']);
    const tip = await page.$eval('.view-timeline .dpl-tooltip', (t) => ({ hidden: t.hidden, text: t.textContent }));
    assert.equal(tip.hidden, false);
    assert.match(tip.text, /^Rank 0: forward, direction 0, micro-batch 0, stage 0\. Time 0 to 1\.$/);
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.start), '1');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.rank), '1');
    await page.keyboard.press('Enter'); // cursor to this op's end
    const end = await page.evaluate(() => document.activeElement.dataset.end);
    assert.equal(await readout(page), `t = ${end} of 26`);
    // Hover shows the same details.
    await page.hover('.view-timeline .dpl-op[data-op="FB"]');
    assert.match(await page.$eval('.view-timeline .dpl-tooltip', (t) => t.textContent), /overlapped forward and backward pair/);
  } finally {
    await context.close();
  }
});

test('the table view lists the same ops as text', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8`);
    await waitForTimeline(page, '.view-timeline');
    await page.click('.view-timeline [data-action="table"]');
    await page.waitForSelector('.view-timeline .dpl-table');
    const rows = await page.$$eval('.view-timeline .dpl-table tbody tr', (trs) => trs.map((tr) => ({ ...tr.dataset })));
    assert.deepEqual(rows, expectedOps(site.api.simulate({ ...DEEPSEEK, ranks: 4, microbatches: 8 })));
    await page.waitForFunction(() => location.hash.includes('table=1'));
  } finally {
    await context.close();
  }
});

test('URL state round-trips: a reload restores schedules, shape, costs, cursor, view and theme', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    const hash = '#view=timeline&schedule=1f1b&compare=zb-h1&ranks=4&microbatches=8&forward=1.5&t=5&theme=dark';
    await page.goto(`${site.server.url}${hash}`);
    await waitForTimeline(page, '.view-timeline');
    const read = () => page.evaluate(() => ({
      schedule: document.querySelector('select[name="schedule"]').value,
      compare: [...document.querySelectorAll('input[name="compare"]:checked')].map((b) => b.value).join(','),
      ranks: document.querySelector('input[name="ranks"]').value,
      forward: document.querySelector('input[name="forward"]').value,
      theme: document.documentElement.dataset.theme,
      lanes: document.querySelectorAll('.view-timeline .dpl-timeline-svg').length,
      readout: document.querySelector('.view-timeline .dpl-readout').value,
    }));
    await page.waitForFunction(() => document.querySelectorAll('.view-timeline .dpl-timeline-svg').length === 2);
    const before = await read();
    assert.deepEqual(before, { schedule: '1f1b', compare: 'zb-h1', ranks: '4', forward: '1.5', theme: 'dark', lanes: 2, readout: before.readout });
    assert.match(before.readout, /^t = 5 of /);

    // Change state through the UI; the hash follows, and a reload restores it.
    await page.selectOption('select[name="schedule"]', 'gpipe');
    await page.waitForFunction(() => location.hash.includes('schedule=gpipe'));
    await page.fill('input[name="microbatches"]', '6');
    await page.press('input[name="microbatches"]', 'Enter');
    await page.waitForFunction(() => location.hash.includes('microbatches=6'));
    await page.reload();
    await waitForTimeline(page, '.view-timeline');
    await page.waitForFunction(() => document.querySelectorAll('.view-timeline .dpl-timeline-svg').length === 2);
    const after = await read();
    assert.equal(after.schedule, 'gpipe');
    assert.equal(await page.$eval('input[name="microbatches"]', (i) => i.value), '6');
    assert.equal(after.compare, 'zb-h1');
    assert.equal(after.theme, 'dark');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a bad parameter shows its rule in plain words, with the simulator message, in place of the widget and next to its field', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&ranks=3`);
    await page.waitForSelector('.view-timeline .dpl-error');
    // In place of the chart: the rule in plain words, then core's exact message.
    const message = 'ranks must be an even integer >= 2 for dualpipe (got 3)';
    assert.equal(await page.$eval('.view-timeline .dpl-error-detail', (p) => p.textContent), message);
    const plain = await page.$eval('.view-timeline .dpl-error-message', (p) => p.textContent);
    assert.match(plain, /^DualPipe needs an even number of ranks/);
    // Beside the field, the same plain words with a one-click fix (feedback.test.mjs).
    await page.waitForSelector('.dpl-field-ranks .dpl-field-msg-text');
    assert.equal(await page.$eval('.dpl-field-ranks .dpl-field-msg-text', (p) => p.textContent), plain);
    assert.ok(await page.$('.dpl-field-ranks .dpl-fix'));
    assert.equal(await page.$eval('input[name="ranks"]', (i) => i.getAttribute('aria-invalid')), 'true');

    // Fixing the field clears both.
    await page.fill('input[name="ranks"]', '4');
    await page.press('input[name="ranks"]', 'Enter');
    await waitForTimeline(page, '.view-timeline');
    assert.equal(await page.$eval('.dpl-field-ranks .dpl-field-msg', (p) => p.textContent), '');

    // Now that a run worked, a rejected setting leaves it drawn, out of date, saying why.
    await page.goto(`${site.server.url}#view=timeline&schedule=pipedream&theme=purple`);
    await page.waitForSelector('#timeline-root.dpl-is-stale');
    assert.match(await page.$eval('#timeline-root > .dpl-stale-note', (n) => n.textContent), /There is no schedule called “pipedream”/);
    assert.match(await page.$eval('#page-notice', (n) => n.textContent), /theme must be one of auto, light, dark \(got "purple"\)/);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('on the Hindi page the simulator message for a bad parameter is shown in Hindi, in place and by its field', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&lang=hi&ranks=8&microbatches=10`);
    await page.waitForSelector('.view-timeline .dpl-error');
    // The template of rule microbatches.min_multiple_of_ranks, filled with core's params.
    const message = 'DualPipe के लिए माइक्रो-बैच कम से कम 2 × रैंक = 16 होने चाहिए (मिला 10)';
    const plain = 'DualPipe को हर रैंक पर कम से कम 2 माइक्रो-बैच चाहिए: 8 रैंक के लिए 16';
    assert.equal(await page.$eval('.view-timeline .dpl-error-message', (p) => p.textContent), plain);
    assert.equal(await page.$eval('.view-timeline .dpl-error-detail', (p) => p.textContent), message);
    await page.waitForSelector('.dpl-field-microbatches .dpl-field-msg-text');
    assert.equal(await page.$eval('.dpl-field-microbatches .dpl-field-msg-text', (p) => p.textContent), plain);
    assert.equal(await page.$eval('.view-timeline .dpl-error', (e) => e.dataset.path), '/microbatches');
    // Beside the fields: what DualPipe asks of them, from core's shape data, in Hindi.
    assert.equal(await page.$eval('.dpl-field-ranks .dpl-shape-hint', (p) => p.textContent), 'शर्त: सम, ≥ 2');
    assert.equal(await page.$eval('.dpl-field-microbatches .dpl-shape-hint', (p) => p.textContent), 'शर्त: सम और ≥ 2 × रैंक');
    // Switching the language re-says the message from its rule and params.
    await page.selectOption('#pref-lang', 'en');
    // The Hindi words start with "DualPipe" too: wait for the English ones themselves.
    const english = 'DualPipe needs at least 2 micro-batches per rank: 16 for 8 ranks';
    await page.waitForFunction((m) => document.querySelector('.dpl-field-microbatches .dpl-field-msg-text')?.textContent === m, english);
    await page.waitForFunction((m) => document.querySelector('.view-timeline .dpl-error-message')?.textContent === m, english);
    assert.equal(await page.$eval('.view-timeline .dpl-error-detail', (p) => p.textContent), 'microbatches must be >= 2 * ranks = 16 for dualpipe (got 10)');
    assert.equal(await page.$eval('.dpl-field-microbatches .dpl-shape-hint', (p) => p.textContent), 'Needs: even and ≥ 2 × ranks');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('under prefers-reduced-motion, play advances in still frames that land on op boundaries', async () => {
  const { context, page } = await openPage(site.browser, { reducedMotion: 'reduce' });
  try {
    await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8&t=0`);
    await waitForTimeline(page, '.view-timeline');
    await page.click('.view-timeline [data-action="play"]');
    await page.waitForFunction(() => Number(document.querySelector('.view-timeline .dpl-scrub').value) >= 2);
    await page.click('.view-timeline [data-action="play"]');
    const t = Number(await page.$eval('.view-timeline .dpl-scrub', (s) => s.value));
    const boundaries = await page.$$eval('.view-timeline .dpl-op', (gs) => gs.flatMap((g) => [Number(g.dataset.start), Number(g.dataset.end)]));
    assert.ok(boundaries.includes(t), `cursor ${t} is not an op boundary`);
  } finally {
    await context.close();
  }
});
