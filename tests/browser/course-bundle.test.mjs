// The built course bundle (`make course-bundle`, dist/course/) in a stand-in of the course's lesson
// page (fixtures/course/, served by course-site.mjs): from the course's own origin and from
// another one, as a course author would try it. The figure registers through the course's LF,
// loads nothing until it nears the viewport, draws exactly the simulated ops, follows the course's
// language through 20 switches without leaving a worker, a listener or memory behind, and stays
// within its size budgets (issue 27: the script <= 30 KB gzipped, the first English figure <= 300
// KB gzipped fetched in total). Sizes are read from the built files, gzipped here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { useCourseSites, COURSE_BUNDLE } from './course-site.mjs';
import { openPage, waitForTimeline, readDrawnOps, expectedOps, screenshot, pipesim } from './helpers.mjs';
import { LOCALES, LANGS, localeOf, spokenLang } from '../../web/js/lib/locales.js';
import { loadLanguage, translator } from '../../web/js/lib/i18n.js';

const sites = useCourseSites();
const SCRIPT_BUDGET = 30 * 1024;
const FIRST_FIGURE_BUDGET = 300 * 1024;
// Issue 27, "Course look": the 8 x 20 DualPipe figure no taller than 600 px on a 1280 px wide
// screen (the course's own pipeline figure is 599 px there), and on a 390 x 844 phone no taller
// than one screen.
const PHONE = { width: 390, height: 844 };
const SCREENS = [{ width: 1280, height: 800, budget: 600 }, { ...PHONE, budget: PHONE.height }];
const SCHEDULE = '.lesson-figure[data-figure^="dualpipe-schedule"]';
const SWEEP = '.lesson-figure[data-figure^="dualpipe-sweep"]';

const gzipped = async (file) => gzipSync(await readFile(path.join(COURSE_BUNDLE, file)), { level: 9 }).length;

/** The bundle's files a page fetched from `origin` (paths relative to dist/course/). */
const bundleFiles = (requests, origin) => [...new Set(requests.filter((u) => u.startsWith(origin))
  .map((u) => new URL(u).pathname.slice(1)).filter((p) => p.startsWith('figures-dualpipe')))].sort();

/**
 * Waits until the figure in `host` has drawn its ops, holding on to nothing afterwards (an element
 * handle, as waitForSelector returns, would keep the old article's figure alive across switches).
 */
const figureDrawn = (page, host) => page.locator(`${host} .dpl-timeline .dpl-op`).first().waitFor({ timeout: 20000 });

/** The shadow root's frame label of the figure in `host` (a selector). */
const labelOf = (page, host) => page.$eval(`${host} dualpipe-lab-figure`, (h) => h.shadowRoot.querySelector('.dpl-frame-label')?.textContent ?? null);

let simulated = null;
async function expectedSchedule() {
  simulated ??= expectedOps((await pipesim()).simulate({ schedule: 'dualpipe', ranks: 8, microbatches: 20 }));
  return simulated;
}

test('the script is a small classic file; the bundle\'s stylesheet holds both of the widget\'s', async () => {
  const script = await gzipped('figures-dualpipe.js');
  console.log(`figures-dualpipe.js: ${(script / 1024).toFixed(1)} KB gzipped (budget ${SCRIPT_BUDGET / 1024} KB)`);
  assert.ok(script <= SCRIPT_BUDGET, `${script} bytes gzipped`);
  const text = await readFile(path.join(COURSE_BUNDLE, 'figures-dualpipe.js'), 'utf8');
  assert.doesNotMatch(text, /^\s*(import|export)\s/m, 'no module syntax: the course loads it with a plain <script src>');
  const css = await readFile(path.join(COURSE_BUNDLE, 'figures-dualpipe/generated/figure.css'), 'utf8');
  for (const selector of ['.dpl-legend', '.dpl-frame-head']) assert.ok(css.includes(selector), `${selector} (widgets.css, figure.css)`);
});

