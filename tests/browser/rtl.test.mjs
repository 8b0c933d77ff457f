// Right to left: the page and a course figure mirror (navigation, settings, headings, legends on
// the start side, the right), while the timeline keeps its time axis running left to right
// (web/js/ui/dom.js PLOT_DIR), and nothing sticks out sideways at a laptop's or a phone's width.
//
// The right-to-left language is lib/locales.js's (Arabic). Until the lab speaks it (its entry's
// `strings`), a page in it would be English and left to right, so the test forces the direction
// instead: `dir="rtl"` on <html> once the page has rendered (app.js sets dir only on a language
// change), and on the figure's frame and widget root inside its shadow root (each sets its own
// from its language). Once the strings exist the test opens the page and the figure in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { useSite, openPage, waitForTimeline, servePages, hostHtml, screenshot, REPO } from './helpers.mjs';
import { LOCALES } from '../../web/js/lib/locales.js';

const site = useSite({ pipesim: false });

const RTL = LOCALES.find((locale) => locale.dir === 'rtl');
const SPOKEN = RTL.strings; // whether the page and the figure can be opened in it
const WIDTHS = [1280, 390];

// The rules that may place things by left and right: the plot's layers, inside a plot that keeps
// LTR geometry in every direction (ui/dom.js PLOT_DIR). Everything else that follows the text is
// written with logical properties; `text-align: right` is for numbers (their digits run left to
// right in every script, so they align on their last digit), never for text.
const PLOT_LAYERS = ['.dpl-canvas-window', '.dpl-timeline-axis', '.dpl-veil', '.dpl-cursor', '.dpl-overview-canvas', '.dpl-overview-window'];

test('the stylesheets place by left and right only inside the plot', () => {
  const dir = path.join(REPO, 'web/css');
  const found = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.css'))) {
    const css = readFileSync(path.join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const [, selector, body] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
      if (PLOT_LAYERS.some((layer) => selector.includes(layer))) continue;
      for (const declaration of body.split(';')) {
        const property = declaration.split(':')[0].trim();
        const value = declaration.slice(declaration.indexOf(':') + 1).trim();
        const physical = /^(margin|padding|border|inset|scroll-margin|scroll-padding)-(left|right)/.test(property)
          || /^border-(top|bottom)-(left|right)-radius$/.test(property)
          || ['left', 'right'].includes(property)
          || (['float', 'clear'].includes(property) && /left|right/.test(value))
          || (property === 'text-align' && value === 'left');
        if (physical) found.push(`${file}: ${selector.trim()} { ${declaration.trim()} }`);
      }
    }
  }
  assert.deepEqual(found, []);
});

/**
 * Whether the page scrolls sideways: its scrollable width beyond the viewport, or a scroll
 * position it can take either way (a right-to-left page overflows to the left, which scrollWidth
 * alone can miss).
 */
function sidewaysScroll(page) {
  return page.evaluate(() => {
    const root = document.scrollingElement;
    const extra = root.scrollWidth - root.clientWidth;
    root.scrollLeft = -100000;
    const towardLeft = root.scrollLeft;
    root.scrollLeft = 100000;
    const towardRight = root.scrollLeft;
    root.scrollLeft = 0;
    return { extra, towardLeft, towardRight };
  });
}

/**
 * Rank 0 of the first lane under `root` (a document or shadow root): its ops' left and right
 * edges in the order of their start times, its name in the gutter and its idle total, and the
 * plot's box. Time must run left to right, between the gutter on the left and the idle column
 * on the right.
 */
function rankZero(scope) {
  return scope.evaluate((root) => {
    const plot = root.querySelector('.dpl-lane-plot');
    const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right }; };
    return {
      ops: [...plot.querySelectorAll('.dpl-op[data-rank="0"]')]
        .map((g) => ({ start: Number(g.dataset.start), ...box(g) }))
        .sort((a, b) => a.start - b.start),
      name: box(plot.querySelector('.dpl-gutter .dpl-rank-label')),
      idle: box(plot.querySelector('.dpl-idle-column .dpl-idle-total')),
      plot: box(plot),
    };
  });
}

