// Every timeline opens showing the whole run in its width (issue 11, item 1): at 1280 and 390 px,
// and in a 320 px host, each lesson and embed timeline's last op lies inside the chart's visible
// box with nothing to scroll sideways, its rank labels readable and inside the box. Saves
// screenshots of the lesson and the embeds (en and hi, light and dark, desktop and phone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, screenshot, servePages, hostHtml, switchColorScheme } from './helpers.mjs';
import { timelineFits } from './timeline-probe.mjs';
import { readFileSync } from 'node:fs';
import { LANGS, LESSON_LANGS, DEFAULT_LANG, localeOf } from '../../web/js/lib/locales.js';

const site = useSite();
const WIDTHS = [1280, 390];

// The languages the whole lesson is checked in at 390 px, where labels could squeeze a chart: the
// lesson's own (its text is theirs), the one whose page strings are longest (the others' labels
// are shorter; a language matrix of whole-lesson loads cost minutes of CI), and right to left.
const stringsLength = (lang) => Object.values(JSON.parse(readFileSync(new URL(`../../web/locales/${lang}.json`, import.meta.url), 'utf8')))
  .reduce((sum, text) => sum + text.length, 0);
const LONGEST = LANGS.filter((lang) => localeOf(lang).dir === 'ltr').reduce((a, b) => (stringsLength(b) > stringsLength(a) ? b : a));
const NARROW_LANGS = [...new Set([...LESSON_LANGS, LONGEST, ...LANGS.filter((lang) => localeOf(lang).dir === 'rtl')])];

/**
 * Checks every timeline `probe` found: its last drawn op ends at `makespans[i]` (the run's
 * end, from the simulator), lies inside the plot and the chart's box, and nothing in the chart
 * or the page scrolls sideways; rank labels are at least 10 px and inside the box.
 */
function assertFits(found, makespans, where) {
  assert.equal(found.timelines.length, makespans.length, `${where}: ${found.timelines.length} timelines`);
  found.timelines.forEach((tl, i) => {
    const label = `${where} #${i}`;
    assert.equal(tl.lastEnd, makespans[i], `${label}: the last op drawn ends at ${tl.lastEnd}, the run at ${makespans[i]}`);
    assert.ok(tl.last.right <= tl.plot.right + 0.5 && tl.last.left >= tl.plot.left - 0.5, `${label}: last op ${JSON.stringify(tl.last)} outside the plot ${JSON.stringify(tl.plot)}`);
    assert.ok(tl.last.right <= tl.box.right && tl.box.right <= found.viewportWidth + 0.5, `${label}: last op or chart past the right edge`);
    assert.ok(tl.scrollWidth <= tl.clientWidth, `${label}: the chart scrolls (${tl.scrollWidth} > ${tl.clientWidth})`);
    assert.ok(tl.widgetOverflow <= 0, `${label}: the widget's controls stick out ${tl.widgetOverflow}px past its right edge`);
    assert.ok(tl.labels.length > 0, `${label}: no rank labels`);
    for (const l of tl.labels) {
      assert.ok(l.fontSize >= 10, `${label}: rank label at ${l.fontSize} px`);
      assert.ok(l.left >= tl.box.left - 0.5 && l.right <= tl.plot.left + 0.5, `${label}: rank label ${JSON.stringify(l)} not in the gutter`);
    }
  });
  assert.ok(found.pageOverflow <= 0, `${where}: the page is ${found.pageOverflow}px wider than its viewport`);
}

const makespanOf = (config) => site.api.simulate(config).makespan;

