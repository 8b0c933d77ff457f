// `make bench`, timeline side of issue #11: DualPipe 64 x 1024 (73,666 ops) in the explorer. How
// long until it is drawn whole (from navigation start: simulate in the worker, op tracks, first
// canvas paint), then the work per frame (goal: median < 8 ms, p95 < 16 ms) while it pans
// (sideways wheel), zooms (ctrl+wheel around the pointer, in and out) and plays zoomed in (the
// view follows the cursor: every frame moves the canvas, and now and then paints the margin
// ahead of it). Work per frame is measured as in
// wasm-bench.mjs's frameTimes: from the frame's start (its rAF timestamp) to a message posted from
// the frame, which runs once its script, style, layout and paint are done. Figures only; nothing
// asserts on time (speed goals live in benches, never in tests). On a shared machine that wall time mostly measures waiting for a
// core, so the renderer main thread's own CPU time per frame is given beside it, from a Chromium
// trace (tasks' thread time, grouped by BeginMainThreadFrame). Also runs alone:
// `node bench/timeline-frames.mjs` (after make site).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromiumWithoutBrowserUi } from '../scripts/chromium.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUN = { schedule: 'dualpipe', ranks: 64, microbatches: 1024 };
const FRAMES = 180; // 3 s at 60 Hz per gesture
const SCOPE = '.view-timeline';

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const figure = (values) => `median ${quantile(values, 0.5).toFixed(1)} ms, p95 ${quantile(values, 0.95).toFixed(1)} ms`;

/**
 * Runs in the page: for FRAMES frames, calls act(frameIndex, plot) at the start of each frame and
 * records the frame's work. `kind` picks the gesture; the chart is zoomed in beforehand.
 */
function drive({ kind, frames, scope }) {
  const scroll = document.querySelector(`${scope} .dpl-scroll`);
  const plot = scroll.querySelector('.dpl-plot-window').getBoundingClientRect();
  const x = plot.left + plot.width / 2;
  const y = plot.top + Math.min(plot.height, 400) / 2;
  const wheel = (init) => scroll.querySelector('.dpl-lane-plot').dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, clientX: x, clientY: y, ...init }));
  const act = {
    // Sideways wheel, turning round every 60 frames so the view never pins at an end.
    pan: (i) => wheel({ deltaX: Math.floor(i / 60) % 2 ? -60 : 60 }),
    // Ctrl+wheel (what a trackpad pinch sends): in for 30 frames, out for 30.
    zoom: (i) => wheel({ deltaY: Math.floor(i / 30) % 2 ? 40 : -40, ctrlKey: true }),
    play: () => {},
  }[kind];
  return new Promise((resolve) => {
    const work = [];
    let i = 0;
    const tick = (now) => {
      act(i);
      const channel = new MessageChannel();
      channel.port1.onmessage = () => work.push(performance.now() - now);
      channel.port2.postMessage(0);
      if (++i < frames) requestAnimationFrame(tick);
      else setTimeout(() => resolve(work), 50);
    };
    requestAnimationFrame(tick);
  });
}

const TRACE_CATEGORIES = ['toplevel', 'disabled-by-default-devtools.timeline.frame'];

/** Main-thread CPU ms per frame of the renderer in `trace` (Chromium's JSON trace). */
function cpuPerFrame(trace) {
  const { traceEvents } = JSON.parse(trace.toString());
  const main = new Set(traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const events = traceEvents.filter((e) => main.has(`${e.pid}:${e.tid}`)).sort((a, b) => a.ts - b.ts);
  const frames = [];
  for (const e of events) {
    if (e.name === 'BeginMainThreadFrame') frames.push(0);
    else if (frames.length && e.ph === 'X' && e.cat === 'toplevel' && e.name === 'ThreadControllerImpl::RunTask') frames[frames.length - 1] += (e.tdur ?? 0) / 1000;
  }
  return frames.slice(1, -1); // the first and last frames are cut by the trace's ends
}

/** page.evaluate(drive, args), traced: {work: wall ms per frame, cpu: main-thread CPU ms per frame}. */
async function traced(browser, page, args) {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  const work = await page.evaluate(drive, args);
  return { work, cpu: cpuPerFrame(await browser.stopTracing()) };
}

const line = ({ work, cpu }) => `work per frame (goal median < 8 ms, p95 < 16 ms) ${figure(work)} over ${work.length} frames; main-thread CPU per frame ${figure(cpu)}`;

/** Prints the figures for `origin` (the site served from web/) in `browser`. */
export async function benchTimelineFrames(browser, origin) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`${origin}/#view=timeline&schedule=${RUN.schedule}&ranks=${RUN.ranks}&microbatches=${RUN.microbatches}`);
    await page.waitForSelector(`${SCOPE} .dpl-timeline-canvas`, { timeout: 60000 });
    const drawn = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now()))));
    const ops = await page.$eval(`${SCOPE} .dpl-timeline-canvas`, (c) => c.getAttribute('aria-label').match(/[\d,]+ ops/)[0]);
    console.log(`\ntimeline, ${RUN.schedule} ${RUN.ranks}x${RUN.microbatches} (${ops}) in the explorer at 1280 px: drawn whole ${drawn.toFixed(0)} ms after navigation`);
    await page.$eval(`${SCOPE} .dpl-lane-plot`, (el) => el.scrollIntoView({ block: 'start' }));
    // Zoomed in 8x: panning and playing then move the view every frame.
    for (let i = 0; i < 3; i++) await page.click(`${SCOPE} [data-action="zoomIn"]`);
    for (const kind of ['pan', 'zoom']) {
      console.log(`  ${kind}: ${line(await traced(browser, page, { kind, frames: FRAMES, scope: SCOPE }))}`);
    }
    await page.click(`${SCOPE} [data-action="fit"]`);
    for (let i = 0; i < 3; i++) await page.click(`${SCOPE} [data-action="zoomIn"]`);
    await page.click(`${SCOPE} [data-action="start"]`);
    await page.click(`${SCOPE} [data-action="play"]`);
    const played = await traced(browser, page, { kind: 'play', frames: FRAMES, scope: SCOPE });
    const view = await page.$eval(`${SCOPE} .dpl-overview`, (el) => `t = ${Number(el.dataset.start).toFixed(0)} to ${Number(el.dataset.end).toFixed(0)}`);
    console.log(`  play zoomed x8, the view following the cursor (now ${view}): ${line(played)}`);
  } finally {
    await page.close();
  }
}

// Alone: serve web/ and launch Chromium as wasm-bench.mjs does.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), '--port', '0', '--root', path.join(ROOT, 'web')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve));
  const browser = await launchChromiumWithoutBrowserUi();
  try {
    await benchTimelineFrames(browser, url.trim().replace(/\/$/, ''));
  } finally {
    await browser.close();
    server.kill();
  }
}
