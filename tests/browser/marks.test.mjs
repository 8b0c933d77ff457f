// One meaning per visual mark on a timeline (issue 29): colour is the op's kind, dots mark
// direction 1, the hatch marks idle time and nothing else; the legend lists only the kinds the
// drawn run has, in one row where it fits; and every op fill keeps at least 3:1 against the
// chart's background in both themes (WCAG 2.2 SC 1.4.11, non-text contrast), computed here from
// the CSS variables the page resolves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline } from './helpers.mjs';
import { contrastRatio } from '../../web/js/lib/css-colour.js';
import { LANGS } from '../../web/js/lib/locales.js';

const site = useSite({ pipesim: false });
const TL = '.view-timeline';

for (const theme of ['light', 'dark']) {
  test(`${theme} theme: forward, backward and weight fills keep 3:1 against the background`, async () => {
    const { context, page } = await openPage(site.browser, { colorScheme: theme });
    try {
      await page.goto(`${site.server.url}#view=timeline&theme=${theme}&ranks=4&microbatches=8`);
      await waitForTimeline(page, TL);
      const colours = await page.$eval(`${TL} .dpl-timeline`, (root) => {
        const style = getComputedStyle(root);
        const read = (name) => style.getPropertyValue(name).trim();
        // The background the cells sit on: the chart's own (its box paints --dpl-bg).
        const background = getComputedStyle(root.querySelector('.dpl-scroll')).backgroundColor;
        return { background, bg: read('--dpl-bg'), F: read('--dpl-op-F'), Bi: read('--dpl-op-Bi'), B: read('--dpl-op-B'), W: read('--dpl-op-W') };
      });
      assert.ok(colours.F && colours.W, 'the op colours are CSS variables');
      for (const kind of ['F', 'Bi', 'B', 'W']) {
        const ratio = contrastRatio(colours[kind], colours.background);
        assert.ok(ratio >= 3, `${kind} ${colours[kind]} on ${colours.background}: ${ratio.toFixed(2)}:1`);
      }
      // The drawn cells use those variables: a forward cell is filled with --dpl-op-F.
      const fill = await page.$eval(`${TL} .dpl-op[data-op="F"] .dpl-cell`, (c) => getComputedStyle(c).fill);
      assert.equal(contrastRatio(fill, colours.F), 1);
    } finally {
      await context.close();
    }
  });
}

test('colour is the kind, dots are direction 1, the hatch is idle only; the legend lists what is drawn', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    // DualPipe at 4 x 8: F, B, B-for-input, W, pairs, idle and both directions.
    await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8`);
    await waitForTimeline(page, TL);
    const marks = await page.$$eval(`${TL} .dpl-op`, (gs) => gs.map((g) => ({
      op: g.dataset.op, dir: g.dataset.dir, fdir: g.dataset.fdir, bdir: g.dataset.bdir,
      fills: [...g.querySelectorAll('.dpl-dir-mark')].map((m) => m.getAttribute('fill')),
    })));
    for (const m of marks) {
      const dirs = m.op === 'FB' ? [m.fdir, m.bdir] : [m.dir];
      assert.equal(m.fills.length, dirs.filter((d) => d === '1').length, JSON.stringify(m));
      for (const fill of m.fills) assert.match(fill, /-dots-(F|Bi|B|W)\)$/);
    }
    // Nothing but the idle background and the legend's idle swatch uses the hatch.
    const idleUsers = await page.$$eval(`${TL} [fill*="-idle)"]`, (els) => [...new Set(els.map((e) => e.getAttribute('class')))]);
    assert.deepEqual(idleUsers, ['dpl-idle']);
    const legend = await page.$$eval(`${TL} .dpl-legend li`, (lis) => lis.map((li) => li.dataset.kind));
    assert.deepEqual(legend, ['F', 'B', 'Bi', 'W', 'FB', 'idle', 'dir1']);
    // One row at 1280 px: every entry on the first entry's line.
    const tops = await page.$$eval(`${TL} .dpl-legend li`, (lis) => lis.map((li) => Math.round(li.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size, 1, `legend rows at ${tops}`);

    // 1F1B alone: one direction, no split backward, no pairs.
    await page.goto(`${site.server.url}#view=timeline&schedule=1f1b&ranks=4&microbatches=8`);
    await page.waitForFunction(() => document.querySelector('.view-timeline .dpl-lane-title')?.textContent.startsWith('1F1B'));
    await waitForTimeline(page, TL);
    assert.deepEqual(await page.$$eval(`${TL} .dpl-legend li`, (lis) => lis.map((li) => li.dataset.kind)), ['F', 'B', 'idle']);
  } finally {
    await context.close();
  }
});

test('at 1280 px the lesson\'s opening figure lists every kind of its two runs in one legend row, in every language', async () => {
  const { context, page } = await openPage(site.browser, { viewport: { width: 1280, height: 800 } });
  try {
    for (const lang of LANGS) {
      await page.goto('about:blank');
      await page.goto(`${site.server.url}#lang=${lang}`);
      const lead = '.sim-widget[data-sim-id="lead"]';
      await waitForTimeline(page, lead);
      const items = await page.$$eval(`${lead} .dpl-legend li`, (lis) => lis.map((li) => ({ kind: li.dataset.kind, top: li.getBoundingClientRect().top, bottom: li.getBoundingClientRect().bottom })));
      // DualPipe beside 1F1B: every kind, both directions, the idle hatch.
      assert.deepEqual(items.map((i) => i.kind), ['F', 'B', 'Bi', 'W', 'FB', 'idle', 'dir1'], lang);
      const first = items[0];
      for (const i of items) assert.ok(i.top < first.bottom && i.bottom > first.top, `${lang}: ${i.kind} on another row (${JSON.stringify(items.map((x) => Math.round(x.top)))})`);
    }
  } finally {
    await context.close();
  }
});