// One load per width and language, checked in the light theme and again after the system
// switches to dark (the page follows prefers-color-scheme live).
// The other languages only at the narrow width (NARROW_LANGS): 1280 px has room.
test(`every lesson timeline shows its whole run at 1280 and 390 px (${NARROW_LANGS.join(', ')}), in both themes`, async () => {
  for (const width of WIDTHS) {
    for (const lang of width === Math.min(...WIDTHS) ? NARROW_LANGS : [DEFAULT_LANG]) {
      const { context, page, log } = await openPage(site.browser, { viewport: { width, height: 900 }, colorScheme: 'light' });
      try {
        await page.goto(`${site.server.url}#lang=${lang}`);
        // Lesson widgets simulate when they come near the viewport: visit each, then go back up.
        await page.waitForSelector('.lesson .sim-widget', { timeout: 30000 });
        for (const id of await page.$$eval('.lesson .sim-widget', (ws) => ws.map((w) => w.dataset.simId))) {
          await page.$eval(`.sim-widget[data-sim-id="${id}"]`, (w) => w.scrollIntoView());
          await page.waitForSelector(`.sim-widget[data-sim-id="${id}"] .dpl-op`, { timeout: 30000 });
        }
        const widgets = await page.$$eval('.lesson .sim-widget', (ws) => ws.map((w) => ({ config: JSON.parse(w.dataset.config), compare: w.dataset.compare })));
        // A widget comparing two schedules draws both on one axis: it ends where the longer run does.
        const ends = widgets.map(({ config, compare }) => Math.max(makespanOf(config), compare ? makespanOf({ ...config, schedule: compare }) : 0));
        for (const theme of ['light', 'dark']) {
          await switchColorScheme(page, theme);
          await page.evaluate(() => window.scrollTo(0, 0));
          assertFits(await page.evaluate(timelineFits), ends, `lesson ${lang} ${theme} ${width}px`);
          await page.$eval('.sim-widget', (w) => w.scrollIntoView({ block: 'start' }));
          await screenshot(page, `fit-lesson-${lang}-${theme}-${width}.png`);
        }
        assert.deepEqual(log.errors, []);
      } finally {
        await context.close();
      }
    }
  }
});

