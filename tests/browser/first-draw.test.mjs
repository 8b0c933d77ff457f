// What the first screen waits for. The runs the page draws first come with the page
// (scripts/first-runs.mjs writes them at build time; lib/sim-cache.js starts with them): with the
// wasm held back, the lesson's first widget and the explorer's default are drawn all the same, op
// for op what the simulator gives; once the module arrives, the next change is simulated by the
// worker as before; the worker itself starts only once that first screen is drawn. And the first
// screen's code is two files: app.js brings everything it imports
// (scripts/bundle-page.mjs), so no request waits for app.js to arrive before it can start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useSite, openPage, readDrawnOps, expectedOps, isChunkOf } from './helpers.mjs';
import { DEFAULT_STATE, configOf } from '../../web/js/state.js';
import { LANGS, DEFAULT_LANG, localeOf } from '../../web/js/lib/locales.js';
import { FONT_SETS } from '../../web/js/lib/font-sets.js';

const site = useSite();

/**
 * Holds every request matching `pattern` until release() is called; then each goes on (or, with
 * `abort`, fails). `held` lists their URLs.
 */
async function holdRequests(context, pattern, { abort = false } = {}) {
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  const held = [];
  await context.route(pattern, async (route) => {
    held.push(route.request().url());
    await released;
    await (abort ? route.abort() : route.continue());
  });
  return { held, release };
}

test('the lesson\'s first widget and the explorer\'s default are drawn before the wasm has arrived, as simulated', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    const wasm = await holdRequests(context, '**/generated/pipesim.wasm');
    await page.goto(`${site.server.url}#view=lesson`);
    const lead = '.sim-widget[data-sim-id="lead"]';
    await page.waitForSelector(`${lead} .dpl-op`);
    const written = JSON.parse(await page.$eval(lead, (e) => e.dataset.config));
    const compare = await page.$eval(lead, (e) => e.dataset.compare);
    assert.deepEqual(await readDrawnOps(page, lead), [
      expectedOps(site.api.simulate({ ...written, schedule: compare })),
      expectedOps(site.api.simulate(written)),
    ]);

    await page.click('.site-nav a[data-view="timeline"]');
    await page.waitForSelector('#timeline-root .dpl-op');
    const config = configOf(DEFAULT_STATE);
    assert.deepEqual(await readDrawnOps(page, '#timeline-root'), [expectedOps(site.api.simulate(config))]);
    // All of that while the worker was still waiting for its module.
    assert.equal(wasm.held.length, 1, 'the worker asked for the wasm once');

    // The module arrives: a run nobody computed ahead is the worker's.
    wasm.release();
    await page.evaluate(() => { location.hash = 'view=timeline&ranks=4'; });
    await page.waitForFunction(() => Math.max(...[...document.querySelectorAll('#timeline-root .dpl-op')].map((g) => Number(g.dataset.rank))) === 3);
    assert.deepEqual(await readDrawnOps(page, '#timeline-root'), [expectedOps(site.api.simulate({ ...config, ranks: 4 }))]);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the simulator\'s worker starts after the first draw, and a module that does not load is said above the views', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    // Whether a timeline op was already drawn when each worker was started.
    await context.addInitScript(() => {
      const NativeWorker = window.Worker;
      window.workerStarts = [];
      window.Worker = class extends NativeWorker {
        constructor(...args) {
          window.workerStarts.push(document.querySelector('.dpl-op') !== null);
          super(...args);
        }
      };
    });
    await context.route('**/generated/pipesim.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto(`${site.server.url}#view=timeline`);
    const notice = await page.waitForSelector('#main > .dpl-error[role="alert"]');
    assert.match(await notice.textContent(), /The simulator could not be loaded\./);
    assert.deepEqual(await page.evaluate(() => window.workerStarts), [true]);
    assert.ok(await page.$('#timeline-root .dpl-op'), 'the first run is drawn all the same');
    assert.equal(await page.locator('#main > .dpl-error').count(), 1, 'said once');
  } finally {
    await context.close();
  }
});

