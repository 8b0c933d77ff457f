// axe-core finds no violations on the reader, the timeline explorer (chart and table, with its
// compute and communication streams expanded), the sweep, the planner and the iframe embed, in
// light and dark themes, English and Hindi, error and recommendation states included. The page's CSP forbids injected scripts,
// so the test context bypasses CSP to add axe (the page itself is unchanged).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useSite, openPage, switchColorScheme, REPO } from './helpers.mjs';

const AXE = path.join(REPO, 'node_modules/axe-core/axe.min.js');

const site = useSite({ pipesim: false });

/** Runs axe on the page; returns violations as "rule: target" lines (empty when clean). */
async function axe(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => window.axe.run(document, {
    resultTypes: ['violations'],
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary.split('\n')[1] || v.help})`));
}

/** Opens the papers panel and waits for its tables. */
async function OPEN_PAPERS(page) {
  await page.click('.view-sweep .dpl-papers > summary');
  await page.waitForSelector('.view-sweep .dpl-papers[data-ready]', { timeout: 60000 });
}

// The explorer's full default run (DualPipe 8x20 beside 1F1B) is checked in English and Hindi;
// states that are about something else (streams, timing, a CSV, a rejected value) draw a 4x8 run,
// since axe's time grows with the ops drawn and its rules see the same markup either way.
const PAGES = [
  ['reader', '', '.lesson .sim-widget .dpl-op'],
  ['timeline', '#view=timeline&compare=1f1b', '.view-timeline .dpl-op'],
  ['timeline table', '#view=timeline&ranks=4&microbatches=8&table=1', '.view-timeline .dpl-table'],
  ['sweep', '#view=sweep', '.view-sweep .dpl-sweep-svg'],
  ['sweep table', '#view=sweep&table=1', '.view-sweep .dpl-table'],
  ['bad parameter', '#view=timeline&ranks=3', '.view-timeline .dpl-error'],
  ['timeline streams', '#view=timeline&ranks=4&microbatches=8&commRatio=1&streams=1', '.view-timeline .dpl-part'],
  ['timeline streams table', '#view=timeline&ranks=4&microbatches=8&commRatio=1&streams=1&table=1', '.view-timeline .dpl-table tr.is-part'],
  ['streams unavailable', '#view=timeline&ranks=4&microbatches=8&streams=1', '.view-timeline .dpl-streams-hint:not([hidden])'],
  ['bad comm value', '#view=timeline&ranks=4&microbatches=8&commRatio=1&attnShare=2', '.view-timeline .dpl-error'],
  ['planner from the address', '#view=planner&plan=nope&cluster.gpus=abc', '.view-planner .dpl-field-msg[data-path="/cluster/gpus"]:not(:empty)'],
  ['embed', 'embed.html?widget=timeline&ranks=4&microbatches=8', '.dpl-op'],
  ['sweep nothing can run', '#view=sweep&axis=ranks&microbatches=0', '.dpl-field-microbatches .dpl-fix'],
  ['planner recommendation', '#view=planner&plan=dense-7b-8gpu', '.view-planner .dpl-planner-verdict[data-kind="recommend"]'],
  // The Hindi page: its own strings, lesson and Devanagari font.
  ['reader, Hindi', '#lang=hi', '.lesson .sim-widget .dpl-op'],
  ['timeline, Hindi', '#view=timeline&compare=1f1b&lang=hi', '.view-timeline .dpl-op'],
  ['bad parameter, Hindi', '#view=timeline&ranks=3&lang=hi', '.view-timeline .dpl-error'],
  ['sweep, Hindi', '#view=sweep&lang=hi', '.view-sweep .dpl-sweep-svg'],
  ['planner, Hindi', '#view=planner&plan=deepseek-v3-2048-h800&lang=hi', '.view-planner .dpl-planner-table'],
  // The timing control, a PyTorch CSV with an error beside its box, the papers panel once run.
  ['runtime timing', '#view=timeline&ranks=4&microbatches=8&timing=runtime&backward=1.5&weight=0.9', '.dpl-field-timing:not([hidden]) select'],
  ['runtime timing refused, Hindi', '#view=timeline&ranks=4&microbatches=8&timing=runtime&commRatio=1&lang=hi', '.dpl-field-timing .dpl-field-msg:not(:empty)'],
  ['CSV error', '#view=timeline&ranks=4&microbatches=8&custom=0F0%2C0X1', '.dpl-own .dpl-own-place:not([hidden])'],
  ['CSV run, Hindi', '#view=timeline&ranks=4&microbatches=8&lang=hi&custom=0F0%2C0B0', '.dpl-own .dpl-own-timeline .dpl-op'],
  ['papers panel', '#view=sweep', '.view-sweep .dpl-papers > summary', OPEN_PAPERS],
  ['papers panel, Hindi', '#view=sweep&lang=hi', '.view-sweep .dpl-papers > summary', OPEN_PAPERS],
];

// Each page loads once, in the light theme, and is checked again after the system switches to
// dark (the page follows prefers-color-scheme live, as when a learner's OS changes theme): half
// the page loads of a fresh page per theme, the slowest part of this file.
for (const [name, url, ready, action] of PAGES) {
  test(`axe finds no violations: ${name}, light then dark theme`, async () => {
    const { context, page } = await openPage(site.browser, { colorScheme: 'light', bypassCSP: true });
    try {
      await page.goto(`${site.server.url}${url}`);
      await page.waitForSelector(ready, { timeout: 30000 });
      if (action) await action(page);
      if (name.startsWith('reader')) {
        await page.waitForFunction(() => [...document.querySelectorAll('.sim-number')].every((n) => n.dataset.live));
      }
      assert.deepEqual(await axe(page), [], 'light theme');
      await switchColorScheme(page, 'dark');
      assert.equal(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), true);
      assert.deepEqual(await axe(page), [], 'dark theme');
    } finally {
      await context.close();
    }
  });
}

test('every control is reachable by keyboard and shows a visible focus ring', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8`);
    await page.waitForSelector('.view-timeline .dpl-op');
    const seen = new Set();
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const el = document.activeElement;
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        return { key: el.dataset.action || el.name || el.className.baseVal || el.className || el.tagName, outline: style.outlineStyle, width: box.width, height: box.height };
      });
      if (info.key === 'BODY') break; // wrapped past the last control
      seen.add(info.key);
      assert.notEqual(info.outline, 'none', `${info.key} has no focus outline`);
      assert.ok(info.width >= 24 && info.height >= 24 || info.key.includes('dpl-op') || info.key === 'A', `${info.key} is ${info.width}x${info.height}, under 24px`);
    }
    for (const key of ['schedule', 'ranks', 'forward', 'comm', 'play', 'nextOp', 'streams', 'table']) assert.ok(seen.has(key), `${key} not reached by Tab`);
  } finally {
    await context.close();
  }
});
