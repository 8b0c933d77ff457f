// The lesson on a phone (issue 29, item 7): at 390 px nothing scrolls sideways inside a box (the
// worked trace, the overlap pair, the parameter tables, the lesson's tables), in English and
// Hindi; the keyboard help of a timeline is behind its "?" button, not printed under each one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, screenshot } from './helpers.mjs';
import { LESSON_LANGS } from '../../web/js/lib/locales.js';

const site = useSite({ pipesim: false });
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** Boxes on screen whose content is wider than they are and that would scroll sideways. */
function sidewaysBoxes(page) {
  return page.evaluate(() => [...document.querySelectorAll('.view-lesson *')].filter((el) => {
    if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') return false; // not laid out
    const x = getComputedStyle(el).overflowX;
    return (x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 1;
  }).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${el.scrollWidth}>${el.clientWidth}`));
}

for (const lang of LESSON_LANGS) {
  test(`${lang}: at 390 px no box in the lesson or its exercises scrolls sideways`, async () => {
    const { context, page, log } = await openPage(site.browser, PHONE);
    try {
      await page.goto(`${site.server.url}#lang=${lang}`);
      await waitForTimeline(page, '.sim-widget[data-sim-id="lead"]');
      // Every widget drawn (each draws as it nears the screen), then the exercises.
      for (const id of await page.$$eval('.lesson .sim-widget', (ws) => ws.map((w) => w.dataset.simId))) {
        await page.$eval(`.sim-widget[data-sim-id="${id}"]`, (w) => w.scrollIntoView());
        await page.waitForSelector(`.sim-widget[data-sim-id="${id}"] :is(.dpl-op, .dpl-timeline-canvas)`, { timeout: 30000 });
      }
      await page.$eval('h2#exercises', (h) => h.scrollIntoView());
      await page.waitForSelector('#exercise-param-overhead .dpl-params-breakdown table', { timeout: 30000 });
      await page.waitForSelector('#exercise-overlap-window .dpl-pair-svg .dpl-pair-part');
      // The worked solutions open too: the per-GPU tables of exercise 4 and every answer table.
      for (const details of await page.$$('.dpl-ex-solution')) await details.evaluate((d) => { d.open = true; });
      await page.waitForSelector('#exercise-param-overhead .dpl-params-solution table');
      assert.deepEqual(await sidewaysBoxes(page), []);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'the page itself does not scroll sideways');
      // The reflowed parts: the trace in blocks, the pair at the frame's width, tables as cards.
      assert.ok(await page.$$eval('.lesson .dpl-trace > table', (ts) => ts.length) >= 2, 'the worked trace in two blocks or more');
      const pair = await page.$eval('#exercise-overlap-window .dpl-pair-frame', (f) => [f.scrollWidth, f.clientWidth]);
      assert.ok(pair[0] <= pair[1], `the overlap pair fits its frame: ${pair}`);
      assert.equal(await page.$eval('#exercise-param-overhead .dpl-params-breakdown tbody tr', (tr) => getComputedStyle(tr).display), 'block');
      await page.$eval('#exercise-param-overhead .dpl-params-breakdown', (el) => el.scrollIntoView());
      await screenshot(page, `phone-params-${lang}.png`);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}

test('keyboard help is behind each timeline\'s "?" button', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(site.server.url);
    await waitForTimeline(page, '.sim-widget[data-sim-id="lead"]');
    const lead = '.sim-widget[data-sim-id="lead"]';
    assert.deepEqual(await page.$$eval('.lesson .dpl-help', (ps) => [...new Set(ps.map((p) => p.hidden))]), [true], 'no help printed under any widget');
    // Still the chart's accessible description.
    const described = await page.$eval(`${lead} .dpl-scroll`, (s) => document.getElementById(s.getAttribute('aria-describedby'))?.textContent);
    assert.match(described, /Space plays or pauses/);
    await page.click(`${lead} [data-action="help"]`);
    assert.equal(await page.$eval(`${lead} .dpl-help`, (p) => p.hidden), false);
    assert.equal(await page.$eval(`${lead} [data-action="help"]`, (b) => b.getAttribute('aria-expanded')), 'true');
    await page.click(`${lead} [data-action="help"]`);
    assert.equal(await page.$eval(`${lead} .dpl-help`, (p) => p.hidden), true);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
