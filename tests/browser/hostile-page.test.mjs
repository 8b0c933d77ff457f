// Hostile page loads (issue 13): script-injection strings in every URL parameter of the page and
// of embed.html, hashes of 1 MB, corrupt saved progress. Each load must run no injected script, make
// no request outside the origin, throw no uncaught error, show what it shows in short lines
// (messages quote the values they reject as summaries), keep working, and settle within a sanity
// bound of HOSTILE_PAGE_SECONDS of wall time (default 120). The bound catches a hang, not a slow
// machine: on this shared 2-core machine a URL with a 1 MB fragment takes Chromium 20-35 s to
// load even for a plain stylesheet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLAN_URL_KEYS, PLANNER_PRESETS } from '../../web/js/lib/planner-presets.js';
import { summary } from '../../wasm/pipesim.js';
import { useSite, openPage, servePages, hostHtml } from './helpers.mjs';

const site = useSite({ pipesim: false });
const LIMIT_MS = 1000 * Number(process.env.HOSTILE_PAGE_SECONDS ?? 120);
// How many hostile loads ran and the slowest, printed at the end (wall time, not asserted).
const tally = { loads: 0, slowestMs: 0, slowest: '' };
test.after(() => console.log(`hostile page loads: ${tally.loads}; slowest ${tally.slowestMs} ms: ${tally.slowest}`));

const PAGE_KEYS = ['schedule', 'compare', 'ranks', 'microbatches', 'forward', 'backward', 'weight', 'overlapped', 'p2p',
                   'commRatio', 'attnShare', 'commLayers', 't', 'table', 'streams', 'speed', 'axis', 'theme', 'lang',
                   'exercise', ...PLAN_URL_KEYS];
const PAYLOADS = [
  '"><img src=x onerror="window.__xss=1">',
  '<script>window.__xss=1</script>',
  'javascript:window.__xss=1',
  "'-window.__xss=1-'",
  '</textarea><svg onload="window.__xss=1">',
];

/** Loads `url`, lets it settle, and asserts what every hostile load must satisfy. */
async function hostileLoad(url, { storage } = {}) {
  const { context, page, log } = await openPage(site.browser);
  try {
    let dialogs = 0;
    page.on('dialog', (d) => { dialogs++; d.dismiss(); });
    if (storage !== undefined) {
      await context.addInitScript((value) => {
        if (!sessionStorage.getItem('__seeded')) {
          localStorage.setItem('aifs:progress:v1', value);
          sessionStorage.setItem('__seeded', '1');
        }
      }, storage);
    }
    const started = Date.now();
    try {
      await page.goto(url, { timeout: LIMIT_MS });
      await page.waitForFunction(() => document.readyState === 'complete', null, { timeout: LIMIT_MS });
    } catch (error) {  // playwright's message quotes the whole URL: 1 MB of test log
      throw new Error(`${url.slice(0, 120)}: ${String(error.message).slice(0, 200)}`);
    }
    await page.waitForTimeout(1500);  // let the worker answer and the views render
    const ms = Date.now() - started;
    const what = url.slice(0, 120);
    tally.loads++;
    if (ms > tally.slowestMs) Object.assign(tally, { slowestMs: ms, slowest: what.slice(0, 60) });
    assert.equal(await page.evaluate(() => window.__xss), undefined, `${what}: an injected script ran`);
    assert.equal(dialogs, 0, what);
    assert.equal(await page.$('img[src="x"], svg[onload]'), null, `${what}: injected markup`);
    assert.deepEqual(log.errors.filter((e) => e.startsWith('pageerror')), [], what);
    const origin = new URL(site.server.url).origin;
    assert.deepEqual(log.requests.filter((r) => !r.startsWith(origin) && !r.startsWith('data:')), [], what);
    // Every message the page shows (notices, error boxes) is short: no flood of the hash.
    const longest = await page.$$eval('[role="alert"], .dpl-error, .error-box, .page-notice',
      (nodes) => Math.max(0, ...nodes.map((n) => n.textContent.length)));
    assert.ok(longest <= 2000, `${what}: a message of ${longest} characters`);
    assert.ok(ms < LIMIT_MS, `${what}: took ${ms} ms`);
    return page;
  } finally {
    await context.close();
  }
}

// Every key gets a payload, a different one per key; `rotation` shifts which, so rotations 0..4
// give every key every payload.
const hostileParams = (first, rotation) =>
  new URLSearchParams([first, ...PAGE_KEYS.map((k, i) => [k, PAYLOADS[(i + rotation) % PAYLOADS.length]])]).toString();

test('script injection in every URL parameter of the page runs nothing', async () => {
  for (let rotation = 0; rotation < PAYLOADS.length; rotation++) {
    await hostileLoad(`${site.server.url}#${hostileParams(['view', 'timeline'], rotation)}`);
  }
  for (const view of ['lesson', 'sweep', 'planner']) await hostileLoad(`${site.server.url}#${hostileParams(['view', view], 0)}`);
});

