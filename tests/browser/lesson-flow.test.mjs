// How the lesson reads in Chromium (issue 11, items 3 and 7; issue 29, item 2): it opens on
// DualPipe and 1F1B on one time axis, playing once it is on screen, with each bubble labelled from
// the simulation, both lanes and the play button on the first screen of a desktop and a phone in
// every language the page speaks; reduced motion shows it still; Back from the explorer lands where the
// learner was reading; the settings panel comes in keyboard order where it is drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, screenshot, waitForTimeline, readDrawnOps, expectedOps } from './helpers.mjs';
import { translator, loadLanguage } from '../../web/js/lib/i18n.js';
import { LANGS } from '../../web/js/lib/locales.js';

for (const lang of LANGS) await loadLanguage(lang);

const site = useSite();
const LEAD = '.sim-widget[data-sim-id="lead"]';

for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`the lesson opens on DualPipe and 1F1B on one time axis, playing, bubble labelled, on the first screen (${name})`, async () => {
    const { context, page, log } = await openPage(site.browser, { viewport });
    try {
      // Every language the page speaks: where the lesson's text is English, its note ("the text is
      // in English here") must not push the figure down.
      for (const lang of LANGS) {
        // A fresh load per language: a hash-only change would re-render the lesson in place, and
        // the previous language's widget could satisfy the wait just before it is replaced.
        await page.goto('about:blank');
        await page.goto(`${site.server.url}#lang=${lang}`);
        await waitForTimeline(page, LEAD);
        assert.equal(await page.$eval('.lesson .sim-widget', (w) => w.dataset.simId), 'lead', 'the first widget of the lesson');
        // Issue 29: both lanes whole and the play button on the first screen, in every language.
        const where = await page.$eval(LEAD, (w) => ({
          lanes: [...w.querySelectorAll('.dpl-lane-plot')].map((l) => l.getBoundingClientRect().bottom),
          play: w.querySelector('[data-action="play"]').getBoundingClientRect().bottom,
        }));
        assert.equal(where.lanes.length, 2);
        for (const bottom of [...where.lanes, where.play]) assert.ok(bottom <= viewport.height, `${lang}: ${JSON.stringify(where)} within ${viewport.height}`);
        const config = JSON.parse(await page.$eval(LEAD, (w) => w.dataset.config));
        const compared = { ...config, schedule: await page.$eval(LEAD, (w) => w.dataset.compare) };
        const results = [compared, config].map((c) => site.api.simulate(c));
        assert.deepEqual(await readDrawnOps(page, LEAD), results.map(expectedOps));
        // One axis for both lanes: one time cursor over the longer makespan.
        assert.equal(await page.$$eval(`${LEAD} .dpl-scrub`, (s) => s.map((x) => x.max)).then((m) => m.join()), String(Math.max(...results.map((r) => r.makespan))));
        await page.waitForSelector(`${LEAD} .dpl-timeline.is-playing`, { timeout: 5000 });
        // Each lane's heading gives its bubble, once (the legend says the hatch is the bubble).
        const stats = await page.$$eval(`${LEAD} .dpl-lane-stats`, (ps) => ps.map((p) => p.textContent));
        const said = translator(lang);
        results.forEach((r, i) => assert.ok(stats[i].includes(said('stat.bubbleMax', { v: r.bubble.max })), `lane ${i} gives ${r.schedule}'s bubble ${r.bubble.max}: ${stats[i]}`));
        await screenshot(page, `lesson-lead-${name}-${lang}.png`);
      }
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}

test('the lead figure plays once it is on screen: not while a link has the page scrolled to an exercise', async () => {
  const { context, page, log } = await openPage(site.browser, { viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${site.server.url}#exercise=hand-trace`);
    await page.waitForSelector('#exercise-hand-trace');
    await waitForTimeline(page, LEAD);
    await page.waitForFunction(() => document.querySelector('#exercise-hand-trace').getBoundingClientRect().top < 200);
    // Two frames after the draw: an autoplay that did not wait would have started.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await page.$(`${LEAD} .dpl-timeline.is-playing`), null, 'off screen, it waits');
    await page.mouse.wheel(0, -100); // the learner scrolls: the exercise link lets go of the page
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForSelector(`${LEAD} .dpl-timeline.is-playing`, { timeout: 5000 });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('under reduced motion the lead widget does not play by itself', async () => {
  const { context, page, log } = await openPage(site.browser, { reducedMotion: 'reduce' });
  try {
    await page.goto(site.server.url);
    await waitForTimeline(page, LEAD);
    // Give an autoplay every chance to start: two animation frames after the draw.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await page.$(`${LEAD} .dpl-timeline.is-playing`), null);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('Back from the explorer, opened from a lesson widget, restores the reading position', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(site.server.url);
    const widget = '.sim-widget[data-sim-id="dp8"]';
    await page.waitForSelector(widget, { timeout: 30000 });
    await page.$eval(widget, (w) => w.scrollIntoView({ block: 'center' }));
    await waitForTimeline(page, widget);
    // Where the widget sits in the viewport is the reading position (widgets above it may still
    // change height as they draw, and the browser's scroll anchoring moves scrollY with them).
    // The learner reads down to the widget's link (a click would scroll it into view anyway).
    await page.$eval(`${widget} .sim-widget-open`, (a) => a.scrollIntoView({ block: 'center' }));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.ok(await page.evaluate(() => window.scrollY) > 1000, 'the widget is well down the page');
    const reading = await page.$eval(widget, (w) => w.getBoundingClientRect().top);
    await page.click(`${widget} .sim-widget-open`);
    await page.waitForSelector('.view-timeline:not([hidden]) .dpl-op');
    await page.goBack();
    await page.waitForSelector('.view-lesson:not([hidden])');
    await page.waitForFunction(([w, y]) => Math.abs(document.querySelector(w).getBoundingClientRect().top - y) < 40, [widget, reading], { timeout: 5000 }).catch(() => {});
    const back = await page.$eval(widget, (w) => w.getBoundingClientRect().top);
    assert.ok(Math.abs(back - reading) < 40, `the widget is back where it was read (top ${reading} -> ${back})`);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`keyboard order follows the visual order of the settings and the content (${name})`, async () => {
    const { context, page, log } = await openPage(site.browser, { viewport });
    try {
      // The lesson has no settings panel: each widget's controls stand beside it (issue 29).
      await page.goto(`${site.server.url}#view=lesson`);
      await page.waitForSelector('.view-lesson:not([hidden]) .dpl-op', { timeout: 30000 });
      assert.equal(await page.$eval('.layout > .side', (side) => getComputedStyle(side).display), 'none');
      for (const view of ['timeline', 'sweep']) {
        await page.goto(`${site.server.url}#view=${view}`);
        await page.waitForSelector(`.view-${view}:not([hidden]) :is(.dpl-op, .dpl-sweep-svg)`, { timeout: 30000 });
        const order = await page.evaluate(() => {
          const side = document.querySelector('.layout > .side').getBoundingClientRect();
          const main = document.querySelector('#main').getBoundingClientRect();
          const visual = side.top < main.top - 8 || (Math.abs(side.top - main.top) <= 8 && side.left < main.left) ? 'side' : 'main';
          const dom = document.querySelector('.layout > .side').compareDocumentPosition(document.querySelector('#main')) & Node.DOCUMENT_POSITION_FOLLOWING ? 'side' : 'main';
          return { visual, dom };
        });
        assert.equal(order.dom, order.visual, `${view}: the region drawn first comes first in keyboard order`);
      }
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}
