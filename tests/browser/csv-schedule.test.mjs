// The explorer's "Write your own schedule" with a PyTorch schedule CSV in Chromium: a CSV pasted
// or loaded from a file is drawn exactly as the native CLI's `simulate --input x.csv` runs it;
// core's csv.* error shows beside the box naming row and column (in Hindi on the Hindi page) and
// selects the cell; the explorer's schedule and the one written here download as the CSV core
// writes (`pipesim export`), and "Start from the explorer's schedule as PyTorch CSV" fills the box
// with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { useSite, openPage, readDrawnOps, expectedOps, screenshot, REPO } from './helpers.mjs';
import { errorText } from '../../web/js/lib/error-text.js';
import { loadLanguage, translator } from '../../web/js/lib/i18n.js';
import { LANGS } from '../../web/js/lib/locales.js';

await Promise.all(LANGS.map(loadLanguage));

const site = useSite();
const NATIVE_CLI = `${REPO}/build/native/pipesim`;
const SCOPE = '.view-timeline .dpl-own';

function native(args, input) {
  const run = spawnSync(NATIVE_CLI, args, { input, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

const exported = (schedule, ranks, mb) => native(['export', '--schedule', schedule, '--ranks', String(ranks), '--microbatches', String(mb)]);

async function typeSchedule(page, text) {
  await page.click(`${SCOPE} > summary`);
  await page.fill(`${SCOPE} textarea`, text);
  await page.press(`${SCOPE} textarea`, 'Tab');
}

/** Requests that left the page's origin (a download's blob: URL of the page's own origin is not one). */
const outside = (log) => log.requests.filter((url) => !url.startsWith(site.server.url) && !url.startsWith(`blob:${site.server.url}`));

test('a CSV exported by the native CLI, pasted, draws what the CLI simulates from the file', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&forward=1.5&weight=0.5`);
    await page.waitForSelector('.view-timeline .dpl-timeline .dpl-op');
    const csv = exported('zb-h1', 4, 8);
    await typeSchedule(page, csv);
    await page.waitForSelector(`${SCOPE} .dpl-timeline .dpl-op`);
    const expected = JSON.parse(native(['simulate', '--input', '-', '--forward', '1.5', '--weight', '0.5', '--format', 'json'], csv));
    assert.deepEqual((await readDrawnOps(page, SCOPE))[0], expectedOps(expected));
    assert.equal(await page.$eval(`${SCOPE} .dpl-own-read`, (e) => e.textContent),
      'Read as a PyTorch schedule CSV: 4 rows (one per rank), 96 actions. The simulator works out the stages and micro-batches; the costs come from the panel above.');
    assert.match(await page.$eval(`${SCOPE} .dpl-lane-heading`, (e) => e.textContent), /Your PyTorch CSV · 4 ranks/);
    // The request shown beside it runs the same: the CSV inside JSON.
    const shown = await page.$eval(`${SCOPE} .dpl-own-cli code`, (e) => e.textContent);
    const request = JSON.parse(shown);
    assert.equal(request.csv.replaceAll('\r\n', '\n'), csv.replaceAll('\r\n', '\n'));
    assert.equal(JSON.parse(native(['simulate', '--input', '-', '--format', 'json'], JSON.stringify(request))).makespan, expected.makespan);
    await screenshot(page, 'csv-schedule-light.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
    assert.deepEqual(outside(log), []);
  } finally {
    await context.close();
  }
});

for (const lang of LANGS) {
  test(`a CSV with a bad action: core's csv.action beside the box names row and column and selects the cell (${lang})`, async () => {
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}#view=timeline&lang=${lang}`);
      const text = '0F0,0F1,0B0,0B1\n1F0,1X1,1B0,1F1,1B1\n';
      await typeSchedule(page, text);
      await page.waitForSelector(`${SCOPE} .dpl-own-place:not([hidden])`);
      let error = null;
      try { site.api.simulate({ schedule: 'custom', csv: text }); } catch (e) { error = e; }
      assert.equal(error.rule, 'csv.action');
      assert.equal(error.path, '/csv/1/1');
      assert.equal(error.message, 'row 2, column 2: "1X1" is not a compute action such as 0F1, 1I0, 2W3, 3B0 or (0F7;7B3)OVERLAP_F_B');
      const message = await page.$eval(`${SCOPE} .dpl-field-msg`, (e) => e.textContent);
      assert.equal(message, errorText(error, lang));
      if (lang === 'hi') assert.match(message, /^पंक्ति 2, कॉलम 2:/);
      assert.equal(await page.$eval(`${SCOPE} .dpl-own-where`, (e) => e.textContent), translator(lang)('own.atCell', { row: 2, column: 2, label: '1X1' }));
      if (lang === 'hi') assert.equal(await page.$eval(`${SCOPE} .dpl-own-where`, (e) => e.textContent), 'पंक्ति 2, कॉलम 2: “1X1”');
      assert.equal(await page.$eval(`${SCOPE} textarea`, (e) => e.getAttribute('aria-invalid')), 'true');
      await page.click(`${SCOPE} .dpl-own-select`);
      assert.equal(await page.$eval(`${SCOPE} textarea`, (e) => e.value.slice(e.selectionStart, e.selectionEnd)), '1X1');
      // A structural fault (micro-batch 0 forwarded twice on rank 1): csv.schedule, its inner
      // message in the page's language too.
      const twice = '0F0,0F1,0B0,0B1\n1F0,1F0,1B0,1F1,1B1\n';
      await page.fill(`${SCOPE} textarea`, twice);
      await page.press(`${SCOPE} textarea`, 'Tab');
      try { site.api.simulate({ schedule: 'custom', csv: twice }); } catch (e) { error = e; }
      assert.equal(error.rule, 'csv.schedule');
      await page.waitForFunction(([scope, want]) => document.querySelector(`${scope} .dpl-field-msg`).textContent === want, [SCOPE, errorText(error, lang)]);
      // Through the worker too, the inner error arrives as its structured cause: no English left.
      if (lang === 'hi') assert.doesNotMatch(await page.$eval(`${SCOPE} .dpl-field-msg`, (e) => e.textContent), /appears twice/);
      if (lang === 'hi') await screenshot(page, 'csv-schedule-error-hi.png', { fullPage: true });
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}

test('a CSV file loads into the box and runs; both schedules download as the CSV core writes', async () => {
  const { context, page, log } = await openPage(site.browser, { acceptDownloads: true });
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=zb-v&ranks=4&microbatches=8`);
    await page.waitForSelector('#timeline-root .dpl-timeline .dpl-op');
    await page.click(`${SCOPE} > summary`);
    const csv = exported('interleaved-1f1b', 2, 4);
    await page.setInputFiles(`${SCOPE} .dpl-own-file`, { name: 'megatron.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.waitForSelector(`${SCOPE} .dpl-own-timeline .dpl-op`);
    assert.equal(await page.$eval(`${SCOPE} .dpl-own-file-msg`, (e) => e.textContent), 'Loaded megatron.csv.');
    assert.equal(await page.$eval(`${SCOPE} textarea`, (e) => e.value), csv.replaceAll('\r\n', '\n'));
    const expected = JSON.parse(native(['simulate', '--input', '-', '--format', 'json'], csv));
    assert.deepEqual((await readDrawnOps(page, SCOPE))[0], expectedOps(expected));
    // The explorer's schedule (ZB-V 4 x 8) and the loaded one, as files.
    const save = async (button) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${SCOPE} ${button}`)]);
      return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
    };
    assert.deepEqual(await save('.dpl-own-download-explorer'), { name: 'zb-v-4x8.csv', text: exported('zb-v', 4, 8) });
    assert.deepEqual(await save('.dpl-own-download'), { name: 'my-schedule.csv', text: csv });
    assert.match(await page.$eval(`${SCOPE} .dpl-own-file-msg`, (e) => e.textContent), /^Saved my-schedule\.csv/);
    assert.deepEqual(log.errors, []);
    assert.deepEqual(outside(log), []);
  } finally {
    await context.close();
  }
});

test('"Start from the explorer\'s schedule as PyTorch CSV" writes core\'s CSV, which draws the explorer\'s timeline', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=dualpipev&ranks=3&microbatches=7`);
    await page.waitForSelector('#timeline-root .dpl-timeline .dpl-op');
    await page.click(`${SCOPE} > summary`);
    await page.focus(`${SCOPE} .dpl-own-from-csv`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${SCOPE} .dpl-own-timeline .dpl-op`);
    assert.equal(await page.$eval(`${SCOPE} textarea`, (e) => e.value), exported('dualpipev', 3, 7).replaceAll('\r\n', '\n'));
    assert.deepEqual((await readDrawnOps(page, SCOPE))[0], (await readDrawnOps(page, '#timeline-root'))[0]);
    assert.equal(await page.evaluate(() => document.activeElement.name), 'custom');
    await page.waitForFunction(() => location.hash.includes('custom=0F0'));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
