// Plain words on learner surfaces (issue 29, item 4): no widget id, command line, camelCase field
// or e-notation anywhere a widget, an exercise (solutions open), the explorer, the sweep or the
// planner writes; where a published formula holds is said in the page's language (before: "W <=
// F ... p2pLatency = 0" in English on the Hindi page); planner inputs read counts in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline } from './helpers.mjs';

const site = useSite({ pipesim: false });

/** What reads as a developer's word: e-notation, camelCase (arXiv, a source's name, is not), a command line. */
const DEVELOPER = [/\b\d+(?:\.\d+)?e[+-]?\d+\b/i, /\b(?!arXiv\b)[a-z]+[A-Z][A-Za-z]*\b/, /\bpipesim\b/, /(?:^|\s)--[a-z]/];

/** Text of every widget in `scope` (form values included), as one string per element. */
function widgetText(page, scope) {
  return page.$$eval(`${scope} .dpl`, (roots) => roots.flatMap((root) => [
    root.innerText,
    ...[...root.querySelectorAll('input:not([type=checkbox]):not([type=radio]), select')].map((c) => c.value),
  ]));
}

const offending = (texts) => texts.flatMap((text) => DEVELOPER.filter((re) => re.test(text)).map((re) => `${re}: …${text.match(re)[0]}…`));

for (const lang of ['en', 'hi']) {
  test(`${lang}: the lesson's widgets and exercises, solutions open, use plain words`, async () => {
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}#lang=${lang}`);
      await waitForTimeline(page, '.sim-widget[data-sim-id="lead"]');
      await page.$eval('h2#exercises', (h) => h.scrollIntoView());
      await page.waitForSelector('#exercise-param-overhead .dpl-params-breakdown table', { timeout: 30000 });
      for (const details of await page.$$('.dpl-ex-solution')) await details.evaluate((d) => { d.open = true; });
      await page.waitForSelector('#exercise-param-overhead .dpl-params-solution table');
      assert.deepEqual(offending(await widgetText(page, '.view-lesson')), []);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}

test('hi: the explorer says where the formula holds in Hindi, from the catalogue\'s clauses', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&lang=hi&ranks=4&microbatches=8`);
    await waitForTimeline(page, '.view-timeline');
    await page.waitForSelector('.dpl-ref-verdict');
    const verdict = await page.$eval('.dpl-ref-verdict', (p) => p.textContent);
    assert.match(verdict, /PP = 2; या B − W = F, W ≤ F, max\(F, B\) ≤ F&B,? और F&B ≤ F \+ B; और लिंक की देरी 0 हो/);
    assert.doesNotMatch(verdict, /p2pLatency|<=|holds/);
    // The formula line is one message of the language with the formula (maths) and its value
    // inside it as elements, not a label glued to " = ".
    const line = await page.$eval('.dpl-ref-formula', (p) => ({ text: p.textContent, code: p.querySelector('code')?.textContent, value: p.querySelector('strong')?.textContent }));
    assert.ok(line.code && line.value, JSON.stringify(line));
    assert.equal(line.text, `DualPipe के लिए प्रकाशित बबल सूत्र: ${line.code} = ${line.value}`);
    assert.match(await page.$eval('.dpl-ref-sim', (p) => p.textContent), /^सिम्युलेशन में प्रति रैंक अधिकतम खाली समय: [\d.,]+$/);
    assert.deepEqual(offending(await widgetText(page, '.view-timeline')), []);
    assert.deepEqual(offending(await widgetText(page, '.side')), []);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('planner: counts in words in its inputs and its plan, never e-notation; the sweep in plain words', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=planner&plan=deepseek-v3-2048-h800`);
    await page.waitForSelector('.view-planner .dpl-planner-output table');
    // Every digit of the preset's 671,026,419,200: the form sends what it shows.
    assert.equal(await page.inputValue('.view-planner input[name="model.totalParams"]'), '671.0264192 billion');
    assert.equal(await page.inputValue('.view-planner input[name="trainingTokens"]'), '14.8 trillion');
    // A count typed in words reaches the simulator as the number, and the address keeps its digits.
    await page.fill('.view-planner input[name="model.totalParams"]', '700 billion');
    await page.press('.view-planner input[name="model.totalParams"]', 'Enter');
    await page.waitForFunction(() => location.hash.includes('model.totalParams=700000000000'));
    assert.deepEqual(offending(await widgetText(page, '.view-planner')), []);
    await page.goto(`${site.server.url}#view=sweep`);
    await page.waitForSelector('.view-sweep .dpl-sweep-svg');
    assert.deepEqual(offending([...await widgetText(page, '.view-sweep'), await page.$eval('#side-summary', (s) => s.textContent)]), []);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
