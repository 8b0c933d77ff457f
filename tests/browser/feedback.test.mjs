// The page's feedback loops in Chromium (issue 11, item 6): a quiz answer can be retried to
// correct with the first try kept apart; a rejected setting is said in plain words beside its
// field with a one-click fix while the last good result stays drawn, dimmed and marked out of
// date (explorer, lesson widget, sweep, planner); with nothing good yet, the message stands in
// place of the result. Expected fixes are worked out by hand from the shape rules in the
// comments, never read back from the page's own helpers. Screenshots of each state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useSite, openPage, screenshot, waitForTimeline, readDrawnOps, expectedOps, REPO } from './helpers.mjs';
import { LANGS, localeOf } from '../../web/js/lib/locales.js';
import { FONT_SETS } from '../../web/js/lib/font-sets.js';

const KEY = 'aifs:progress:v1';
const LESSON = 'phases/10-llms-from-scratch/19-dualpipe-parallelism';
const quiz = JSON.parse(readFileSync(path.join(REPO, 'lessons/quiz.json'), 'utf8'));

const site = useSite();

/** The out-of-date state of `scope`: {stale, note, ops drawn under it}. */
const staleState = (page, scope) => page.$eval(scope, (el) => ({
  stale: el.classList.contains('dpl-is-stale'),
  note: el.querySelector(':scope > .dpl-stale-note')?.textContent ?? '',
  ops: el.querySelectorAll('.dpl-op').length,
}));

