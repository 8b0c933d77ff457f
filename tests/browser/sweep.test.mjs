// The sweep view in Chromium: every schedule on the same axes, invalid shapes as gaps and "n/a"
// cells, the axis switch, the table view and the CSV download, all matching pipesim.sweep.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, screenshot } from './helpers.mjs';
import { sweepRequest } from '../../web/js/lib/sweep-data.js';
import { COLOURS } from '../../web/js/ui/series-style.js';
import CATALOGUE from '../../web/generated/catalogue.js';

const site = useSite();

const COSTS = { forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 };
const NAMES = CATALOGUE.schedules.map((s) => s.name);

test('the sweep draws one line per catalogue schedule, Chimera included, with gaps where a schedule cannot run', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=sweep`);
    await page.waitForSelector('.view-sweep .dpl-sweep-svg');
    const { rows } = site.api.sweep(sweepRequest({ axis: 'microbatches', ranks: 8, microbatches: 20, costs: COSTS }));
    const markers = await page.$$eval('.view-sweep .dpl-sweep-figure:first-child .dpl-series', (gs) =>
      Object.fromEntries(gs.map((g) => [g.dataset.schedule, g.querySelectorAll('.dpl-series-marker').length])));
    assert.deepEqual(Object.keys(markers).sort(), [...NAMES].sort(), 'one series per catalogue schedule');
    assert.ok(NAMES.includes('chimera'));
    for (const schedule of NAMES) {
      assert.equal(markers[schedule], rows.filter((r) => r.schedule === schedule && r.ok).length, schedule);
    }
    // DualPipe at 8 ranks needs >= 16 micro-batches: its first point is missing, so fewer markers.
    assert.ok(markers.dualpipe < markers.gpipe);
    // Every micro-batch count of the grid is a multiple of 8 ranks, so Chimera runs at each one.
    assert.equal(markers.chimera, rows.filter((r) => r.schedule === 'chimera').length);
    // Each schedule's line has its own colour class, marker shape and dash (an ordered palette).
    const styles = await page.$$eval('.view-sweep .dpl-sweep-legend .dpl-series', (gs) => gs.map((g) => ({
      schedule: g.dataset.schedule, cls: g.getAttribute('class'), dash: g.querySelector('line').getAttribute('stroke-dasharray'),
      marker: g.lastElementChild.tagName + (g.lastElementChild.getAttribute('points') || g.lastElementChild.getAttribute('d') || ''),
      colour: getComputedStyle(g.querySelector('line')).stroke,
    })));
    assert.deepEqual(styles.map((s) => s.schedule), NAMES, 'the legend lists schedules in catalogue order');
    // Colours cycle (ui/series-style.js COLOURS): the first that many lines each have their own;
    // every line has its own colour, marker and dash together, however many schedules core offers.
    const distinct = styles.slice(0, COLOURS);
    assert.equal(new Set(distinct.map((s) => s.colour)).size, distinct.length, 'the first lines each have their own colour');
    assert.equal(new Set(styles.map((s) => `${s.colour}|${s.dash}|${s.marker.replace(/[\d.,\s-]+/g, '#')}`)).size, NAMES.length, 'every line has its own colour, marker and dash');
    await screenshot(page, 'sweep-light.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the table view and the CSV hold every row, n/a where the shape is invalid', async () => {
  const { context, page } = await openPage(site.browser, { acceptDownloads: true });
  try {
    await page.goto(`${site.server.url}#view=sweep&axis=ranks&microbatches=16`);
    await page.waitForSelector('.view-sweep .dpl-sweep-svg');
    const { rows } = site.api.sweep(sweepRequest({ axis: 'ranks', ranks: 8, microbatches: 16, costs: COSTS }));
    await page.click('.view-sweep .dpl-sweep-bar .dpl-toggle');
    await page.waitForSelector('.view-sweep .dpl-table');
    const cells = await page.$$eval('.view-sweep .dpl-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.equal(cells.length, rows.length);
    rows.forEach((row, i) => {
      const title = CATALOGUE.schedules.find((s) => s.name === row.schedule).title;
      assert.deepEqual(cells[i].slice(0, 3), [title, String(row.ranks), String(row.microbatches)]);
      if (!row.ok) assert.equal(cells[i][3], 'n/a');
    });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.view-sweep a[download]')]);
    const csv = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    const lines = csv.trim().split('\r\n');
    assert.equal(lines[0], 'schedule,ranks,microbatches,ok,stages,makespan,bubbleMax,bubbleFraction,utilization,maxPeakActivationMemory,maxPeakActivations,paramCopies,error');
    assert.equal(lines.length, rows.length + 1);
    const dualpipe10 = rows.find((r) => r.schedule === 'dualpipe' && r.ranks === 10);
    assert.equal(dualpipe10.ok, false);
    assert.ok(lines.some((l) => l.startsWith('dualpipe,10,16,false,') && l.endsWith(dualpipe10.error.message.includes(',') ? `"${dualpipe10.error.message}"` : dualpipe10.error.message)));
    await page.waitForFunction(() => location.hash.includes('axis=ranks') && location.hash.includes('table=1'));
  } finally {
    await context.close();
  }
});
