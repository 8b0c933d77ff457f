// Comparing many (issue 29, item 8): the explorer draws any number of schedules on one time axis,
// each exactly as simulated; the sweep draws the learner's schedules heavier, lets any line be
// hidden and shown, draws lines with the same values a little apart (GPipe's bubble is 1F1B's)
// and leaves out the fixed value of the count it varies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, readDrawnOps, expectedOps } from './helpers.mjs';

const site = useSite();
const TL = '.view-timeline';
const SHAPE = { ranks: 4, microbatches: 8 };

test('the explorer draws four schedules on one axis, each exactly as simulated, and the form adds a fifth', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8&compare=1f1b,zb-h1,zb-v`);
    await waitForTimeline(page, TL);
    await page.waitForFunction(() => document.querySelectorAll('.view-timeline .dpl-timeline-svg').length === 4);
    const names = ['dualpipe', '1f1b', 'zb-h1', 'zb-v'];
    const results = names.map((schedule) => site.api.simulate({ schedule, ...SHAPE }));
    assert.deepEqual(await readDrawnOps(page, TL), results.map(expectedOps));
    // One axis: every lane as wide, one cursor over the longest makespan (ZB-V's 51 here).
    assert.equal(new Set(await page.$$eval(`${TL} .dpl-timeline-svg`, (ss) => ss.map((s) => s.getAttribute('width')))).size, 1);
    assert.equal(await page.$eval(`${TL} .dpl-scrub`, (s) => Number(s.max)), Math.max(...results.map((r) => r.makespan)));
    // The compared schedules named as a list in a sentence (Intl.ListFormat), not joined in code.
    assert.equal(await page.$eval('.dpl-compare-chosen', (s) => s.textContent), new Intl.ListFormat('en').format(['1F1B', 'ZB-H1', 'ZB-V']));
    await page.click('.dpl-compare > summary');
    // The chosen schedule cannot be compared with itself.
    assert.equal(await page.$eval('input[name="compare"][value="dualpipe"]', (b) => b.disabled), true);
    await page.check('input[name="compare"][value="gpipe"]');
    await page.waitForFunction(() => document.querySelectorAll('.view-timeline .dpl-timeline-svg').length === 5);
    assert.match(await page.evaluate(() => decodeURIComponent(location.hash)), /compare=gpipe,1f1b,zb-h1,zb-v/);
    assert.deepEqual((await readDrawnOps(page, TL))[1], expectedOps(site.api.simulate({ schedule: 'gpipe', ...SHAPE })));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the sweep: the learner\'s schedules heavier, lines hidden and shown, coinciding lines apart, no fixed value for the varied count', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=sweep&schedule=gpipe&compare=dualpipe`);
    await page.waitForSelector('.view-sweep .dpl-sweep-svg g[data-schedule]');
    const level = (name) => page.$eval(`.view-sweep .dpl-sweep-svg g[data-schedule="${name}"]`, (g) => g.getAttribute('class'));
    assert.match(await level('gpipe'), /is-picked/);
    assert.match(await level('dualpipe'), /is-picked/);
    assert.match(await level('1f1b'), /is-other/);
    // GPipe's bubble fraction equals 1F1B's at every count: drawn 3 px apart, and said so.
    const ys = (name) => page.$eval(`.view-sweep .dpl-sweep-figure:first-child g[data-schedule="${name}"] polyline`, (p) => p.getAttribute('points').split(' ').map((xy) => Number(xy.split(',')[1])));
    const [gpipe, onef1b] = [await ys('gpipe'), await ys('1f1b')];
    assert.equal(gpipe.length, onef1b.length);
    gpipe.forEach((y, i) => assert.ok(Math.abs(Math.abs(y - onef1b[i]) - 3) < 1e-6, `point ${i}: ${y} vs ${onef1b[i]}`));
    assert.match(await page.$eval('.view-sweep .dpl-sweep-same', (p) => p.textContent), /bubble: GPipe = 1F1B/);
    // Hide 1F1B's line from the legend, then show it again.
    await page.click('.view-sweep .dpl-sweep-toggle[data-schedule="1f1b"]');
    await page.waitForFunction(() => !document.querySelector('.view-sweep .dpl-sweep-svg g[data-schedule="1f1b"]'));
    assert.equal(await page.$eval('.view-sweep .dpl-sweep-toggle[data-schedule="1f1b"]', (b) => b.getAttribute('aria-pressed')), 'false');
    await page.click('.view-sweep .dpl-sweep-toggle[data-schedule="1f1b"]');
    await page.waitForSelector('.view-sweep .dpl-sweep-svg g[data-schedule="1f1b"]');
    // Varying micro-batches, the form shows no fixed micro-batch count; varying ranks, no rank count.
    const shown = (name) => page.$eval(`.side input[name="${name}"]`, (i) => i.closest('.dpl-field').offsetParent !== null);
    assert.deepEqual([await shown('ranks'), await shown('microbatches')], [true, false]);
    await page.click('.view-sweep button[data-axis="ranks"]');
    await page.waitForFunction(() => document.querySelector('.side input[name="ranks"]').closest('.dpl-field').offsetParent === null);
    assert.equal(await shown('microbatches'), true);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
