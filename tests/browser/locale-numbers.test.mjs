// Numbers in the page's language, in the browser (issue 27): the explorer in Spanish, with per-stage
// costs that make the times fractional, its table, memory lane and cursor on, then the sweep on the
// same page. Whatever a learner reads there (heading, legend, settings summary, table, tooltip,
// axis ticks, idle totals, the ops' descriptions, the sweep's ticks, marker titles and table) writes
// a decimal comma: no "2.5" anywhere. Excluded: code, input values, text marked as English
// (core's messages and quoted lesson prose keep their point, lib/format.js says why) and cited
// sources (section numbers, arXiv ids).
// The DOM-free half (each language's forms, the source check) is lib-locale-numbers.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline } from './helpers.mjs';

const site = useSite({ pipesim: false });

/** Everything on the learner's surfaces of `scope` that could hold a number, as [where, text]. */
function learnerTexts(page, scopes) {
  return page.evaluate((selectors) => {
    const out = [];
    // Code, English text, and sources cited (section numbers and arXiv ids: "§3.1", "2205.05198").
    const skip = (el) => el.closest('code, pre, [lang="en"], script, style, .dpl-assumption-source');
    for (const selector of selectors) {
      for (const root of document.querySelectorAll(selector)) {
        // Visible text (innerText leaves hidden parts and inputs' values out) ...
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const el = node.parentElement;
          if (!el || skip(el) || !node.data.trim()) continue;
          if (el.closest('[hidden]') || el.closest('details:not([open]) > :not(summary)')) continue;
          out.push([`${selector} ${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`, node.data]);
        }
        // ... and what assistive technology and tooltips read.
        for (const el of root.querySelectorAll('[aria-label], [title], [aria-valuetext]')) {
          if (skip(el)) continue;
          for (const attr of ['aria-label', 'title', 'aria-valuetext']) {
            if (el.hasAttribute(attr)) out.push([`${selector} [${attr}]`, el.getAttribute(attr)]);
          }
        }
      }
    }
    return out;
  }, scopes);
}

const pointNumbers = (texts) => texts.filter(([, text]) => /\d\.\d/.test(text));
const commaNumbers = (texts) => texts.filter(([, text]) => /\d,\d/.test(text));

test('in Spanish, the explorer and the sweep write every number with a decimal comma', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    // Per-stage costs with halves and a p2p latency of 0.25: fractional op times, idle totals,
    // step time and settings summary.
    const run = 'view=timeline&lang=es&schedule=1f1b&compare=dualpipe&ranks=4&microbatches=8&stageCosts=1.5/2.5,1/2,1/2,1/2&p2p=0.25&memory=1&model=llama3-70b&t=2.75';
    await page.goto(`${site.server.url}#${run}`);
    await waitForTimeline(page, '.view-timeline');
    await page.waitForFunction(() => document.documentElement.lang === 'es');
    // A tooltip, over an op of the first lane.
    await page.locator('.view-timeline .dpl-timeline-svg .dpl-op').nth(3).hover();
    await page.waitForFunction(() => {
      const tip = document.querySelector('.view-timeline .dpl-tooltip');
      return tip && !tip.hidden && tip.textContent.trim() !== '';
    });
    const chart = await learnerTexts(page, ['#side-summary', '.view-timeline']);
    const tip = await page.$eval('.view-timeline .dpl-tooltip', (el) => el.textContent);
    // The same run as a table.
    await page.evaluate((hash) => { window.location.hash = hash; }, `#${run}&table=1`);
    await page.waitForFunction(() => document.querySelector('.view-timeline .dpl-table td'));
    const table = await learnerTexts(page, ['.view-timeline .dpl-tables']);
    const timeline = [...chart, ...table, ['tooltip', tip]];
    assert.deepEqual(pointNumbers(timeline), [], 'the explorer writes no number with a decimal point');
    // Not vacuous: the run's numbers are there, with commas, in the heading, chart, tooltip and table.
    const commas = commaNumbers(timeline).map(([where]) => where);
    for (const part of ['#side-summary', 'dpl-lane-stats', 'dpl-idle-total', 'dpl-mem-peak', 'dpl-readout', 'tooltip', 'dpl-tables td']) {
      assert.ok(commas.some((where) => where.includes(part) || (part === 'dpl-tables td' && /dpl-tables td/.test(where))), `a decimal comma in ${part}: ${JSON.stringify(commas.slice(0, 40))}`);
    }

    // The sweep, on the same page.
    await page.evaluate(() => { window.location.hash = '#view=sweep&lang=es&ranks=4&microbatches=8'; });
    await page.waitForFunction(() => document.querySelectorAll('.view-sweep .dpl-sweep-svg').length > 0 && document.querySelector('.view-sweep .dpl-table td'));
    const sweep = await learnerTexts(page, ['#side-summary', '.view-sweep .dpl-sweep-charts', '.view-sweep .dpl-sweep-legend', '.view-sweep .dpl-table']);
    // The sweep's table is folded away; its cells are what its toggle shows.
    const cells = await page.$$eval('.view-sweep .dpl-table td', (cells) => cells.map((c) => ['sweep td', c.textContent]));
    const ticks = await page.$$eval('.view-sweep .dpl-sweep-svg text, .view-sweep .dpl-sweep-svg title', (els) => els.map((e) => ['sweep svg', e.textContent]));
    assert.deepEqual(pointNumbers([...sweep, ...cells, ...ticks]), [], 'the sweep writes no number with a decimal point');
    assert.ok(commaNumbers([...cells, ...ticks]).length >= 10, 'the sweep\'s numbers are there, with commas');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
