// The lesson on a phone (issue 29, item 7): at 390 px nothing scrolls sideways inside a box (the
// worked trace, the overlap pair, the parameter tables, the lesson's tables), in English and
// Hindi; the keyboard help of a timeline is behind its "?" button, not printed under each one; a
// timeline's table of ops and its idle column's name fit the chart's box in every language; a
// tap on an op shows its tooltip (a finger has no hover).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, screenshot } from './helpers.mjs';
import { LANGS, LESSON_LANGS } from '../../web/js/lib/locales.js';

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

// One load per language for both checks (each load draws the lesson's opening figure).
test('at 390 px, in every language, a timeline\'s idle column name is whole and its table of ops fits its box, End column and all', async () => {
  const { context, page, log } = await openPage(site.browser, PHONE);
  try {
    // The lesson's opening figure in every language; the explorer in Russian (the longest headings).
    const pages = [...LANGS.map((lang) => [lang, '#', '.sim-widget[data-sim-id="lead"]']), ['ru', '#view=timeline&ranks=4&microbatches=8&', '.view-timeline']];
    for (const [lang, hash, widget] of pages) {
      await page.goto('about:blank');
      await page.goto(`${site.server.url}${hash}lang=${lang}`);
      await waitForTimeline(page, widget);
      // The idle column's name: a phone's column is 44 px, narrower than "простой" or "ocioso".
      const names = await page.$$eval(`${widget} .dpl-idle-svg .dpl-axis-name`, (ts) => ts.map((text) => {
        const box = text.closest('.dpl-scroll').getBoundingClientRect();
        const r = text.getBoundingClientRect();
        return { text: text.textContent, left: r.left, right: r.right, boxLeft: box.left, boxRight: box.right };
      }));
      assert.ok(names.length >= 1, `${lang} ${hash}: the idle column is named`);
      for (const n of names) assert.ok(n.right <= n.boxRight && n.left >= n.boxLeft, `${lang} ${hash}: the idle column's name is cut: ${JSON.stringify(n)}`);
      await page.click(`${widget} [data-action="table"]`);
      await page.waitForSelector(`${widget} .dpl-tables:not([hidden]) table`);
      const boxes = await page.$$eval(`${widget} .dpl-tables .dpl-table-wrap`, (wraps) => wraps.map((w) => {
        const end = w.querySelector('thead th:last-child').getBoundingClientRect();
        const box = w.getBoundingClientRect();
        const row = w.querySelector('tbody tr');
        const table = w.querySelector('table');
        return { scroll: Math.max(w.scrollWidth, table.scrollWidth - table.clientWidth + w.clientWidth), client: w.clientWidth, endRight: end.right, boxRight: box.right, rowDisplay: getComputedStyle(row).display, cells: row.cells.length };
      }));
      assert.ok(boxes.length >= 1);
      for (const b of boxes) {
        assert.ok(b.scroll <= b.client + 1, `${lang} ${hash}: the table scrolls sideways: ${JSON.stringify(b)}`);
        assert.ok(b.endRight <= b.boxRight + 1, `${lang} ${hash}: the End column is cut: ${JSON.stringify(b)}`);
        assert.equal(b.rowDisplay, 'table-row', 'a row of the table stays a row (no unlabelled cards)');
      }
    }
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('at 390 px a tap on an op shows its tooltip, which stays once the finger lifts; a tap on the chart\'s empty space hides it', async () => {
  const { context, page, log } = await openPage(site.browser, { ...PHONE, reducedMotion: 'reduce' });
  try {
    await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8`);
    const tl = '.view-timeline';
    await waitForTimeline(page, tl);
    const op = await page.$(`${tl} .dpl-op[data-op="F"]`);
    const label = await op.getAttribute('aria-label');
    const box = await op.boundingBox();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const tip = await page.$eval(`${tl} .dpl-tooltip`, (el) => ({ hidden: el.hidden, text: el.textContent, box: el.getBoundingClientRect().toJSON() }));
    assert.equal(tip.hidden, false, 'the tooltip shows after the tap');
    assert.equal(tip.text, label);
    assert.ok(tip.box.left >= 0 && tip.box.right <= 390, `the tooltip is on screen: ${JSON.stringify(tip.box)}`);
    // A tap on the idle background of the chart (no op under it) hides it again.
    const idle = await page.$eval(`${tl} .dpl-lane-plot`, (p) => { const r = p.getBoundingClientRect(); return { x: r.right - 3, y: r.bottom - 3 }; });
    await page.touchscreen.tap(idle.x, idle.y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await page.$eval(`${tl} .dpl-tooltip`, (el) => el.hidden), true, 'a tap elsewhere hides it');

    // A run drawn on canvas (32 x 256: over 4,000 ops) has no element per op to focus: the tap
    // itself finds the op under the finger. Its middle is busy on every rank.
    await page.goto(`${site.server.url}#view=timeline&ranks=32&microbatches=256`);
    await page.waitForSelector(`${tl} .dpl-timeline-canvas`, { timeout: 30000 });
    await page.waitForFunction(() => !document.querySelector('.view-timeline .dpl-timeline.is-loading'));
    const mid = await page.$eval(`${tl} .dpl-timeline-canvas`, (c) => { c.scrollIntoView({ block: 'center' }); const r = c.getBoundingClientRect(); return { x: r.left + r.width / 2, y: Math.min(r.top + r.height / 2, innerHeight / 2) }; });
    await page.touchscreen.tap(mid.x, mid.y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const canvasTip = await page.$eval(`${tl} .dpl-tooltip`, (el) => ({ hidden: el.hidden, text: el.textContent }));
    assert.equal(canvasTip.hidden, false, 'a tap on a canvas op shows its tooltip');
    assert.match(canvasTip.text, /rank/i);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
