// What the first screen waits for. The runs the page draws first come with the page
// (scripts/first-runs.mjs writes them at build time; lib/sim-cache.js starts with them): with the
// wasm held back, the lesson's first widget and the explorer's default are drawn all the same, op
// for op what the simulator gives; once the module arrives, the next change is simulated by the
// worker as before. And boot.js asks for app.js's own chunks before app.js has been parsed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useSite, openPage, readDrawnOps, expectedOps, REPO } from './helpers.mjs';
import { DEFAULT_STATE, configOf } from '../../web/js/state.js';

const site = useSite();

/** Holds every request for the wasm module until release() is called. */
async function holdWasm(context) {
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  const held = [];
  await context.route('**/generated/pipesim.wasm', async (route) => {
    held.push(route.request().url());
    await released;
    await route.continue();
  });
  return { held, release };
}

test('the lesson\'s first widget and the explorer\'s default are drawn before the wasm has arrived, as simulated', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    const wasm = await holdWasm(context);
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

test('boot.js asks for exactly the chunks app.js imports, each fetched once', async () => {
  const app = readFileSync(path.join(REPO, 'web/generated/app.js'), 'utf8');
  const imported = [...app.matchAll(/(?:^|;|\})import(?:[^"';]*?from)?"\.\/(chunk-[A-Z0-9]+\.js)"/g)].map((m) => m[1]);
  assert.ok(imported.length > 0, 'app.js imports chunks of its own');
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=lesson`);
    await page.waitForSelector('.sim-widget .dpl-op');
    const preloaded = await page.$$eval('link[rel="modulepreload"]', (links) => links.map((l) => new URL(l.href).pathname));
    assert.deepEqual(preloaded.sort(), imported.map((c) => `/generated/${c}`).sort());
    for (const chunk of imported) {
      assert.equal(log.requests.filter((url) => new URL(url).pathname === `/generated/${chunk}`).length, 1, chunk);
    }
    assert.deepEqual(log.errors, []);
  } finally {
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
