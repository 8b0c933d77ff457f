// One meaning per visual mark on a timeline (issue 29): colour is the op's kind, dots mark
// direction 1, the hatch marks idle time and nothing else; the legend lists only the kinds the
// drawn run has, in one row where it fits; and every op fill keeps at least 3:1 against the
// chart's background in both themes (WCAG 2.2 SC 1.4.11, non-text contrast), computed here from
// the CSS variables the page resolves, and still does while a timeline plays and the ops not yet
// run show in grey (read off the screen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline } from './helpers.mjs';
import { contrastRatio, rgbaOf } from '../../web/js/lib/css-colour.js';
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

/**
 * A screenshot of `clip` (a PNG, base64), decoded in the page below: what the learner sees, veil
 * and all, whichever renderer drew the cells.
 */
async function pixelsOf(page, clip) {
  return (await page.screenshot({ clip })).toString('base64');
}

// While a timeline plays, the ops not yet run lie under the veil (ui/timeline-frame.js): they must
// still keep 3:1 against the background (read from the screen, as drawn) and look unlike the ops
// that have run. The SVG renderer (4 x 8) and the canvas one (32 x 256) share the veil.
for (const theme of ['light', 'dark']) {
  for (const [renderer, size, drawn] of [['svg', 'ranks=4&microbatches=8', '.dpl-op'], ['canvas', 'ranks=32&microbatches=256', '.dpl-timeline-canvas']]) {
    test(`${theme} theme, ${renderer}: cells not yet run keep 3:1 and differ from those run`, async (t) => {
      const { context, page, log } = await openPage(site.browser, { colorScheme: theme });
      try {
        await page.goto(`${site.server.url}#view=timeline&theme=${theme}&schedule=dualpipe&${size}`);
        await page.waitForSelector(`${TL} .dpl-timeline ${drawn}`, { timeout: 60000 });
        const { background, colours, clip } = await page.$eval(`${TL} .dpl-timeline`, (root) => {
          const style = getComputedStyle(root);
          const plot = root.querySelector('.dpl-plot-window').getBoundingClientRect();
          return {
            background: getComputedStyle(root.querySelector('.dpl-scroll')).backgroundColor,
            colours: Object.fromEntries(['F', 'Bi', 'B', 'W'].map((k) => [k, style.getPropertyValue(`--dpl-op-${k}`).trim()])),
            // The plot's first rows, on screen.
            clip: { x: Math.ceil(plot.left), y: Math.ceil(plot.top), width: Math.floor(Math.min(plot.width, innerWidth - plot.left)), height: Math.floor(Math.min(plot.height, innerHeight - plot.top)) },
          };
        });
        // At the end nothing is veiled: the pixels filled with F's and W's colour are those cells.
        const played = await pixelsOf(page, clip);
        await page.focus(`${TL} .dpl-scroll`);
        await page.keyboard.press('Home');
        await page.waitForFunction(() => location.hash.includes('t=0'));
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        const unplayed = await pixelsOf(page, clip);
        const seen = await page.evaluate(async ({ played, unplayed, colours }) => {
          const read = async (b64) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }), { colorSpaceConversion: 'none' });
            const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
            ctx.drawImage(bitmap, 0, 0);
            return ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
          };
          const [before, after] = [await read(played), await read(unplayed)];
          const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
          const out = {};
          for (const [kind, hex] of Object.entries(colours)) {
            const want = rgb(hex);
            const colours = new Map();
            for (let i = 0; i < before.length; i += 4) {
              if (want.every((v, c) => Math.abs(before[i + c] - v) <= 2)) {
                const c = `rgb(${after[i]}, ${after[i + 1]}, ${after[i + 2]})`;
                colours.set(c, (colours.get(c) ?? 0) + 1);
              }
            }
            // The colour most of the kind's pixels take under the veil (labels and edges aside).
            out[kind] = [...colours].sort((a, b) => b[1] - a[1])[0]?.[0];
          }
          return out;
        }, { played, unplayed, colours });
        const channels = (c) => /rgba\((\d+), (\d+), (\d+)/.exec(rgbaOf(c)).slice(1).map(Number);
        const distance = (a, b) => Math.hypot(...channels(a).map((v, i) => v - channels(b)[i]));
        for (const [kind, colour] of Object.entries(colours)) {
          assert.ok(seen[kind], `${kind} cells found on screen`);
          const ratio = contrastRatio(seen[kind], background);
          t.diagnostic(`${kind} not yet run: ${seen[kind]}, ${ratio.toFixed(2)}:1 (run: ${colour}, ${contrastRatio(colour, background).toFixed(2)}:1)`);
          assert.ok(ratio >= 3, `${renderer}, ${kind} not yet run: ${seen[kind]} on ${background}: ${ratio.toFixed(2)}:1`);
          assert.ok(distance(seen[kind], colour) > 60, `${renderer}, ${kind} not yet run (${seen[kind]}) looks like ${kind} run (${colour})`);
        }
        assert.deepEqual(log.errors, []);
      } finally {
        await context.close();
      }
    });
  }
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