function assertTimeRunsRight({ ops, name, idle, plot }, where) {
  assert.ok(ops.length >= 2, `${where}: rank 0 has ops drawn`);
  for (let i = 1; i < ops.length; i++) {
    assert.ok(ops[i].left > ops[i - 1].left,
      `${where}: rank 0's op starting at ${ops[i].start} is right of the one at ${ops[i - 1].start} (${ops[i].left} > ${ops[i - 1].left})`);
  }
  assert.ok(name.left >= plot.left && name.right <= ops[0].left, `${where}: rank 0's name is in the plot, left of its first op (${JSON.stringify({ name, plot: plot.left, first: ops[0].left })})`);
  assert.ok(idle.left >= ops.at(-1).right && idle.right <= plot.right, `${where}: rank 0's idle total is in the plot, right of its last op (${JSON.stringify({ idle, plot: plot.right, last: ops.at(-1).right })})`);
}

/** The timeline's transport: the step to the start left of the step to the end, the scrubber LTR. */
function transportOf(root) {
  const start = root.querySelector('.dpl-transport [data-action="start"]').getBoundingClientRect();
  const end = root.querySelector('.dpl-transport [data-action="end"]').getBoundingClientRect();
  return { startLeft: start.left, endLeft: end.left, scrub: getComputedStyle(root.querySelector('.dpl-scrub')).direction };
}

for (const width of WIDTHS) {
  test(`the explorer mirrors right to left at ${width} px, its time axis still runs left to right`, async () => {
    const { context, page, log } = await openPage(site.browser, { viewport: { width, height: width >= 1000 ? 800 : 844 } });
    try {
      await page.goto(`${site.server.url}#view=timeline${SPOKEN ? `&lang=${RTL.code}` : ''}`);
      await waitForTimeline(page, '.view-timeline');
      if (!SPOKEN) await page.evaluate(() => { document.documentElement.dir = 'rtl'; });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).direction), 'rtl');

      // The header: the brand on the start side, the sections in reading order from the right.
      const header = await page.evaluate(() => {
        const links = [...document.querySelectorAll('.site-nav a')].map((a) => a.getBoundingClientRect());
        const brand = document.querySelector('.brand').getBoundingClientRect();
        const prefs = document.querySelector('.site-prefs').getBoundingClientRect();
        return { first: links[0].left, last: links[links.length - 1].left, sameRow: links[0].top === links[links.length - 1].top, brand: brand.left, prefs: prefs.left };
      });
      assert.ok(header.sameRow, 'the section links share a row');
      assert.ok(header.first > header.last, `the first section link is right of the last (${header.first} > ${header.last})`);
      assert.ok(header.brand > header.prefs, `the brand is right of the preferences (${header.brand} > ${header.prefs})`);

      // The settings: beside the chart on its left (its end side) when wide, their heading on the right.
      const side = await page.evaluate(() => ({
        side: document.querySelector('.side').getBoundingClientRect().toJSON(),
        main: document.querySelector('#main').getBoundingClientRect().toJSON(),
        beside: document.querySelector('#layout').dataset.settings === 'beside',
      }));
      if (width >= 1000) {
        assert.ok(side.beside, 'at a laptop\'s width the settings sit beside the explorer');
        assert.ok(side.side.right <= side.main.left, `the settings are left of the content (${side.side.right} <= ${side.main.left})`);
      }
      const heading = await page.evaluate(() => {
        const text = document.querySelector('#side-heading > span').getBoundingClientRect();
        const panel = document.querySelector('#side-panel').getBoundingClientRect();
        return { left: text.left - panel.left, right: panel.right - text.right };
      });
      assert.ok(heading.right < heading.left, `the settings' heading starts on the right (gaps ${JSON.stringify(heading)})`);

      // The widget's heading and legend mirror, the plot and its transport do not.
      const widget = await page.evaluateHandle(() => document.querySelector('.view-timeline .dpl-timeline'));
      const legend = await widget.evaluate((root) => {
        const items = root.querySelectorAll('.dpl-legend li');
        const list = root.querySelector('.dpl-legend ul').getBoundingClientRect();
        const first = items[0].getBoundingClientRect();
        return { right: list.right - first.right, left: first.left - list.left };
      });
      assert.ok(legend.right < 1 && legend.left > 0, `the legend's first entry is at its right (${JSON.stringify(legend)})`);
      const title = await widget.evaluate((root) => {
        // Its last line (a phone wraps it): a short line shows which side the text keeps to.
        const range = document.createRange();
        range.selectNodeContents(root.querySelector('.dpl-lane-title'));
        const t = [...range.getClientRects()].at(-1);
        const lane = root.querySelector('.dpl-lane-heading').getBoundingClientRect();
        return { left: t.left - lane.left, right: lane.right - t.right };
      });
      assert.ok(title.right < title.left, `the lane's title is at its right (${JSON.stringify(title)})`);
      assertTimeRunsRight(await rankZero(widget), 'explorer');
      const transport = await widget.evaluate(transportOf);
      assert.ok(transport.startLeft < transport.endLeft, 'the step to the start stays left of the step to the end');
      assert.equal(transport.scrub, 'ltr', 'the scrubber runs left to right with the time axis');

      for (const view of ['timeline', 'lesson', 'sweep']) {
        if (view !== 'timeline') {
          await page.evaluate((v) => { location.hash = `view=${v}`; }, view);
          await page.waitForSelector(view === 'lesson' ? '.view-lesson .dpl-op' : '.view-sweep .dpl-sweep-svg', { timeout: 20000 });
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        }
        const scroll = await sidewaysScroll(page);
        assert.deepEqual(scroll, { extra: 0, towardLeft: 0, towardRight: 0 }, `the ${view} view does not scroll sideways at ${width} px`);
      }
      await screenshot(page, `rtl-sweep-${width}.png`);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}

