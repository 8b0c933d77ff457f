// Finding your way through the lesson (issue 29, item 6): a contents list that follows the reader
// (sticky beside the lesson on a wide screen, a button and a sheet on a phone), with each
// section's quiz questions and exercises done; figures numbered, and the text's mentions of a
// widget by its id turned into links to it ("figure 7"), so no widget id reaches the learner;
// and the optional deep dives (issue 29, item 10) marked as such, in the page's language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useSite, openPage, waitForTimeline, followInPageLink, REPO } from './helpers.mjs';

const site = useSite({ pipesim: false });
const quiz = JSON.parse(await readFile(`${REPO}/lessons/quiz.json`, 'utf8'));

test('wide screen: the contents list stays beside the lesson, marks the section read, and counts its activities', async () => {
  // Reduced motion: a click jumps rather than glides, so where it lands can be read at once.
  const { context, page, log } = await openPage(site.browser, { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  try {
    await page.goto(site.server.url);
    await waitForTimeline(page, '.sim-widget[data-sim-id="lead"]');
    await page.waitForSelector('.lesson-toc li');
    const entries = await page.$$eval('.lesson-toc-link', (as) => as.map((a) => a.querySelector('.lesson-toc-text').textContent));
    // An optional section's entry is its title and the word "optional" (the heading carries the
    // longer "Optional deep dive" tag).
    const sections = await page.$$eval('.lesson > h1, .lesson > h2', (hs) => hs.map((h) => {
      const title = [...h.childNodes].filter((n) => !n.classList?.contains('deep-dive-tag')).map((n) => n.textContent).join('').trim();
      return h.classList.contains('is-optional') ? `${title} optional` : title;
    }));
    assert.deepEqual(entries, sections, 'one entry per section, the title first');
    assert.ok(entries.includes('Ship it optional') && entries.includes('Exercises'), entries.join(' | '));
    assert.equal(await page.$eval('.lesson-toc-link[aria-current]', (a) => a.dataset.section), '0');

    // Scrolled down to the exercises, the list is still on screen and marks that section.
    await page.$eval('h2#exercises', (h) => h.scrollIntoView({ block: 'start' }));
    await page.waitForFunction(() => document.querySelector('.lesson-toc-link[aria-current]')?.getAttribute('href') === '#exercises');
    const box = await page.$eval('.lesson-toc', (n) => n.getBoundingClientRect().toJSON());
    assert.ok(box.top >= 0 && box.top < 100 && box.left > 900, `sticky beside the lesson: ${JSON.stringify(box)}`);
    // Sections above are read to the end; the exercises count their five exercises.
    const read = await page.$$eval('.lesson-toc-fill', (fs) => fs.map((f) => f.style.transform));
    assert.equal(read[1], 'scaleX(1)');
    await page.waitForFunction(() => document.querySelector('.lesson-toc-link[href="#exercises"] .lesson-toc-count')?.textContent.includes('0/5'));

    // Answering the opening question right counts in the title's entry.
    const pre = quiz.questions.findIndex((q) => q.stage === 'pre');
    await page.$eval('#quiz-pre-q0', (q) => q.scrollIntoView());
    await page.check(`#quiz-pre-q0 input[value="${quiz.questions[pre].correct}"]`);
    await page.click('#quiz-pre-q0 [data-action="quiz-check"]');
    await page.waitForFunction(() => document.querySelector('.lesson-toc-link[data-section="0"] .lesson-toc-count')?.textContent.startsWith('✓ 1/1'));

    // A click goes to the section and puts the focus on its heading.
    await page.click('.lesson-toc-link[href="#key-terms"]');
    await page.waitForFunction(() => document.activeElement?.id === 'key-terms');
    await page.waitForFunction(() => Math.abs(document.querySelector('#key-terms').getBoundingClientRect().top) < 40);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('phone: a Contents button appears past the opening figure and opens the list as a sheet', async () => {
  const { context, page, log } = await openPage(site.browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    await page.goto(`${site.server.url}#lang=hi`);
    await waitForTimeline(page, '.sim-widget[data-sim-id="lead"]');
    await page.waitForSelector('.lesson-toc li', { state: 'attached' });
    // On the first screen nothing covers the opening figure.
    assert.equal(await page.$eval('.lesson-toc-toggle', (b) => b.hidden), true);
    assert.equal(await page.$eval('.lesson-toc', (n) => getComputedStyle(n).display), 'none');
    await page.$eval('h2#problem', (h) => h.scrollIntoView({ block: 'start' }));
    await page.waitForSelector('.lesson-toc-toggle:not([hidden])');
    assert.equal(await page.$eval('.lesson-toc-toggle', (b) => b.textContent), 'विषय-सूची');
    await page.click('.lesson-toc-toggle');
    await page.waitForSelector('.lesson-toc.is-open');
    assert.equal(await page.$eval('.lesson-toc-toggle', (b) => b.getAttribute('aria-expanded')), 'true');
    // Its entries are within the screen's width, and Escape closes it back onto the button.
    const width = await page.$eval('.lesson-toc', (n) => n.getBoundingClientRect().width);
    assert.ok(width <= 390);
    await page.keyboard.press('Escape');
    await page.waitForSelector('.lesson-toc:not(.is-open)', { state: 'attached' });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('lesson-toc-toggle')), true);
    await page.click('.lesson-toc-toggle');
    await page.click('.lesson-toc-link[href="#exercises"]');
    await page.waitForFunction(() => document.activeElement?.id === 'exercises');
    assert.equal(await page.$eval('.lesson-toc', (n) => n.classList.contains('is-open')), false);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('figures are numbered and the text links to them: no widget id reaches the learner', async () => {
  // Reduced motion: the link jumps rather than glides, so where it lands can be read at once.
  const { context, page, log } = await openPage(site.browser, { reducedMotion: 'reduce' });
  try {
    await page.goto(site.server.url);
    await waitForTimeline(page, '.sim-widget[data-sim-id="lead"]');
    await page.waitForSelector('.lesson h2#exercises');
    const ids = await page.$$eval('.lesson .sim-widget', (ws) => ws.map((w) => w.dataset.simId));
    const figures = await page.$$eval('.lesson .sim-widget', (ws) => ws.map((w) => [w.id, w.dataset.figure]));
    assert.deepEqual(figures, ids.map((_, i) => [`figure-${i + 1}`, String(i + 1)]));
    // No code element, badge or label shows a widget's id.
    const codes = await page.$$eval('.lesson code', (cs) => cs.map((c) => c.textContent.trim()));
    assert.deepEqual(codes.filter((c) => ids.includes(c)), []);
    await page.waitForSelector('.sim-widget[data-sim-id="lead"] .lw-figure');
    assert.equal(await page.$eval('.sim-widget[data-sim-id="lead"] .lw-figure', (s) => s.textContent), 'Figure 1');
    assert.equal(await page.$('.lw-id'), null);
    // The text's "`fb24` widget" is a link to that figure.
    const fb24 = ids.indexOf('fb24') + 1;
    const links = await page.$$eval(`.lesson a.fig-ref[data-figure="${fb24}"]`, (as) => as.map((a) => a.textContent));
    assert.ok(links.length > 0 && links.every((text) => text === `figure ${fb24}`), links.join());
    await page.click(`.lesson a.fig-ref[data-figure="${fb24}"]`);
    await page.waitForFunction((n) => Math.abs(document.querySelector(`#figure-${n}`).getBoundingClientRect().top) < 40, fb24);
    assert.equal(await page.evaluate(() => document.activeElement?.closest('.sim-widget')?.dataset.simId), 'fb24');
    assert.equal(await page.evaluate(() => location.hash), '', 'the address keeps the page state, not the figure');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

// Issue 29, item 10: what lies off the core path says so, in each language, where it starts (a tag
// on its heading) and along its length (its body in a .deep-dive box), as the lesson marks it.
for (const [lang, tag] of [['en', 'Optional deep dive'], ['hi', 'वैकल्पिक गहन अध्ययन']]) {
  test(`${lang}: every optional deep dive is tagged on its heading and boxed to its end`, async () => {
    const markdown = await readFile(`${REPO}/lessons/dualpipe.${lang}.md`, 'utf8');
    const marked = [...markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#+ .*<!--[^>]*\boptional\b[^>]*-->$/gm)].length;
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}#lang=${lang}`);
      await waitForTimeline(page, '.sim-widget[data-sim-id="lead"]');
      await page.waitForSelector('.lesson h2#exercises');
      const dives = await page.$$eval('.lesson .is-optional', (hs) => hs.map((h) => ({
        tag: h.querySelector('.deep-dive-tag')?.textContent,
        boxed: h.nextElementSibling?.classList.contains('deep-dive') ?? false,
      })));
      assert.ok(marked >= 5, `the lesson marks its deep dives (${marked})`);
      assert.equal(dives.length, marked);
      assert.deepEqual(dives.filter((d) => d.tag !== tag || !d.boxed), []);
      // A deep dive ends at the next heading of its level: the core path's "What stays exposed"
      // follows the combined-1F1B deep dive outside its box.
      const outside = await page.$$eval('.lesson h4:not(.is-optional)', (hs) => hs.map((h) => Boolean(h.closest('.deep-dive'))));
      assert.ok(outside.length > 0 && outside.every((inBox) => !inBox));
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}

// Issue 29, item 6: an exercise links back to what it uses. Exercise 4 counts the models of the
// lesson's memory table (the deep dive "What the second copy costs"), which is no numbered
// figure: it links to that table by its section's title, and the link lands on it.
for (const [lang, text] of [['en', 'the table in “What the second copy costs”'], ['hi', '“दूसरी कॉपी की क़ीमत” वाली तालिका']]) {
  test(`${lang}: exercise 4 links back to the lesson's memory table it uses`, async () => {
    const { context, page, log } = await openPage(site.browser, { reducedMotion: 'reduce' });
    try {
      await page.goto(`${site.server.url}#exercise=param-overhead&lang=${lang}`);
      await page.waitForSelector('#exercise-param-overhead .dpl-ex-tables a', { timeout: 30000 });
      assert.equal(await page.$eval('#exercise-param-overhead .dpl-ex-tables a', (a) => a.textContent), text);
      const address = await followInPageLink(page, '#exercise-param-overhead .dpl-ex-tables a', '.memory-widget[data-memory-id="mem"]', 40);
      assert.ok(await page.evaluate(() => document.activeElement?.matches('.memory-widget[data-memory-id="mem"]')), 'the table itself has the focus');
      assert.equal(address.after, address.before, 'the address keeps the page state');
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}

// Exercise 3's prompt cites the report's Figures 4 and 5; the links under it go to the lesson's
// own numbered figures, and say so (before: "The figures it uses: figure 4, figure 5"; in Chinese
// "用到的数字", "the numbers it uses").
for (const [lang, lead] of [['en', 'The lesson’s figures it uses:'], ['zh', '它用到的课程图：']]) {
  test(`${lang}: exercise 3's figure links name the lesson's figures, apart from the report's it cites`, async () => {
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}#exercise=overlap-window&lang=${lang}`);
      await page.waitForSelector('#exercise-overlap-window .dpl-ex-figures a.fig-ref', { timeout: 30000 });
      const text = await page.$eval('#exercise-overlap-window .dpl-ex-figures', (p) => p.textContent);
      assert.ok(text.startsWith(lead), text);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}
