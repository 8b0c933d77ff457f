// `make bench`, page side of issue #11: how long a learner waits, and what a Hindi page adds.
// First widget drawn: from navigation start (performance.now() = 0) to the first op of the
// lesson's first live widget, and of the Timeline tab, in a fresh browser context each run (its
// own renderer, empty HTTP cache) against the already running server, in English and in Hindi,
// in Chromium without the omnibox popup it builds for each new window (scripts/chromium.mjs).
// Beside each, interleaved run for run, the same figure for a reference page (reference-app.js:
// the page's shell with one op drawn in place of app.js), so what app.js adds is measured against
// this machine's own cost of a page in the same run; and the renderer main thread's CPU time until
// the first op (from a Chromium trace), which varies far less than wall time on a shared machine.
// Payload: what the English and the Hindi lesson pages fetch, gzipped, and which font files each
// of them fetched. Figures only; nothing asserts on time (speed goals live in benches, never in tests).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { createServer } from '../scripts/serve.mjs';
import { LANGS } from '../web/js/lib/locales.js';

const RUNS = 5;
const TRACED_RUNS = 3;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Runs before the page's own scripts: reports the moment the first op under `selector` is
// attached through a binding. Not by polling with waitForFunction: that makes playwright evaluate
// its own injected script in the page (~140 ms of main-thread work, traced) while the page is
// still drawing, a cost no learner's browser pays.
const WATCH = (selector) => `(() => {
  let done = false;
  const seen = () => {
    if (done || !document.querySelector(${JSON.stringify(selector)})) return;
    done = true;
    performance.mark('DRAWN'); // for the traced runs
    window.__reportFirstDrawn(performance.now());
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();`;

/**
 * One fresh-context load of `url`: ms from navigation until an op is under `selector`; with
 * `traced`, also the renderer main thread's CPU ms until then (thread time of its top-level trace
 * events, the task holding the first op cut at that moment).
 */
async function firstDrawn(browser, url, selector, { traced = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    let report;
    const drawn = new Promise((resolve, reject) => {
      report = resolve;
      setTimeout(() => reject(new Error(`${url}: nothing under ${selector} after 30 s`)), 30000).unref();
    });
    await context.exposeBinding('__reportFirstDrawn', (_source, ms) => report(ms));
    await context.addInitScript(WATCH(selector));
    const page = await context.newPage();
    if (traced) await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
    await page.goto(url);
    const wall = await drawn;
    if (!traced) return { wall };
    const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
    return { wall, cpu: mainThreadCpu(events) };
  } finally {
    await context.close();
  }
}

/** CPU ms of the thread that set the DRAWN mark, from its first event until that mark. */
function mainThreadCpu(events) {
  const mark = events.find((e) => e.name === 'DRAWN');
  if (!mark) throw new Error('trace: no DRAWN mark');
  const tasks = events.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X' && e.tdur !== undefined && e.ts < mark.ts)
    .sort((a, b) => a.ts - b.ts);
  let cpu = 0;
  let end = 0;
  for (const task of tasks) {
    if (task.ts < end) continue; // nested in the task before
    end = task.ts + task.dur;
    cpu += end > mark.ts ? task.tdur * ((mark.ts - task.ts) / task.dur) : task.tdur;
  }
  return cpu / 1000;
}

/**
 * The reference site: `web`'s page and its files, with reference-app.js as generated/app.js,
 * bundled as app.js is (one file, boot.js imported beside it, the page's own first-view.js inside).
 */
async function referenceSite(web) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'dpl-reference-'));
  cpSync(path.join(web, 'index.html'), path.join(root, 'index.html'));
  cpSync(path.join(web, 'generated'), path.join(root, 'generated'), { recursive: true });
  rmSync(path.join(root, 'generated/app.js.map'), { force: true });
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL('reference-app.js', import.meta.url))],
    outfile: path.join(root, 'generated/app.js'),
    bundle: true, format: 'esm', minify: true, external: ['./boot.js'], logLevel: 'silent',
  });
  return root;
}

async function payload(browser, url, web) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const paths = new Set();
    page.on('response', (r) => { if (r.status() === 200 && r.url().startsWith(new URL(url).origin)) paths.add(new URL(r.url()).pathname); });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(500); // lazily loaded lesson fragments and worker scripts
    const files = [...paths].map((p) => path.join(web, decodeURIComponent(p.endsWith('/') ? `${p}index.html` : p)));
    const gz = files.reduce((sum, f) => sum + gzipSync(readFileSync(f), { level: 9 }).length, 0);
    return { count: files.length, gz, fonts: [...paths].filter((p) => p.endsWith('.woff2')).map((p) => path.basename(p)) };
  } finally {
    await context.close();
  }
}

/** Prints the page figures for the site served at `origin` from the folder `web`. */
export async function benchPages(browser, origin, web) {
  const root = await referenceSite(web);
  const server = createServer(root);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const reference = `http://127.0.0.1:${server.address().port}`;
  try {
    console.log(`\npage, first widget drawn after navigation, fresh context each run, ${RUNS} runs interleaved with as many of the`);
    console.log('reference page (the same page with one op drawn in place of app.js); main-thread CPU time from a traced run each,');
    console.log(`${TRACED_RUNS} of each:`);
    const fmt = (times) => `median ${median(times).toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')})`;
    const pages = [
      ['lesson page, first live widget (goal <= 500 ms)', '#view=lesson', '.sim-widget .dpl-op'],
      ['timeline tab (goal <= 400 ms)', '#view=timeline', '#timeline-root .dpl-op'],
    ];
    for (const lang of LANGS) {
      for (const [what, hash, selector] of pages) {
        const wall = { page: [], reference: [] };
        const cpu = { page: [], reference: [] };
        for (let i = 0; i < RUNS + TRACED_RUNS; i++) {
          const traced = i >= RUNS;
          for (const [site, at] of i % 2 ? [['reference', reference], ['page', origin]] : [['page', origin], ['reference', reference]]) {
            const run = await firstDrawn(browser, `${at}/${hash}&lang=${lang}`, selector, { traced });
            if (traced) cpu[site].push(run.cpu);
            else wall[site].push(run.wall);
          }
        }
        const added = median(wall.page) - median(wall.reference);
        console.log(`  ${what}, ${lang}: ${fmt(wall.page)}`);
        console.log(`    reference ${fmt(wall.reference)}; app.js adds ${added.toFixed(0)} ms ` +
                    `(page/reference ${(median(wall.page) / median(wall.reference)).toFixed(2)}x)`);
        console.log(`    main-thread CPU until the first op: page ${median(cpu.page).toFixed(0)} ms, reference ${median(cpu.reference).toFixed(0)} ms`);
      }
    }
  } finally {
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
  for (const lang of LANGS) {
    const p = await payload(browser, `${origin}/#view=lesson&lang=${lang}`, web);
    console.log(`  lesson page payload (${lang}): ${p.count} files, ${(p.gz / 1024).toFixed(1)} KB gzipped; fonts fetched: ${p.fonts.join(', ') || 'none'}`);
  }
}