test('a wrong quiz answer can be retried to correct; the first try is kept apart and completion counts the correct answer', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(site.server.url);
    await page.waitForSelector('#quiz-pre-q0', { timeout: 30000 });
    const q = quiz.questions.find((x) => x.stage === 'pre');
    const wrongPick = (q.correct + 1) % q.options.length;
    await page.check(`#quiz-pre-q0 .dpl-quiz-option[data-index="${wrongPick}"] input`);
    await page.click('#quiz-pre-q0 [data-action="quiz-check"]');
    await page.waitForSelector('#quiz-pre-q0[data-answered="wrong"]');
    const open = await page.$eval('#quiz-pre-q0', (f) => ({
      enabled: [...f.querySelectorAll('input')].every((i) => !i.disabled),
      marks: [...f.querySelectorAll('.dpl-quiz-mark')].map((m) => m.textContent),
    }));
    assert.equal(open.enabled, true, 'the question stays open after a wrong answer');
    assert.equal(open.marks[wrongPick], '✗');
    assert.equal(open.marks[q.correct], '', 'the right option is not given away');
    await screenshot(page, 'feedback-quiz-wrong.png', { clip: await page.$eval('#quiz-pre-q0', (f) => { f.scrollIntoView(); const r = f.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }) });

    await page.check(`#quiz-pre-q0 .dpl-quiz-option[data-index="${q.correct}"] input`);
    await page.click('#quiz-pre-q0 [data-action="quiz-check"]');
    await page.waitForSelector('#quiz-pre-q0[data-answered="correct"]');
    const entry = (await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), KEY)).lessons[LESSON].answers['pre-q0'];
    assert.deepEqual({ picked: entry.picked, correct: entry.correct, first: entry.first, wrong: entry.wrong, tries: entry.tries },
      { picked: q.correct, correct: true, first: { picked: wrongPick, correct: false }, wrong: [wrongPick], tries: 2 });
    assert.match(await page.$eval('.dpl-progress-text', (p) => p.textContent), /quiz 1 of 6 right \(0 on the first try\)/);
    assert.match(await page.$eval('#quiz-pre-q0 .dpl-quiz-feedback', (f) => f.textContent), new RegExp(q.explanation.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await screenshot(page, 'feedback-quiz-retried.png', { clip: await page.$eval('#quiz-pre-q0', (f) => { const r = f.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }) });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('explorer: a rejected rank count keeps the last run drawn and out of date, and the fix beside the field repairs it', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=dualpipe&ranks=8&microbatches=16`);
    await waitForTimeline(page, '#timeline-root');
    const before = await readDrawnOps(page, '#timeline-root');
    await page.fill('input[name="ranks"]', '7');
    await page.press('input[name="ranks"]', 'Enter');
    await page.waitForSelector('#timeline-root.dpl-is-stale');
    const state = await staleState(page, '#timeline-root');
    assert.match(state.note, /Out of date/);
    assert.deepEqual(await readDrawnOps(page, '#timeline-root'), before, 'the last good run stays drawn');
    const msg = await page.$eval('.dpl-field-ranks .dpl-field-msg', (p) => ({ text: p.textContent, fix: p.querySelector('.dpl-fix')?.textContent }));
    assert.match(msg.text, /^DualPipe needs an even number of ranks/);
    // Odd 7: the nearest even rank count (ties upward) that runs 16 micro-batches (M >= 2R) is 8.
    assert.equal(msg.fix, 'use 8');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'feedback-explorer-stale.png');
    await page.click('.dpl-field-ranks .dpl-fix');
    await page.waitForFunction(() => !document.querySelector('#timeline-root').classList.contains('dpl-is-stale'));
    assert.equal(await page.inputValue('input[name="ranks"]'), '8');
    assert.equal(await page.$eval('.dpl-field-ranks .dpl-field-msg', (p) => p.textContent), '');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('lesson widget: its own controls run F&B 2.4 (the text follows at the simulator\'s precision) and a bad count goes stale with a fix', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(site.server.url);
    const widget = '.sim-widget[data-sim-id="dp8"]';
    await page.waitForSelector(widget, { timeout: 30000 });
    await page.$eval(widget, (w) => w.scrollIntoView());
    await waitForTimeline(page, widget);
    await page.fill(`${widget} input[name="overlapped"]`, '2.4');
    await page.press(`${widget} input[name="overlapped"]`, 'Enter');
    const config = { schedule: 'dualpipe', ranks: 8, microbatches: 16, costs: { forward: 1, backward: 2, weight: 1, overlapped: 2.4, p2pLatency: 0 } };
    const expected = site.api.simulate(config);
    // (P/2 - 1)(F&B + B - 3W) = 3 x 1.4 = 4.2 per rank.
    await page.waitForFunction(() => document.querySelector('.sim-number[data-ref="dp8.bubble.max"]')?.dataset.live === '4.2');
    const [drawn] = await readDrawnOps(page, widget);
    assert.deepEqual(drawn, expectedOps(expected));

    await page.fill(`${widget} input[name="microbatches"]`, '10');
    await page.press(`${widget} input[name="microbatches"]`, 'Enter');
    await page.waitForSelector(`${widget} .lw-run.dpl-is-stale`);
    assert.deepEqual((await readDrawnOps(page, widget))[0], drawn, 'the last good run stays drawn');
    const msg = await page.$eval(`${widget} .dpl-field-msg[id$="-microbatches-msg"]`, (p) => ({ text: p.textContent, fix: p.querySelector('.dpl-fix')?.textContent }));
    assert.match(msg.text, /at least 2 micro-batches per rank: 16 for 8 ranks/);
    // 10 on 8 ranks: DualPipe needs M >= 2R = 16 and even, so the nearest count that runs is 16.
    assert.equal(msg.fix, 'use 16');
    await screenshot(page, 'feedback-lesson-widget-stale.png');
    await page.click(`${widget} .dpl-fix`);
    await page.waitForFunction((w) => !document.querySelector(`${w} .lw-run`).classList.contains('dpl-is-stale'), widget);
    assert.equal(await page.inputValue(`${widget} input[name="microbatches"]`), '16');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('sweep: settings no schedule can run are said with a fix, over the last good sweep or in its place', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=sweep&axis=ranks&microbatches=0`);
    await page.waitForSelector('.view-sweep .dpl-error', { timeout: 30000 });
    const first = await page.$eval('.view-sweep .dpl-error', (e) => ({ text: e.textContent, fix: e.querySelector('.dpl-fix'), lines: document.querySelectorAll('.view-sweep .dpl-sweep-line').length }));
    assert.equal(first.lines, 0, 'no empty charts');
    assert.match(first.text, /micro-batches/);
    // One fix on screen, beside the field: DualPipe (the form's schedule) on 8 ranks needs M >= 16.
    assert.equal(first.fix, null);
    assert.equal(await page.$eval('.dpl-field-microbatches .dpl-fix', (b) => b.textContent), 'use 16');
    await screenshot(page, 'feedback-sweep-error.png');
    await page.click('.dpl-field-microbatches .dpl-fix');
    await page.waitForSelector('.view-sweep .dpl-sweep-svg');
    await page.waitForFunction(() => !document.querySelector('.view-sweep .dpl-error'));

    await page.fill('input[name="microbatches"]', '0');
    await page.press('input[name="microbatches"]', 'Enter');
    await page.waitForSelector('.view-sweep .dpl-sweep-result.dpl-is-stale');
    const stale = await staleState(page, '.view-sweep .dpl-sweep-result');
    assert.match(stale.note, /Out of date/);
    assert.ok(await page.$('.view-sweep .dpl-sweep-result .dpl-sweep-svg'), 'the last good sweep stays');
    await screenshot(page, 'feedback-sweep-stale.png');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('planner: a bad field keeps the last plan, dimmed and out of date, with the preset\'s value one click away; outcomes read as words', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    const out = '.view-planner .dpl-planner-output';
    await page.goto(`${site.server.url}#view=planner`);
    await page.selectOption('.view-planner select[name="preset"]', 'deepseek-v3-2048-h800');
    await page.waitForSelector(`${out} .dpl-planner-table[data-schedule="dualpipe"]`, { timeout: 20000 });
    const topics = await page.$$eval(`${out} .dpl-planner-topic`, (ts) => ts.map((t) => t.textContent));
    const tags = await page.$$eval(`${out} .dpl-planner-reasoning li`, (ls) => ls.map((l) => l.dataset.topic));
    assert.ok(topics.every((text, i) => text !== tags[i]), 'no rule tag is shown as a topic');
    const gpus = '.view-planner input[name="cluster.gpus"]';
    await page.fill(gpus, '-1');
    await page.press(gpus, 'Tab');
    await page.waitForSelector(`${out}.dpl-is-stale`);
    assert.ok(await page.$(`${out} .dpl-planner-table`), 'the last good plan stays');
    const msg = await page.$eval('.view-planner .dpl-field-msg[data-path="/cluster/gpus"]', (p) => ({ text: p.textContent, fix: p.querySelector('.dpl-fix')?.textContent }));
    assert.doesNotMatch(msg.text, /cluster\.gpus/, 'the field is named in words, not by its key');
    assert.equal(msg.fix, 'use 2048', 'the DeepSeek-V3 preset has 2048 GPUs');
    await screenshot(page, 'feedback-planner-stale.png', { fullPage: true });
    await page.click('.view-planner .dpl-field-msg[data-path="/cluster/gpus"] .dpl-fix');
    await page.waitForFunction((o) => !document.querySelector(o).classList.contains('dpl-is-stale'), out);

    // A model that fits one GPU: a recommendation, announced politely, not an error.
    await page.selectOption('.view-planner select[name="preset"]', 'dense-7b-8gpu');
    await page.waitForSelector(`${out} .dpl-planner-verdict[data-kind="recommend"]`);
    const verdict = await page.$eval(`${out} .dpl-planner-verdict`, (v) => ({ role: v.getAttribute('role'), text: v.textContent }));
    assert.equal(verdict.role, 'status');
    assert.match(verdict.text, /data parallelism only/);
    assert.doesNotMatch(verdict.text, /fits-one-gpu/);
    await screenshot(page, 'feedback-planner-recommend.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a page in a language with a script font (Hindi) draws its text in the shipped font; the English page fetches no font', async () => {
  for (const lang of LANGS) {
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}#lang=${lang}`);
      await waitForTimeline(page, '.sim-widget');
      await page.evaluate(() => document.fonts.ready);
      const set = localeOf(lang).font;
      const family = set && FONT_SETS[set].family;
      const fonts = await page.evaluate((name) => [...document.fonts].filter((f) => f.family.replaceAll('"', '') === name && f.status === 'loaded').length, family);
      const woff2 = log.requests.filter((u) => u.endsWith('.woff2'));
      if (family) {
        assert.ok(fonts >= 1, 'the shipped face is loaded');
        assert.ok(woff2.every((u) => u.startsWith(site.server.url)), 'from the page\'s own origin');
        // Headings and body text list the shipped face first.
        const stack = await page.$eval('.lesson p', (p) => getComputedStyle(p).fontFamily);
        assert.ok(stack.replaceAll('"', '').startsWith(family), stack);
        await screenshot(page, `feedback-font-${lang}.png`);
      } else {
        assert.deepEqual(woff2, []);
      }
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('on a phone, a rejected setting unfolds the settings so its field and fix are on screen', async () => {
  for (const lang of LANGS) {
    const { context, page, log } = await openPage(site.browser, { viewport: { width: 390, height: 844 } });
    try {
      // The settings start folded on a narrow screen; a link with an odd rank count for DualPipe.
      await page.goto(`${site.server.url}#view=timeline&ranks=3&lang=${lang}`);
      await page.waitForSelector('.view-timeline .dpl-error');
      await page.waitForSelector('.dpl-field-ranks .dpl-fix');
      assert.equal(await page.$eval('#side-panel', (d) => d.open), true);
      // The nearest even count: 4.
      const fix = page.locator('.dpl-field-ranks .dpl-fix');
      assert.ok(await fix.isVisible());
      await fix.scrollIntoViewIfNeeded();
      await screenshot(page, `feedback-phone-field-unfolded-${lang}.png`);
      await fix.click();
      await waitForTimeline(page, '.view-timeline');
      assert.equal(await page.$$eval('.view-timeline .dpl-rank-label', (l) => l.length), 4);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});
