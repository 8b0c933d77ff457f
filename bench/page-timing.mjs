// `make bench`, page side of issue #11: how long a learner waits, and what a Hindi page adds.
// First widget drawn: from navigation start (performance.now() = 0) to the first op of the
// lesson's first live widget, and of the Timeline tab, in a fresh browser context each run (its
// own renderer, empty HTTP cache) against the already running server. Payload: what the English
// and the Hindi lesson pages fetch, gzipped, and which font files each of them fetched.
// Figures only; nothing asserts on time (STYLE.md §8).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const RUNS = 5;
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
    window.__reportFirstDrawn(performance.now());
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();`;

async function firstDrawn(browser, url, selector) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
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
      await page.goto(url);
      times.push(await drawn);
    } finally {
      await context.close();
    }
  }
  return times;
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
  const fmt = (times) => `median ${median(times).toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')})`;
  console.log(`\npage, first widget drawn after navigation, fresh context each run, ${RUNS} runs:`);
  console.log(`  lesson page, first live widget (goal <= 500 ms): ${fmt(await firstDrawn(browser, `${origin}/#view=lesson`, '.sim-widget .dpl-op'))}`);
  console.log(`  timeline tab (goal <= 400 ms):                   ${fmt(await firstDrawn(browser, `${origin}/#view=timeline`, '#timeline-root .dpl-op'))}`);
  for (const lang of ['en', 'hi']) {
    const p = await payload(browser, `${origin}/#view=lesson&lang=${lang}`, web);
    console.log(`  lesson page payload (${lang}): ${p.count} files, ${(p.gz / 1024).toFixed(1)} KB gzipped; fonts fetched: ${p.fonts.join(', ') || 'none'}`);
  }
}
