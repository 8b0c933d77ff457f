// Plain words on learner surfaces (issue 29, item 4): no widget id, command line, camelCase field
// or e-notation anywhere a widget, an exercise (solutions open), the explorer, the sweep or the
// planner writes; where a published formula holds is said in the page's language (before: "W <=
// F ... p2pLatency = 0" in English on the Hindi page); planner inputs read counts in words. The
// lesson's own text names no command of ours (before: "`pipesim overlap --comm-ratio 1` prints the
// same", six of them) and no exercise by its id (before: "(`hand-trace`)"): the Exercises overview
// links to each exercise instead; the explorer's own-schedule box and its hints give no command
// line or address parameter (before: "as “pipesim simulate” prints them", "add commRatio=1").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useSite, openPage, waitForTimeline, followInPageLink, REPO } from './helpers.mjs';
import { LANGS } from '../../web/js/lib/locales.js';
import { withoutIsolates } from '../../web/js/lib/bidi.js';

const site = useSite({ pipesim: false });
// The lesson's order of exercises, as lesson-activities.js writes it (read as text: that module wires views).
const EXERCISE_ORDER = JSON.parse((await readFile(`${REPO}/web/js/lesson-activities.js`, 'utf8')).match(/EXERCISE_ORDER = (\[[^\]]*\])/)[1].replaceAll("'", '"'));

/**
 * What reads as a developer's word: e-notation, camelCase (arXiv, a source's name, is not), a
 * command line, a result's field path ("read bubble.max", before) or "widget" where the page says
 * "figure".
 */
const DEVELOPER = [/\b\d+(?:\.\d+)?e[+-]?\d+\b/i, /\b(?!arXiv\b)[a-z]+[A-Z][A-Za-z]*\b/, /\bpipesim\b/, /(?:^|\s)--[a-z]/,
  /\b(?:bubble|costs|comm|result)\.[a-z]/, /\bwidgets?\b|विजेट/i];

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

for (const [lang, word] of [['en', 'exercise'], ['hi', 'अभ्यास']]) {
  test(`${lang}: the lesson's text gives no command of ours and no exercise id; its overview links to each exercise`, async () => {
    const { context, page, log } = await openPage(site.browser, { reducedMotion: 'reduce' });
    try {
      await page.goto(`${site.server.url}#lang=${lang}`);
      await waitForTimeline(page, '.sim-widget[data-sim-id="lead"]');
      await page.waitForSelector('.lesson h2#exercises');
      const text = await page.$eval('.lesson', (l) => l.innerText);
      assert.deepEqual(text.match(/\bpipesim\b[^\n]{0,40}/g) ?? [], []);
      assert.deepEqual(EXERCISE_ORDER.filter((id) => text.includes(id)), [], 'no exercise id in the text');
      // Outside code (a source's file, function or option named as it is written there), no
      // e-notation, camelCase or field name: before, "(`\"overlapped\"`)" and a bare "nW".
      const prose = await page.$eval('.lesson', (lesson) => {
        const parts = [];
        const walker = document.createTreeWalker(lesson, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) if (!n.parentElement.closest('code, pre, .dpl')) parts.push(n.textContent);
        return parts;
      });
      assert.deepEqual(offending(prose), []);
      // The page numbers its own figures ("figure 7", a link); a figure of the report the text
      // cites says whose it is (before: "from Figure 4, what hides…" beside the page's Figure 4).
      if (lang === 'en') assert.deepEqual(prose.join(' ').match(/.{0,30}(?<!report's |report, )\bFigure \d.{0,10}/g) ?? [], []);
      const fields = await page.$$eval('.lesson code', (cs) => cs.map((c) => c.textContent).filter((c) => /^"\w+"$/.test(c)));
      assert.deepEqual(fields, [], 'no JSON field name');
      // The overview list: one link per exercise, numbered as the exercises are.
      const refs = await page.$$eval('.lesson a.ex-ref', (as) => as.map((a) => [a.dataset.exercise, a.textContent]));
      assert.deepEqual(refs, EXERCISE_ORDER.map((id, i) => [id, `${word} ${i + 1}`]));
      const address = await followInPageLink(page, '.lesson a.ex-ref[data-exercise="hand-trace"]', '#exercise-hand-trace', 80);
      assert.equal(address.after, address.before, 'the address keeps the page state');
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}

for (const lang of LANGS) {
  test(`${lang}: the explorer's own-schedule box and its stream hint give no command line or address parameter`, async () => {
    const catalogue = JSON.parse(await readFile(`${REPO}/web/locales/${lang}.json`, 'utf8'));
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}#view=timeline&lang=${lang}&ranks=4&microbatches=8`);
      await waitForTimeline(page, '.view-timeline');
      await page.click('.dpl-own > summary');
      await page.click('.dpl-own-from');
      await page.waitForSelector('.dpl-own-cli:not([hidden])');
      await page.$eval('.dpl-own-cli', (d) => { d.open = true; });
      const own = await page.$eval('.dpl-own', (d) => d.innerText);
      assert.doesNotMatch(own, /pipesim|--input|\bCLI\b/);
      // What it shows is the request itself, as data the box reads back.
      assert.equal(JSON.parse(await page.$eval('.dpl-own-cli code', (c) => c.textContent)).schedule, 'custom');
      // The stream view's hint (the button's title while communication is off) names the setting
      // to turn on, in the page's language, and no address parameter.
      const titles = await page.$$eval('.view-timeline [title]', (els) => els.map((e) => e.title));
      // (Arabic isolates its Latin terms, "all-to-all", in the text it writes: lib/bidi.js.)
      assert.ok(titles.some((title) => withoutIsolates(title) === catalogue['tl.streamsNeedComm']), titles.join(' | '));
      assert.deepEqual(offending(titles), []);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}
