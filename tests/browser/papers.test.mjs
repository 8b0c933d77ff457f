// The papers panel under the sweep, in Chromium: opened from the keyboard, it fetches the Zero
// Bubble paper's published rates from the page's own origin (the site build ships them), runs
// every schedule at the paper's times through the worker, and shows each published rate beside
// ours, computed here in Node from the same module: 36 match to the 4 printed decimals, and the 12
// interleaved 1F1B rates sit just above with the reason in words, in English and in Hindi.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useSite, openPage, screenshot, REPO } from './helpers.mjs';
import { paperConfig, paperBubbleRate, workPerRank } from '../../web/js/lib/paper-rates.js';
import { loadLanguage, translator } from '../../web/js/lib/i18n.js';

await loadLanguage('hi');

const site = useSite();
const TABLE = JSON.parse(await readFile(`${REPO}/lessons/papers/zero-bubble-bubble-rates.json`, 'utf8'));
const PANEL = '.view-sweep .dpl-papers';

async function openPanel(page) {
  await page.waitForSelector(`${PANEL} > summary`);
  await page.focus(`${PANEL} > summary`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${PANEL}[data-ready]`, { timeout: 60000 });
}

const rowsOf = (page) => page.$$eval(`${PANEL} tbody tr`, (trs) => trs.map((tr) => ({
  ...tr.dataset,
  published: tr.querySelector('.dpl-papers-published').textContent,
  ours: tr.querySelector('.dpl-papers-ours').textContent,
  words: tr.querySelector('.dpl-papers-verdict').textContent,
})));

test('every published rate beside ours, as the module computes it, with the mismatches explained', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=sweep`);
    await openPanel(page);
    const rows = await rowsOf(page);
    assert.equal(rows.length, 48);
    let i = 0;
    for (const row of TABLE.rows) {
      for (const [schedule, published] of Object.entries(row.published)) {
        const shown = rows[i++];
        assert.equal(shown.schedule, schedule);
        assert.equal(shown.microbatches, String(row.microbatches));
        assert.equal(shown.published, published.toFixed(4));
        const ours = paperBubbleRate(site.api.simulate(paperConfig(row, schedule)), workPerRank(row));
        assert.equal(shown.ours, ours.toFixed(4), `${row.model} ${schedule} m=${row.microbatches}`);
        assert.equal(shown.verdict, schedule === 'interleaved-1f1b' ? 'above-uneven' : 'match');
      }
    }
    const en = translator('en');
    assert.equal(await page.$eval(`${PANEL} .dpl-papers-status`, (e) => e.textContent), en('papers.summary', { matches: 36, total: 48, models: 4 }));
    assert.equal(await page.$$eval(`${PANEL} table`, (ts) => ts.length), 4);
    assert.match(await page.$eval(`${PANEL} caption`, (e) => e.textContent), /^1\.5B model: 22 layers on 8 stages$/);
    // Each model's interleaved rows carry the reason, with that model's chunks (22 + 2) / 8 = 3.
    const notes = await page.$$eval(`${PANEL} .dpl-papers-model .dpl-papers-note`, (ps) => ps.map((p) => p.textContent));
    assert.equal(notes.length, 4);
    assert.match(notes[0], /we run 3 chunks per rank, each 1\/3 of a stage’s time/);
    assert.match(await page.$eval(`${PANEL} tr[data-verdict="above-uneven"] .dpl-papers-verdict`, (e) => e.textContent), /^Ours 0\.00\d\d higher: uneven stages/);
    await screenshot(page, 'papers-light.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests.filter((url) => !url.startsWith(site.server.url)), []);
    assert.ok(log.requests.some((url) => url.endsWith('/generated/lessons/papers/zero-bubble-bubble-rates.json')));
  } finally {
    await context.close();
  }
});

test('the Hindi page says the panel in Hindi', async () => {
  const { context, page, log } = await openPage(site.browser, { colorScheme: 'dark' });
  try {
    await page.goto(`${site.server.url}#view=sweep&lang=hi`);
    await openPanel(page);
    const hi = translator('hi');
    assert.equal(await page.$eval(`${PANEL} .dpl-papers-title`, (e) => e.textContent), hi('papers.title'));
    assert.equal(await page.$eval(`${PANEL} caption`, (e) => e.textContent), '1.5B मॉडल: 8 स्टेज पर 22 लेयर');
    assert.equal(await page.$eval(`${PANEL} tr[data-verdict="match"] .dpl-papers-verdict`, (e) => e.textContent), hi('papers.verdict.match'));
    assert.match(await page.$eval(`${PANEL} .dpl-papers-model .dpl-papers-note`, (e) => e.textContent), /हर रैंक पर 3 चंक/);
    await screenshot(page, 'papers-dark-hi.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
