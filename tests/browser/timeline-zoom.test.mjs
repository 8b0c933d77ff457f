// Zoom, pan and the overview strip in Chromium, on the explorer: buttons, keys, ctrl+wheel around
// the pointer, drag, the strip's own keys, playback that follows the cursor; the SVG keeps its
// data-* attributes for the ops in view; a 64 x 1024 DualPipe run (73,666 ops) is drawn on canvas
// with all 64 ranks, each drawn once scrolled into view (the canvas holds only the ranks on
// screen); the memory lane's peaks are core's, in per-GPU units. Saves screenshots (en and hi,
// light and dark, desktop and phone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, readDrawnOps, expectedOps, screenshot, switchColorScheme } from './helpers.mjs';

const site = useSite();
const SCOPE = '.view-timeline';
const DEEPSEEK = { schedule: 'dualpipe', ranks: 8, microbatches: 20 };

/** The view the overview strip marks: {start, end}, from its data-* attributes. */
function viewOf(page) {
  return page.$eval(`${SCOPE} .dpl-overview`, (el) => ({ start: Number(el.dataset.start), end: Number(el.dataset.end) }));
}

/** The plot area's box on screen (the cursor layer covers exactly the plot), scrolled into view. */
function plotBox(page) {
  return page.$eval(`${SCOPE} .dpl-plot-window`, (el) => {
    el.scrollIntoView({ block: 'center' });
    return el.getBoundingClientRect().toJSON();
  });
}

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