test('until its first timeline is drawn, the page fetches no script of its own but boot.js and app.js', async () => {
  // The worker's own files (its bundle and the JS API's glue) load beside the page's, in parallel.
  const ours = new Set(['boot.js', 'app.js', 'sim-worker.js', 'pipesim.js', 'pipesim.mjs']);
  for (const [view, selector] of [['lesson', '.sim-widget .dpl-op'], ['timeline', '#timeline-root .dpl-op']]) {
    const { context, page, log } = await openPage(site.browser);
    try {
      // What the page had fetched when the first op was attached (resource timing, page only).
      await page.addInitScript((sel) => {
        new MutationObserver((_, observer) => {
          if (!document.querySelector(sel)) return;
          observer.disconnect();
          window.scriptsBeforeDrawn = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.js'));
        }).observe(document, { childList: true, subtree: true });
      }, selector);
      await page.goto(`${site.server.url}#view=${view}`);
      const scripts = await (await page.waitForFunction(() => window.scriptsBeforeDrawn)).jsonValue();
      assert.deepEqual(scripts.filter((p) => !ours.has(path.basename(p))), [], `${view}: ${scripts.join(', ')}`);
      assert.ok(scripts.includes('/generated/app.js') && scripts.includes('/generated/boot.js'), scripts.join(', '));
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('a page in another language asks for its catalogue, and a Hindi page for its font, before app.js has arrived; an English page for neither', async () => {
  for (const lang of LANGS) {
    const { context, page, log } = await openPage(site.browser);
    try {
      const app = await holdRequests(context, '**/generated/app.js');
      await page.goto(`${site.server.url}#view=timeline&lang=${lang}`, { waitUntil: 'commit' });
      const asked = () => log.requests.map((url) => path.basename(new URL(url).pathname));
      // What the page itself has fetched (resource timing): unlike the context's request events,
      // which reach the test some time after the page has asked, it is in step with the page.
      const fetched = async () => (await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)))
        .map((url) => path.basename(new URL(url).pathname));
      const font = (files) => files.filter((f) => f.endsWith('.woff2'));
      const pack = (files) => files.filter((f) => isChunkOf(`/generated/${f}`, `i18n-${lang}`));
      // The family of the language's script where the page's own stylesheets declare it
      // (css/fonts.css: Devanagari's alone; other scripts' sets come with app.js).
      const family = FONT_SETS[localeOf(lang).font]?.family ?? '';
      if (lang !== DEFAULT_LANG) {
        // The faces it declares settled and the catalogue's preload arrived, all before app.js
        // could ask for anything.
        await page.waitForFunction((name) => {
          const faces = [...document.fonts].filter((f) => f.family.replace(/^["']|["']$/g, '') === name);
          const preload = document.querySelector('link[rel="modulepreload"]');
          return faces.every((f) => f.status === 'loaded' || f.status === 'error')
            && preload && performance.getEntriesByName(preload.href).length > 0;
        }, family);
        const files = await fetched();
        const declared = await page.evaluate((name) => [...document.fonts].some((f) => f.family.replace(/^["']|["']$/g, '') === name), family);
        // Both weights of the page's font where it declares the script's (Hindi), none elsewhere.
        assert.equal(font(files).length, declared ? FONT_SETS[localeOf(lang).font].weights.length : 0, `${lang}: ${files.join(', ')}`);
        assert.equal(declared, lang === 'hi', lang);
        assert.equal(pack(files).length, 1, files.join(', '));
      } else {
        await page.waitForTimeout(500);
        const files = await fetched();
        assert.deepEqual([...font(files), ...pack(files)], [], files.join(', '));
      }
      app.release();
      await page.waitForSelector('#timeline-root .dpl-op');
      if (lang !== DEFAULT_LANG) assert.equal(pack(asked()).length, 1, 'fetched once');
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('a Hindi page is first rendered in its shipped font; a font that does not come does not hold it back', async () => {
  // The status of each of the page's web fonts when the first timeline op was attached.
  const recordFonts = (context) => context.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('.dpl-op')) return;
      observer.disconnect();
      window.fontsAtFirstOp = [...document.fonts].map((face) => face.status);
    }).observe(document, { childList: true, subtree: true });
  });
  for (const view of ['lesson', 'timeline']) {
    const { context, page, log } = await openPage(site.browser);
    try {
      await recordFonts(context);
      await page.goto(`${site.server.url}#view=${view}&lang=hi`);
      const fonts = await (await page.waitForFunction(() => window.fontsAtFirstOp)).jsonValue();
      assert.deepEqual(fonts, ['loaded', 'loaded'], view);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
  // The faces never arrive: the page is drawn all the same, in the system fonts meanwhile.
  const { context, page } = await openPage(site.browser);
  let fonts;
  try {
    await recordFonts(context);
    fonts = await holdRequests(context, '**/*.woff2', { abort: true });
    await page.goto(`${site.server.url}#view=timeline&lang=hi`, { waitUntil: 'commit' });  // no load event: the fonts are held
    const statuses = await (await page.waitForFunction(() => window.fontsAtFirstOp)).jsonValue();
    assert.deepEqual(statuses, ['loading', 'loading']);
    assert.equal(await page.$eval('#timeline-heading', (e) => e.lang || document.documentElement.lang), 'hi');
  } finally {
    fonts?.release();
    await context.close();
  }
});

test('the lesson\'s text is fetched once, in the page\'s language, and only where the page opens on the lesson', async () => {
  const count = (log, file) => log.requests.filter((url) => new URL(url).pathname === `/generated/lessons/${file}`).length;
  for (const [hash, lang] of [['#view=lesson', 'en'], ['#lang=hi', 'hi']]) {
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}${hash}`);
      await page.waitForSelector('.sim-widget .dpl-op');
      assert.equal(count(log, `dualpipe.${lang}.html`), 1, `${hash}: boot.js's request is the reader's`);
      assert.equal(count(log, `dualpipe.${lang === 'en' ? 'hi' : 'en'}.html`), 0, hash);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline`);
    await page.waitForSelector('#timeline-root .dpl-op');
    assert.equal(count(log, 'dualpipe.en.html'), 0, 'the explorer does not fetch the lesson');
    await page.click('.site-nav a[data-view="lesson"]');
    await page.waitForSelector('.sim-widget .dpl-op');
    assert.equal(count(log, 'dualpipe.en.html'), 1, 'until the lesson is opened');
  } finally {
    await context.close();
  }
});