test('the explorer opens a 16x64 DualPipe whole, and embed.html a DualPipe 8x32, at 1280 and 390 px', async () => {
  for (const width of WIDTHS) {
    const { context, page, log } = await openPage(site.browser, { viewport: { width, height: 900 } });
    try {
      await page.goto(`${site.server.url}#view=timeline&schedule=dualpipe&ranks=16&microbatches=64`);
      await waitForTimeline(page, '.view-timeline');
      assertFits(await page.evaluate(timelineFits), [makespanOf({ schedule: 'dualpipe', ranks: 16, microbatches: 64 })], `explorer ${width}px`);
      await page.goto(`${site.server.url}embed.html?widget=timeline&schedule=dualpipe&ranks=8&microbatches=32&compare=1f1b`);
      await waitForTimeline(page);
      const both = [makespanOf({ schedule: 'dualpipe', ranks: 8, microbatches: 32 }), makespanOf({ schedule: '1f1b', ranks: 8, microbatches: 32 })];
      // Compared lanes share one time axis: each lane's last op ends at its own run's end.
      const found = await page.evaluate(timelineFits);
      assert.deepEqual(found.timelines[0].lanes, both);
      assertFits({ ...found, timelines: [found.timelines[0]] }, [Math.max(...both)], `embed.html ${width}px`);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('the custom element (in 760 and 320 px hosts), the iframe and the course figure open whole', async () => {
  const element = { schedule: 'dualpipev', ranks: 4, microbatches: 10 };
  const iframe = { schedule: 'dualpipe', ranks: 8, microbatches: 32 };
  const figure = { schedule: 'dualpipe', ranks: 8, microbatches: 16 };
  const attrs = (c) => `schedule="${c.schedule}" ranks="${c.ranks}" microbatches="${c.microbatches}"`;
  const query = (c) => `schedule=${c.schedule}&ranks=${c.ranks}&microbatches=${c.microbatches}`;
  for (const width of WIDTHS) {
    for (const theme of ['light', 'dark']) {
      const { context, page, log } = await openPage(site.browser, { viewport: { width, height: 900 }, colorScheme: theme });
      try {
        await servePages(page, site.server.url, {
          'host.html': ['text/html', hostHtml(
            `<div class="w760"><dualpipe-timeline ${attrs(element)} theme="${theme}"></dualpipe-timeline></div>`
            + `<div class="w320"><dualpipe-timeline ${attrs(element)} theme="${theme}" lang="hi"></dualpipe-timeline></div>`
            + `<div class="lesson-figure" data-figure='dualpipe-schedule ${JSON.stringify(figure)}'></div>`
            + `<iframe title="DualPipe" src="/embed.html?widget=timeline&${query(iframe)}&theme=${theme}"></iframe>`,
            '<link rel="stylesheet" href="host.css"><script type="module" src="/js/embed/dualpipe-timeline-element.js"></script><script src="/js/embed/figure-widget.js"></script>',
            '<script src="go.js"></script>')],
          'host.css': ['text/css', 'body { margin: 8px; } .w760 { max-width: 760px; } .w320 { width: 320px; } iframe { width: 100%; height: 700px; border: 0; }'],
          'go.js': ['text/javascript', 'window.LF.mountAll();'],
        });
        await page.goto(`${site.server.url}__test__/host.html`);
        await page.waitForFunction(() => document.querySelectorAll('dualpipe-timeline .dpl-op').length > 0);
        await page.locator('.lesson-figure .dpl-op').first().waitFor();
        const frame = page.frame({ url: /embed\.html/ });
        await waitForTimeline(frame);
        const host = await page.evaluate(timelineFits);
        assertFits(host, [element, element, figure].map(makespanOf), `host ${theme} ${width}px`);
        assertFits(await frame.evaluate(timelineFits), [makespanOf(iframe)], `iframe ${theme} ${width}px`);
        await screenshot(page, `fit-embeds-${theme}-${width}.png`, { fullPage: true });
        assert.deepEqual(log.errors, []);
      } finally {
        await context.close();
      }
    }
  }
});

// The explorer's first screen has something to play (issue 11): on a 1280x800 laptop, every rank
// of the default run and the play button are above the fold, with the settings beside the chart
// (they used to form a band above it that left the chart below the first screen).
test('the explorer opens with the whole default run and its play button on a 1280x800 first screen', async () => {
  for (const lang of LANGS) {
    const { context, page } = await openPage(site.browser, { viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${site.server.url}#view=timeline&lang=${lang}`);
      await page.waitForSelector('.view-timeline .dpl-op');
      const seen = await page.evaluate(() => {
        const bottom = (el) => el.getBoundingClientRect().bottom;
        const rows = [...document.querySelectorAll('.view-timeline [data-rank]')];
        const ranks = new Set(rows.map((el) => el.dataset.rank));
        const visible = new Set(rows.filter((el) => bottom(el) <= innerHeight).map((el) => el.dataset.rank));
        return { ranks: ranks.size, visible: visible.size, play: bottom(document.querySelector('.view-timeline [data-action="play"]')), height: innerHeight,
          settingsBeside: ((side, chart) => side.left >= chart.right || side.right <= chart.left)(document.querySelector('.side').getBoundingClientRect(), document.querySelector('#timeline-root').getBoundingClientRect()) }; // either side: right-to-left puts them on the left
      });
      assert.ok(seen.ranks >= 2, `${lang}: ${seen.ranks} ranks drawn`);
      assert.equal(seen.visible, seen.ranks, `${lang}: ${seen.visible} of ${seen.ranks} ranks on the first screen`);
      assert.ok(seen.play <= seen.height, `${lang}: the play button ends at ${seen.play} px, below the first screen`);
      assert.ok(seen.settingsBeside, `${lang}: the settings are not beside the chart`);
    } finally {
      await context.close();
    }
  }
});

// The same for the sweep, whose settings stay a band above its two full-width charts: from
// 1100 px the band is one row (page.css), so both charts show on the first screen of a 1280x800
// laptop, and the inputs of both groups line up whatever labels wrap (Hindi's are longer).
test('the sweep opens with both charts showing on a 1280x800 first screen, its settings band one row', async () => {
  for (const lang of LANGS) {
    const { context, page } = await openPage(site.browser, { viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${site.server.url}#view=sweep&lang=${lang}`);
      await page.waitForSelector('.view-sweep .dpl-sweep-svg');
      const seen = await page.evaluate(() => {
        const charts = [...document.querySelectorAll('.view-sweep .dpl-sweep-svg')].map((svg) => Math.round(svg.getBoundingClientRect().top));
        const inputs = [...document.querySelectorAll('.side :is(.dpl-form-grid, .dpl-cost-grid:not(.dpl-comm-grid)) input')]
          .filter((input) => input.offsetParent).map((input) => Math.round(input.getBoundingClientRect().top));
        return { charts, inputs, height: innerHeight };
      });
      assert.equal(seen.charts.length, 2, `${lang}: ${seen.charts.length} charts`);
      // At least 150 px of each plot shows (a two-row band left only the charts' titles there).
      for (const top of seen.charts) assert.ok(top + 150 <= seen.height, `${lang}: a chart starts at ${top} px of ${seen.height}`);
      // Varying micro-batches, the band leaves out their fixed count (issue 29): ranks, chunks, five costs.
      assert.equal(seen.inputs.length, 7, `${lang}: ranks, chunks and five costs: ${seen.inputs.length}`);
      assert.equal(new Set(seen.inputs).size, 1, `${lang}: the band's inputs are not on one line: ${seen.inputs}`);
    } finally {
      await context.close();
    }
  }
});