test('script injection in every parameter of embed.html runs nothing', async () => {
  for (let rotation = 0; rotation < PAYLOADS.length; rotation++) {
    await hostileLoad(`${site.server.url}embed.html?${hostileParams(['widget', 'timeline'], rotation)}`);
  }
  await hostileLoad(`${site.server.url}embed.html?${hostileParams(['widget', 'sweep'], 0)}`);
});

// A URL of about 1 MB takes Chromium itself 20-35 s to load here (minutes when the machine is
// busy), so the keys share the megabyte, in two loads: one holds every core-facing key and every
// page-level key at 1/12 MB each, one half a megabyte of separators and then the view key at half
// a megabyte. Each key's value is still far past every cap the page applies, which is what these
// loads are about.
const MB = 1 << 20;
const bigValues = (keys, size) => keys.map((key) => `${key}=${'x'.repeat(size)}`).join('&');

// The page's own notices about its own keys (web/js/state.js, not core's: t, speed, axis, theme,
// lang) quote the value as core does, so a huge value makes a one-line notice, not the value itself.
test('a 1 MB hash loads without a flood, a hang or an error, its values quoted as summaries', async () => {
  const keys = ['schedule', 'ranks', 'microbatches', 'forward', 'commRatio', 'plan', 'exercise', 't', 'speed', 'axis', 'theme', 'lang'];
  await hostileLoad(`${site.server.url}#view=timeline&${bigValues(keys, Math.floor(MB / keys.length))}`);
  await hostileLoad(`${site.server.url}#${'&'.repeat(MB / 2)}${bigValues(['view'], MB / 2)}`);
});

// Small corrupt values (not JSON, null, arrays, wrong types) are lib/progress.js's unit tests and
// quiz-progress's; here only the two that are heavy for the page itself: deep nesting, a huge key.
test('corrupt saved progress does not break the page', async () => {
  const corrupt = ['['.repeat(100000) + ']'.repeat(100000), `{"lessons":{"${'k'.repeat(100000)}":{}}}`];
  for (const storage of corrupt) await hostileLoad(`${site.server.url}#view=lesson`, { storage });
});

// Every message on the page quotes a value it rejects by the one summary rule (core's summary(),
// the JS API's): one line of at most 80 bytes. The planner's preset field and the embed's widget
// parameter and attribute quoted the value whole (issue 30): 100 KB, or a second line.
test('the planner\'s preset and the embed\'s widget quote a long or multi-line value as a summary', async () => {
  // The page writes the choices as a list in its language (Intl.ListFormat, t.list).
  const presets = new Intl.ListFormat('en', { type: 'disjunction' }).format(PLANNER_PRESETS.map((p) => p.id));
  const { context, page, log } = await openPage(site.browser);
  try {
    await servePages(page, site.server.url, {
      'element.html': ['text/html', hostHtml('<dualpipe-timeline id="el" widget="pie"></dualpipe-timeline>', '<script type="module" src="/js/embed/dualpipe-timeline-element.js"></script>')],
    });
    for (const value of ['p'.repeat(100_000), 'dense-70b-1024\nsecond line\u2028third', '😀'.repeat(30)]) {
      const quoted = summary(value, 80);
      assert.ok(Buffer.byteLength(quoted) <= 80 && !quoted.includes('\n'));
      const what = JSON.stringify(value.slice(0, 20));
      await page.goto(`${site.server.url}#view=planner&plan=${encodeURIComponent(value)}`);
      await page.waitForSelector('.dpl-field-msg[data-path="plan"]:not(:empty)', { timeout: LIMIT_MS });
      assert.equal(await page.$eval('.dpl-field-msg[data-path="plan"]', (p) => p.textContent), `plan must be one of ${presets} (got "${quoted}")`, what);
      // In the query, at most 10,000 characters: the server refuses a request line past 16 KB.
      await page.goto(`${site.server.url}embed.html?widget=${encodeURIComponent(value.slice(0, 10_000))}`);
      await page.waitForSelector('.dpl-error-message', { timeout: LIMIT_MS });
      assert.equal(await page.$eval('.dpl-error-message', (p) => p.textContent), `widget must be timeline or sweep (got "${summary(value.slice(0, 10_000), 80)}")`, what);
      await page.goto(`${site.server.url}__test__/element.html`);
      await page.waitForSelector('#el .dpl-error-message', { timeout: LIMIT_MS });
      await page.$eval('#el', (el, v) => el.setAttribute('widget', v), value);
      await page.waitForFunction((q) => document.querySelector('#el .dpl-error-message')?.textContent.includes(q), quoted, { timeout: LIMIT_MS });
      assert.equal(await page.$eval('#el .dpl-error-message', (p) => p.textContent), `widget must be timeline or sweep (got "${quoted}")`, what);
    }
    assert.deepEqual(log.errors.filter((e) => e.startsWith('pageerror')), []);
  } finally {
    await context.close();
  }
});