test('from the course\'s origin: the first figure is drawn from the bundle beside lesson.html, the one below it is not loaded, within the size budget', async () => {
  const { context, page, log } = await openPage(sites.browser);
  try {
    await page.goto(`${sites.course}lesson.html`);
    await waitForTimeline(page, SCHEDULE);
    const [drawn] = await readDrawnOps(page, SCHEDULE);
    assert.deepEqual(drawn, await expectedSchedule());
    assert.equal(await labelOf(page, SCHEDULE), translator('en')('fig.label.timeline'));
    // The sweep, 2,400 px further down, still shows its placeholder: nothing of it was loaded.
    assert.equal(await page.$eval(`${SWEEP} dualpipe-lab-figure`, (h) => h.shadowRoot.querySelector('.dpl-frame') === null
      && h.shadowRoot.querySelector('[aria-busy="true"]') !== null), true);
    assert.equal(page.workers().length, 1, 'one worker, for the one figure drawn');
    assert.deepEqual(log.requests.filter((u) => !u.startsWith(sites.course)), [], 'nothing from another origin');
    const files = bundleFiles(log.requests, sites.course);
    assert.deepEqual(files.filter((f) => f.endsWith('.woff2') || f.includes('/strings/')), [], 'an English figure fetches no font and no strings');
    // The simulator is the module's figures' build (wasm/bindings.cpp's entry points), the only one in the bundle.
    assert.deepEqual(files.filter((f) => f.endsWith('.wasm')), ['figures-dualpipe/generated/pipesim-figures.wasm']);
    await assert.rejects(readFile(path.join(COURSE_BUNDLE, 'figures-dualpipe/generated/pipesim.wasm')), { code: 'ENOENT' });
    let total = 0;
    for (const file of files) total += await gzipped(file);
    console.log(`first English figure: ${files.length} files, ${(total / 1024).toFixed(1)} KB gzipped (budget ${FIRST_FIGURE_BUDGET / 1024} KB): ${files.join(', ')}`);
    assert.ok(total <= FIRST_FIGURE_BUDGET, `${total} bytes gzipped`);
    await screenshot(page, 'course-bundle-same-origin.png');
    // Scrolled to, the sweep loads and draws, on the same worker.
    await page.$eval(SWEEP, (host) => host.scrollIntoView());
    await page.waitForSelector(`${SWEEP} .dpl-sweep-svg`, { timeout: 20000 });
    assert.equal(page.workers().length, 1);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('from another origin: the figure is drawn with its simulator in a worker, fetching only from the two origins', async () => {
  const { context, page, log } = await openPage(sites.browser);
  try {
    await page.goto(`${sites.course}lesson-cross.html`);
    await waitForTimeline(page, SCHEDULE);
    const [drawn] = await readDrawnOps(page, SCHEDULE);
    assert.deepEqual(drawn, await expectedSchedule());
    // A worker of the page's origin (a blob: stub importing the lab's sim-worker.js), not the
    // simulator running on the page's thread.
    const workers = page.workers().map((w) => w.url());
    assert.equal(workers.length, 1, workers.join(', '));
    assert.match(workers[0], new RegExp(`^blob:${sites.course.replace(/\/$/, '')}`));
    assert.ok(log.requests.some((u) => u === `${sites.lab}figures-dualpipe/generated/pipesim-figures.wasm`), 'the wasm comes from the lab');
    assert.deepEqual(log.requests.filter((u) => !u.startsWith(sites.course) && !u.startsWith(sites.lab) && !u.startsWith('blob:')), []);
    assert.deepEqual(bundleFiles(log.requests, sites.course), [], 'nothing of the bundle from the course\'s origin');
    await screenshot(page, 'course-bundle-cross-origin.png');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

/** The page's counters after a garbage collection (Chromium's Performance domain). */
async function countersAfterGc(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const get = (name) => metrics.find((m) => m.name === name).value;
  return { heap: get('JSHeapUsedSize'), nodes: get('Nodes'), listeners: get('JSEventListeners'), documents: get('Documents') };
}

/** Waits (up to 10 s) until the page has `count` workers, each extra one's close event at a time. */
async function workersSettle(page, count) {
  const deadline = Date.now() + 10_000;
  while (page.workers().length > count && Date.now() < deadline) {
    const extra = page.workers().slice(0, page.workers().length - count);
    let timer;
    await Promise.race([
      ...extra.map((worker) => new Promise((resolve) => worker.once('close', resolve))),
      new Promise((resolve) => { timer = setTimeout(resolve, deadline - Date.now()); }),
    ]);
    clearTimeout(timer);
  }
}

// The course's switch: the picker sets <html lang dir>, the page fetches the lesson in the new
// language (English where it has none) and replaces the whole article, then mounts the figures
// of the new one; nobody tells the old ones. 20 switches through the course's seven languages,
// from another origin (the harder case: a blob: worker each time).
test('20 language switches: each new figure speaks the new language, the old ones let go of everything', async () => {
  const { context, page, log } = await openPage(sites.browser);
  try {
    for (const { code } of LOCALES) await loadLanguage(spokenLang(code));
    await page.goto(`${sites.course}lesson-cross.html`);
    await figureDrawn(page, SCHEDULE);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    let baseline = null;
    let rendered = 1;
    const SWITCHES = 20;
    // Two whole rounds of the seven languages: every pack, font stylesheet and cache in place
    // (measured: the counters settle during the second round, then stay flat over 40 switches).
    const WARM = 2 * LOCALES.length - 1;
    for (let i = 1; i <= SWITCHES; i++) {
      const { code } = LOCALES[i % LOCALES.length];
      await page.click('.lang-picker-btn');
      await page.click(`.lang-item[data-code="${code}"]`);
      rendered += 1;
      await page.locator(`body[data-rendered="${rendered}"]`).waitFor();
      await figureDrawn(page, SCHEDULE);
      const spoken = spokenLang(code);
      assert.equal(await labelOf(page, SCHEDULE), translator(spoken)('fig.label.timeline'), `switch ${i} to ${code}`);
      // Its own language and direction, whatever the course's <html dir> (rtl for Arabic).
      assert.deepEqual(await page.$eval(`${SCHEDULE} dualpipe-lab-figure`, (h) => [h.shadowRoot.querySelector('.dpl-frame').lang, h.shadowRoot.querySelector('.dpl-frame').dir]),
        [spoken, localeOf(spoken).dir]);
      assert.equal(await page.evaluate(() => document.documentElement.lang), code);
      // A terminated worker leaves Playwright's list when its close event arrives, which under
      // load can come after the new figure has drawn: wait for it (a leaked worker never goes).
      await workersSettle(page, 1);
      assert.equal(page.workers().length, 1, `switch ${i}: one worker for the one figure on screen`);
      if (i === WARM) baseline = await countersAfterGc(cdp);
    }
    const last = await countersAfterGc(cdp);
    console.log(`after switch ${WARM} and ${SWITCHES} (the same language): ${JSON.stringify(baseline)} -> ${JSON.stringify(last)}`);
    assert.equal(await page.$$eval('dualpipe-lab-figure', (els) => els.length), 2, 'the figures of the article on screen');
    // With the release switched off, the 7 figures left behind between the two counts held 11,949
    // nodes, 189 listeners and 500 KB of heap (measured); released, the counts stay flat.
    // One figure left behind holds about 1,700 nodes; under load a few dozen nodes of the page's
    // own (a pending paint's, measured 1,792 -> 1,824 once on CI-like load) may not be collected yet.
    assert.ok(last.nodes <= baseline.nodes + 64, `DOM nodes: ${baseline.nodes} -> ${last.nodes}`);
    assert.ok(last.listeners <= baseline.listeners + 4, `event listeners: ${baseline.listeners} -> ${last.listeners}`);
    assert.ok(last.heap - baseline.heap < 384 * 1024, `JS heap: ${baseline.heap} -> ${last.heap}`);
    assert.equal(await page.$$eval('link[data-dualpipe-lab]', (links) => links.length), new Set(LOCALES.map((l) => l.font).filter(Boolean)).size,
      'one font stylesheet per script, however often its language comes back');
    await screenshot(page, 'course-bundle-after-switches.png');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

/** What the figure in `host` shows and wears, read inside its shadow root; the course's own values beside it. */
function figureLook(page, host) {
  return page.$eval(`${host} dualpipe-lab-figure`, (holder) => {
    const root = holder.shadowRoot;
    const frame = root.querySelector('.dpl-frame');
    const label = root.querySelector('.dpl-frame-label');
    const caption = root.querySelector('.dpl-frame-cap');
    const stats = root.querySelector('.dpl-lane-stats');
    // The course's variables as its own elements would resolve them.
    const probe = document.createElement('div');
    probe.style.color = 'var(--ink-soft)';
    document.body.append(probe);
    const inkSoft = getComputedStyle(probe).color;
    probe.remove();
    const course = getComputedStyle(document.documentElement);
    return {
      height: frame.getBoundingClientRect().height,
      caption: caption.textContent,
      captionFont: getComputedStyle(caption).fontFamily,
      captionColour: getComputedStyle(caption).color,
      statsFont: getComputedStyle(stats).fontFamily,
      courseBody: course.getPropertyValue('--font-body').trim(),
      courseMono: course.getPropertyValue('--font-mono').trim(),
      inkSoft,
      label: label.textContent,
      labelShown: label.innerText,
      brand: [...label.querySelectorAll('[lang]')].map((el) => [el.lang, el.textContent]),
      keysShown: [...root.querySelectorAll('.dpl-help')].some((p) => p.offsetHeight > 0),
    };
  });
}

// Measured, not assumed: each language the lab speaks at both screens, the course's own fonts and
// stylesheet around it (fixtures/course/course.css sets its --font-body and --font-mono).
test('the 8 x 20 DualPipe figure fits the course\'s height budgets in every language the lab speaks, in the course\'s type and caption line', async () => {
  const brand = translator('en')('app.title');
  for (const lang of LANGS) {
    await loadLanguage(lang);
    const t = translator(lang);
    for (const { width, height, budget } of SCREENS) {
      const { context, page, log } = await openPage(sites.browser, { viewport: { width, height } });
      try {
        await page.goto(`${sites.course}lesson.html?lang=${lang}`);
        await waitForTimeline(page, SCHEDULE);
        const [drawn] = await readDrawnOps(page, SCHEDULE);
        assert.deepEqual(drawn, await expectedSchedule(), 'the lesson\'s 8 x 20 DualPipe figure');
        // Its fonts in: a late web font would change the height measured.
        await page.evaluate(() => document.fonts.ready.then(() => true));
        const look = await figureLook(page, SCHEDULE);
        console.log(`${lang} at ${width} px: the figure is ${look.height.toFixed(1)} px tall (budget ${budget})`);
        assert.ok(look.height <= budget, `${lang} at ${width} px: ${look.height} px > ${budget}`);
        // The course's caption line, in its body face and soft ink; the keys stay behind the toggle.
        assert.equal(look.caption, t('fig.caption.timeline'));
        assert.ok(look.captionFont.endsWith(look.courseBody), `caption in ${look.captionFont}, the course's body is ${look.courseBody}`);
        assert.equal(look.captionColour, look.inkSoft);
        assert.ok(look.statsFont.endsWith(look.courseMono), `lane numbers in ${look.statsFont}, the course's mono is ${look.courseMono}`);
        assert.equal(look.keysShown, false, 'no paragraph of keys until asked for');
        // The lab's name keeps its English capitals whatever the figure's language.
        if (look.label.includes(brand)) {
          assert.deepEqual(look.brand, [['en', brand]]);
          assert.ok(look.labelShown.includes(brand.toLocaleUpperCase('en')), look.labelShown);
        }
        await screenshot(page, `course-look-${lang}-${width}.png`);
        assert.deepEqual(log.errors, []);
      } finally {
        await context.close();
      }
    }
  }
});

test('the figure\'s keyboard help opens and closes from the keyboard, a button saying whether it is expanded', async () => {
  const { context, page, log } = await openPage(sites.browser);
  try {
    await page.goto(`${sites.course}lesson.html`);
    await waitForTimeline(page, SCHEDULE);
    const figure = page.locator(`${SCHEDULE} dualpipe-lab-figure`);
    // The element focused inside the figure, and the help's state.
    const state = () => figure.evaluate((holder) => {
      const root = holder.shadowRoot;
      const button = root.querySelector('button[data-action="help"]');
      const help = root.getElementById(button.getAttribute('aria-controls'));
      return { focused: root.activeElement?.dataset.action ?? null, expanded: button.getAttribute('aria-expanded'), shown: help.offsetHeight > 0, text: help.textContent };
    });
    // Tab from the play button to the help toggle, as a keyboard user would.
    await figure.locator('button[data-action="play"]').focus();
    for (let i = 0; i < 12 && (await state()).focused !== 'help'; i++) await page.keyboard.press('Tab');
    assert.equal((await state()).focused, 'help', 'the help toggle is in the tab order');
    assert.deepEqual(await state(), { focused: 'help', expanded: 'false', shown: false, text: translator('en')('tl.help') });
    await page.keyboard.press('Enter');
    assert.deepEqual(await state(), { focused: 'help', expanded: 'true', shown: true, text: translator('en')('tl.help') });
    await page.keyboard.press('Space');
    assert.deepEqual(await state(), { focused: 'help', expanded: 'false', shown: false, text: translator('en')('tl.help') });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