// The course's figure contract, reduced (course-figure.test.mjs reproduces it in full): figure
// scripts register with window.LF, the page mounts each .lesson-figure host.
const COURSE = `(function(){var FIGS={};window.LESSON_FIGURES=FIGS;window.LF={register:function(o){for(var k in o)FIGS[k]=o[k];}};
window.mountLessonFigures=function(){document.querySelectorAll('.lesson-figure[data-figure]').forEach(function(host){
var spec=host.dataset.figure.trim();var name=spec.split(/\\s+/)[0];if(FIGS[name])FIGS[name](host,{});});};})();`;

for (const width of WIDTHS) {
  test(`a course figure mirrors right to left at ${width} px, its time axis still runs left to right`, async () => {
    const { context, page, log } = await openPage(site.browser, { viewport: { width, height: 844 } });
    try {
      const body = '<article class="lesson"><p>Paragraph.</p><div class="lesson-figure" id="f0" data-figure="dualpipe-schedule schedule=dualpipe ranks=4 microbatches=8"></div></article>';
      const head = '<script src="lesson-figures.js"></script><script src="/js/embed/figure-widget.js"></script>';
      await servePages(page, site.server.url, {
        'lesson.html': ['text/html', hostHtml(body, head, '<script src="mount.js"></script>', RTL.code).replace('<html', '<html dir="rtl"')],
        'lesson-figures.js': ['text/javascript', COURSE],
        'mount.js': ['text/javascript', 'window.mountLessonFigures();'],
      });
      await page.goto(`${site.server.url}__test__/lesson.html`);
      const holder = await page.waitForSelector('#f0 .dualpipe-lab-figure');
      await page.waitForFunction((el) => Boolean(el.shadowRoot?.querySelector('.dpl-timeline .dpl-op')), holder, { timeout: 20000 });
      const shadow = await holder.evaluateHandle((el) => el.shadowRoot);
      if (!SPOKEN) await shadow.evaluate((root) => { for (const el of root.querySelectorAll('.dpl-frame, .dpl-embed')) el.dir = 'rtl'; });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      assert.equal(await shadow.evaluate((root) => getComputedStyle(root.querySelector('.dpl-legend')).direction), 'rtl');

      const label = await shadow.evaluate((root) => {
        const head = root.querySelector('.dpl-frame-head').getBoundingClientRect();
        const text = root.querySelector('.dpl-frame-label').getBoundingClientRect();
        return { left: text.left - head.left, right: head.right - text.right };
      });
      assert.ok(label.right < label.left, `the figure's label is at its right (${JSON.stringify(label)})`);
      const legend = await shadow.evaluate((root) => {
        const list = root.querySelector('.dpl-legend ul').getBoundingClientRect();
        const first = root.querySelector('.dpl-legend li').getBoundingClientRect();
        return { right: list.right - first.right, left: first.left - list.left };
      });
      assert.ok(legend.right < 1 && legend.left > 0, `the legend's first entry is at its right (${JSON.stringify(legend)})`);
      assertTimeRunsRight(await rankZero(shadow), 'figure');
      const transport = await shadow.evaluate(transportOf);
      assert.ok(transport.startLeft < transport.endLeft, 'the step to the start stays left of the step to the end');
      assert.equal(transport.scrub, 'ltr');
      assert.deepEqual(await sidewaysScroll(page), { extra: 0, towardLeft: 0, towardRight: 0 }, `the course page does not scroll sideways at ${width} px`);
      await screenshot(page, `rtl-figure-${width}.png`, { fullPage: true });
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}