test('zoom buttons and keys halve and double the view around the cursor; 0 shows the whole run', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&t=33`);
    await waitForTimeline(page, SCOPE);
    const makespan = site.api.simulate(DEEPSEEK).makespan; // 66
    assert.deepEqual(await viewOf(page), { start: 0, end: makespan });
    assert.equal(await page.$eval(`${SCOPE} [data-action="zoomOut"]`, (b) => b.disabled), true, 'nothing to zoom out of');
    await page.click(`${SCOPE} [data-action="zoomIn"]`);
    // Twice as close around the cursor at t = 33, the middle of the run: t = 16.5 to 49.5.
    assert.deepEqual(await viewOf(page), { start: 16.5, end: 49.5 });
    // Only the ops in view are drawn, each with the simulator's data-* attributes.
    const [drawn] = await readDrawnOps(page, SCOPE);
    const inView = expectedOps(site.api.simulate(DEEPSEEK)).filter((o) => Number(o.end) > 16.5 && Number(o.start) < 49.5);
    assert.deepEqual(drawn, inView);
    // The overview window covers the same half of the strip.
    const strip = await page.$eval(`${SCOPE} .dpl-overview`, (el) => ({ strip: el.clientWidth, win: el.querySelector('.dpl-overview-window').getBoundingClientRect().width }));
    near(strip.win, strip.strip / 2, 1, 'overview window width');
    await page.focus(`${SCOPE} .dpl-scroll`);
    await page.keyboard.press('+');
    assert.deepEqual(await viewOf(page), { start: 24.75, end: 41.25 });
    await page.keyboard.press('-');
    assert.deepEqual(await viewOf(page), { start: 16.5, end: 49.5 });
    await page.keyboard.press('0');
    assert.deepEqual(await viewOf(page), { start: 0, end: makespan });
    assert.equal(await page.$eval(`${SCOPE} .dpl-zoom-level`, (e) => e.textContent), 'whole run shown');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('ctrl+wheel zooms around the pointer, a drag pans, and the overview strip pans from the keyboard', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline`);
    await waitForTimeline(page, SCOPE);
    const plot = await plotBox(page);
    // The pointer a quarter of the way across the plot, at t = 66 / 4 = 16.5, stays over t = 16.5.
    const x = plot.left + plot.width / 4;
    await page.mouse.move(x, plot.top + plot.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await page.waitForFunction((s) => document.querySelector(`${s} .dpl-overview`).dataset.start !== '0', SCOPE);
    const zoomed = await viewOf(page);
    assert.ok(zoomed.end - zoomed.start < 66, `zoomed in: ${JSON.stringify(zoomed)}`);
    near(zoomed.start + (zoomed.end - zoomed.start) / 4, 16.5, 0.1, 'time under the pointer');
    // Dragging left by a quarter of the plot shows a quarter of a view later.
    const span = zoomed.end - zoomed.start;
    await page.mouse.down();
    await page.mouse.move(x - plot.width / 4, plot.top + plot.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(([s, v]) => Number(document.querySelector(`${s} .dpl-overview`).dataset.start) > v, [SCOPE, zoomed.start]);
    const dragged = await viewOf(page);
    near(dragged.start, zoomed.start + span / 4, 0.05, 'view start after the drag');
    // On the strip, ← moves a quarter of a view earlier, Home goes to the start, End to the end.
    await page.focus(`${SCOPE} .dpl-overview`);
    await page.keyboard.press('ArrowLeft');
    near((await viewOf(page)).start, dragged.start - span / 4, 1e-9, 'view start after ←');
    await page.keyboard.press('End');
    assert.equal((await viewOf(page)).end, 66);
    await page.keyboard.press('Home');
    assert.equal((await viewOf(page)).start, 0);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('zoomed in, playback carries the view along with the cursor', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&t=0&speed=4`);
    await waitForTimeline(page, SCOPE);
    await page.click(`${SCOPE} [data-action="zoomIn"]`);
    await page.click(`${SCOPE} [data-action="zoomIn"]`);
    assert.deepEqual(await viewOf(page), { start: 0, end: 16.5 });
    await page.click(`${SCOPE} [data-action="play"]`);
    await page.waitForFunction((s) => Number(document.querySelector(`${s} .dpl-scrub`).value) > 40, SCOPE, { timeout: 20000 });
    await page.click(`${SCOPE} [data-action="play"]`);
    const cursor = Number(await page.$eval(`${SCOPE} .dpl-scrub`, (s) => s.value));
    const view = await viewOf(page);
    assert.ok(view.start <= cursor && cursor <= view.end, `cursor ${cursor} outside the view ${JSON.stringify(view)}`);
    near(view.end - view.start, 16.5, 0.05, 'playing keeps the zoom');
  } finally {
    await context.close();
  }
});

test('a 64 x 1024 run scrolled through: its time axis, play and zoom controls stay on screen with the chart', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const { context, page, log } = await openPage(site.browser, { viewport: { width, height } });
    try {
      await page.goto(`${site.server.url}#view=timeline&schedule=dualpipe&ranks=64&microbatches=1024`);
      await page.waitForSelector(`${SCOPE} .dpl-timeline.is-tall .dpl-timeline-canvas`, { timeout: 60000 });
      // Halfway down the lane: its top (and the axis band drawn there) has scrolled away.
      await page.$eval(`${SCOPE} .dpl-lane-plot`, (el) => window.scrollTo(0, el.getBoundingClientRect().top + scrollY + el.offsetHeight / 2 - innerHeight / 2));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const box = (sel) => page.$eval(`${SCOPE} ${sel}`, (el) => el.getBoundingClientRect().toJSON());
      const lane = await box('.dpl-lane-plot');
      assert.ok(lane.top < 0 && lane.bottom > height, `the lane runs past both edges of the screen (${lane.top}, ${lane.bottom})`);
      const [play, zoomIn, axis] = [await box('[data-action="play"]'), await box('[data-action="zoomIn"]'), await box('.dpl-timeline-axis')];
      for (const [name, b] of [['play', play], ['zoom in', zoomIn], ['time axis', axis]]) {
        assert.ok(b.top >= 0 && b.bottom <= height, `${width}px: ${name} on screen (${b.top}-${b.bottom})`);
      }
      assert.ok(axis.top >= play.bottom - 1, 'the axis sits below the transport bar, not behind it');
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('a 64 x 1024 DualPipe run (73,666 ops) is drawn whole on canvas, every one of its 64 ranks', async () => {
  const config = { schedule: 'dualpipe', ranks: 64, microbatches: 1024 };
  const result = site.api.simulate(config);
  assert.equal(result.timeline.count, 73666);
  // Per rank, the first op's start and the last op's end, from the simulator.
  const first = new Array(64).fill(Infinity);
  const last = new Array(64).fill(-Infinity);
  for (let i = 0; i < result.timeline.count; i++) {
    const r = result.timeline.rank[i];
    first[r] = Math.min(first[r], result.timeline.start[i]);
    last[r] = Math.max(last[r], result.timeline.end[i]);
  }
  for (const [width, theme, lang] of [[1280, 'light', 'en'], [390, 'dark', 'hi'], [1280, 'dark', 'hi'], [390, 'light', 'en']]) {
    const { context, page, log } = await openPage(site.browser, { viewport: { width, height: 900 }, colorScheme: theme });
    try {
      await page.goto(`${site.server.url}#view=timeline&schedule=dualpipe&ranks=64&microbatches=1024&lang=${lang}`);
      await page.waitForSelector(`${SCOPE} .dpl-timeline-canvas`, { timeout: 60000 });
      assert.equal(await page.$$eval(`${SCOPE} .dpl-rank-label`, (l) => l.length), 64);
      assert.match(await page.$eval(`${SCOPE} .dpl-timeline-canvas`, (c) => c.getAttribute('aria-label')), /73,666/);
      // The lane starts below the page's heading: the canvas holds the ranks on screen, not all 64.
      const held = await page.$eval(`${SCOPE} .dpl-timeline-canvas`, (c) => c.dataset.ranks.split('-').map(Number));
      assert.ok(held[0] === 0 && held[1] < 63, `the canvas holds ranks ${held.join('-')} of 0-63 (${width}px)`);
      // Along each rank's row (at its label's height), scrolled into view, the leftmost and
      // rightmost painted pixels are where that rank's first op starts and its last op ends.
      const rows = await page.$eval(`${SCOPE} .dpl-lane-plot`, async (plotEl) => {
        const canvas = plotEl.querySelector('canvas');
        const plot = plotEl.querySelector('.dpl-plot-window').getBoundingClientRect();
        const scale = canvas.width / canvas.getBoundingClientRect().width;
        const ctx = canvas.getContext('2d');
        const x0 = Math.round((plot.left - canvas.getBoundingClientRect().left) * scale);
        const w = Math.round(plot.width * scale);
        // The idle fill is whatever the theme's CSS gives idle rows: read it from a probe.
        const probe = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        const rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
        rect.setAttribute('class', 'dpl-idle-bg');
        probe.append(rect);
        plotEl.append(probe);
        const one = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
        one.fillStyle = getComputedStyle(rect).fill;
        one.fillRect(0, 0, 1, 1);
        const idle = [...one.getImageData(0, 0, 1, 1).data];
        probe.remove();
        const found = [];
        for (const label of plotEl.querySelectorAll('.dpl-rank-label')) {
          // Scrolled so the label is at the viewport's top edge: the scroll event, dispatched
          // before the next frame's callbacks, has had the canvas draw its row.
          label.scrollIntoView({ block: 'start' });
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const lb = label.getBoundingClientRect();
          const y = Math.round(((lb.top + lb.bottom) / 2 - canvas.getBoundingClientRect().top) * scale);
          const px = ctx.getImageData(x0, y, w, 1).data;
          let left = -1;
          let right = -1;
          for (let i = 0; i < w; i++) {
            const painted = Math.abs(px[4 * i] - idle[0]) + Math.abs(px[4 * i + 1] - idle[1]) + Math.abs(px[4 * i + 2] - idle[2]) > 24;
            if (painted) {
              if (left < 0) left = i;
              right = i;
            }
          }
          found.push({ left: left / scale, right: (right + 1) / scale, width: w / scale });
        }
        return found;
      });
      assert.equal(rows.length, 64);
      rows.forEach((row, r) => {
        near(row.left, (first[r] / result.makespan) * row.width, 2, `rank ${r} first painted pixel (${width}px)`);
        near(row.right, (last[r] / result.makespan) * row.width, 2, `rank ${r} last painted pixel (${width}px)`);
      });
      await screenshot(page, `zoom-64x1024-${lang}-${theme}-${width}.png`, { fullPage: true });
      // Zoomed in far enough, single ops appear with their ids, on canvas still.
      await page.focus(`${SCOPE} .dpl-scroll`);
      for (let i = 0; i < 7; i++) await page.keyboard.press('+');
      await page.$eval(`${SCOPE} .dpl-timeline-canvas`, (c) => c.scrollIntoView({ block: 'start' }));
      await screenshot(page, `zoom-64x1024-zoomed-${lang}-${theme}-${width}.png`);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('the memory lane shows each rank\'s in-flight activations with core\'s peaks, in per-GPU units', async () => {
  for (const [width, theme, lang] of [[1280, 'light', 'en'], [390, 'dark', 'hi'], [1280, 'dark', 'hi'], [390, 'light', 'en']]) {
    const { context, page, log } = await openPage(site.browser, { viewport: { width, height: 900 }, colorScheme: theme });
    try {
      await page.goto(`${site.server.url}#view=timeline&schedule=dualpipev&ranks=4&microbatches=10&compare=dualpipe&lang=${lang}`);
      await waitForTimeline(page, SCOPE);
      await page.click(`${SCOPE} [data-action="memory"]`);
      await page.waitForFunction(() => location.hash.includes('memory=1'));
      const lanes = await page.$$eval(`${SCOPE} .dpl-timeline-svg`, (svgs) => svgs.map((svg) =>
        [...svg.querySelectorAll('.dpl-mem-area')].map((p) => ({ count: Number(p.dataset.count), peak: Number(p.dataset.peak) }))));
      // DualPipeV on 4 ranks cuts the model into 8 stages, so one stage-micro-batch is half a
      // rank's share (0.5 per-GPU units); DualPipe on 4 ranks has 4 stages a direction (1 unit).
      const expected = [['dualpipev', 0.5], ['dualpipe', 1]].map(([schedule, unit]) =>
        site.api.simulate({ schedule, ranks: 4, microbatches: 10 }).perRank.map((r) => ({ count: r.peakActivations, peak: r.peakActivations * unit })));
      assert.deepEqual(lanes, expected);
      await screenshot(page, `zoom-memory-${lang}-${theme}-${width}.png`, { fullPage: true });
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('a gesture\'s frames leave out ids and pair triangles; once it stops the view is painted whole', async () => {
  // DualPipe 8 x 1024 (a canvas run with full-height rows, where ids and split pair cells show).
  const { context, page, log } = await openPage(site.browser, { viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=dualpipe&ranks=8&microbatches=1024`);
    await page.waitForSelector(`${SCOPE} .dpl-timeline-canvas`, { timeout: 60000 });
    for (let i = 0; i < 6; i++) await page.click(`${SCOPE} [data-action="zoomIn"]`);
    assert.equal(await page.$eval(`${SCOPE} .dpl-timeline-canvas`, (c) => c.dataset.paint), 'whole', 'a button paints whole');
    // One ctrl+wheel step: that frame is a draft...
    const during = await page.$eval(`${SCOPE} .dpl-lane-plot`, (el) => new Promise((resolve) => {
      const box = el.getBoundingClientRect();
      el.dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, ctrlKey: true, clientX: box.left + box.width / 2, clientY: box.top + 60, deltaY: -40 }));
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(el.querySelector('canvas').dataset.paint)));
    }));
    assert.equal(during, 'draft');
    // ...and with the gesture over, the same view is painted whole (no fixed wait: its attribute says so).
    await page.waitForFunction((s) => document.querySelector(`${s} .dpl-timeline-canvas`).dataset.paint === 'whole', SCOPE);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a panned canvas shows the same pixels as the same view painted afresh (to one level of a channel)', async () => {
  // Panning moves the canvas in its window, paints the margin ahead and shifts the bitmap when the
  // window leaves it (ui/timeline-canvas.js): what the window shows must be what painting the
  // view from scratch gives, hatching and seams included.
  const { context, page, log } = await openPage(site.browser, { viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=dualpipe&ranks=64&microbatches=1024`);
    await page.waitForSelector(`${SCOPE} .dpl-timeline-canvas`, { timeout: 60000 });
    for (let i = 0; i < 3; i++) await page.click(`${SCOPE} [data-action="zoomIn"]`);
    await page.click(`${SCOPE} [data-action="start"]`); // the view goes to the run's start, with room to pan
    // What the canvas's window shows, kept in the page (a few million channel values: too many
    // to copy out whole): the canvas's columns inside the window, every row it holds.
    const keepPixels = (name) => page.$eval(`${SCOPE} .dpl-timeline-canvas`, (c, key) => {
      const scale = c.width / c.getBoundingClientRect().width;
      const shown = c.parentElement.getBoundingClientRect();
      const x = Math.round((shown.left - c.getBoundingClientRect().left) * scale);
      window[key] = c.getContext('2d').getImageData(x, 0, Math.round(shown.width * scale), c.height).data;
    }, name);
    const before = await viewOf(page);
    // Sideways wheels of whole pixels, each painted in its own frame: right, further right, back,
    // far enough to paint the margins ahead and to shift the bitmap when the window leaves it.
    for (const dx of [60, 45, 120, -33, 7, 250, 180, -90, 300, 25]) {
      await page.$eval(`${SCOPE} .dpl-lane-plot`, (el, deltaX) => new Promise((resolve) => {
        const box = el.getBoundingClientRect();
        el.dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, clientX: box.left + box.width / 2, clientY: box.top + 100, deltaX }));
        requestAnimationFrame(() => requestAnimationFrame(resolve));
      }), dx);
    }
    const after = await viewOf(page);
    assert.ok(after.start > before.start, `the view moved: ${before.start} -> ${after.start}`);
    await keepPixels('__panned');
    // Memory on and off again builds the lane anew and paints the same view whole.
    for (let i = 0; i < 2; i++) await page.click(`${SCOPE} [data-action="memory"]`);
    await page.waitForFunction(() => !location.hash.includes('memory=1'));
    assert.deepEqual(await viewOf(page), after);
    await keepPixels('__fresh');
    const { length, freshLength, differing, most } = await page.evaluate(() => {
      const panned = window.__panned;
      const fresh = window.__fresh;
      let differing = 0;
      let most = 0;
      for (let i = 0; i < fresh.length; i++) {
        const d = Math.abs(panned[i] - fresh[i]);
        if (d) differing++;
        most = Math.max(most, d);
      }
      return { length: panned.length, freshLength: fresh.length, differing, most };
    });
    assert.equal(length, freshLength);
    assert.ok(length > 0);
    // A whole paint writes the rows as pixels and a strip fills them as paths: where a grouped
    // column is blended, the two may round one level apart, never more.
    assert.ok(most <= 1, `${differing} of ${freshLength} channel values differ, by up to ${most}`);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

// The overview strip shares its row with the zoom level's text, set after the strip is painted:
// the strip's painting must fill the strip's width as it ends up, on opening and after zooming
// (painted before the text was set, it ran 26 px past the strip's right edge, cutting off the
// end of the run).
test('the overview strip is painted at the width it is laid out at, opened and zoomed', async () => {
  const { context, page, log } = await openPage(site.browser, { viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=1f1b&ranks=16&microbatches=256`);
    await page.waitForSelector(`${SCOPE} .dpl-timeline-canvas`, { timeout: 60000 });
    const widths = () => page.$eval(`${SCOPE} .dpl-overview`, (strip) => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve({
      strip: strip.clientWidth, canvas: parseFloat(strip.querySelector('canvas').style.width), level: strip.parentElement.querySelector('.dpl-zoom-level').textContent,
    })))));
    const opened = await widths();
    assert.equal(opened.canvas, opened.strip, `opened (${opened.level})`);
    await page.click(`${SCOPE} [data-action="zoomIn"]`);
    const zoomed = await widths();
    assert.notEqual(zoomed.level, opened.level);
    assert.equal(zoomed.canvas, zoomed.strip, `zoomed (${zoomed.level})`);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

// The canvas takes its colours from CSS when it paints: when the system switches to dark under
// the "System" theme, a large run's canvas and the overview strip paint again in the dark colours,
// the same pixels as a page opened dark (before, they kept the light theme's).
test('a canvas timeline and its overview strip repaint in the new colours when the system theme changes', async () => {
  const url = `${site.server.url}#view=timeline&schedule=1f1b&ranks=16&microbatches=256`; // 8,192 ops: canvas
  const canvasHashes = (page) => page.$$eval(`${SCOPE} canvas`, (canvases) => canvases.map((c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 2166136261;
    for (let i = 0; i < data.length; i++) hash = Math.imul(hash ^ data[i], 16777619) >>> 0;
    return `${c.className} ${c.width}x${c.height} ${hash}`;
  }));
  const open = async (colorScheme) => {
    const opened = await openPage(site.browser, { viewport: { width: 1280, height: 900 }, colorScheme });
    await opened.page.goto(url);
    await opened.page.waitForSelector(`${SCOPE} .dpl-timeline-canvas`, { timeout: 60000 });
    return opened;
  };
  const dark = await open('dark');
  const light = await open('light');
  try {
    const darkHashes = await canvasHashes(dark.page);
    const lightHashes = await canvasHashes(light.page);
    const kinds = darkHashes.map((hash) => hash.split(' ')[0]);
    assert.deepEqual(kinds, ['dpl-timeline-canvas', 'dpl-timeline-axis', 'dpl-overview-canvas'], `the lane, its axis band and the overview strip are canvases: ${darkHashes}`);
    await switchColorScheme(light.page, 'dark');
    const switched = await canvasHashes(light.page);
    kinds.forEach((kind, i) => assert.notEqual(switched[i], lightHashes[i], `${kind} kept the light colours`));
    assert.deepEqual(switched, darkHashes);
    assert.deepEqual([...light.log.errors, ...dark.log.errors], []);
  } finally {
    await light.context.close();
    await dark.context.close();
  }
});
