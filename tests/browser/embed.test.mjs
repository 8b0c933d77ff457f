// Each embed mode renders in Chromium: embed.html in an iframe (reporting its height by
// postMessage, and still working at a fixed height), the classic-script figure widget through a
// course-style window.LF, and the <dualpipe-timeline> custom element. Host pages are served by
// request interception on the same origin, under the same CSP as the site. Embeds also take the
// communication model and the stream view.
import { test } from 'node:test';
import { LOCALES } from '../../web/js/lib/locales.js';
import { FONT_SETS } from '../../web/js/lib/font-sets.js';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, readDrawnOps, expectedOps, expectedParts, screenshot, servePages, hostHtml as html } from './helpers.mjs';

const site = useSite();
const hostPages = (page, files) => servePages(page, site.server.url, files);

test('embed.html in an iframe renders the timeline and reports its height to the parent', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await hostPages(page, {
      'iframe.html': ['text/html', html('<iframe id="auto" title="DualPipe" src="/embed.html?widget=timeline&schedule=1f1b&ranks=4&microbatches=8&theme=dark" width="900" height="150"></iframe><iframe id="fixed" title="DualPipe fixed" src="/embed.html?widget=sweep&ranks=4" width="700" height="300"></iframe>', '<script src="listen.js"></script>')],
      'listen.js': ['text/javascript', `window.heights = []; addEventListener('message', (e) => { if (e.data && e.data.type === 'dualpipe-lab:height') { window.heights.push(e.data.height); document.getElementById('auto').height = e.data.height; } });`],
    });
    await page.goto(`${site.server.url}__test__/iframe.html`);
    const frame = page.frame({ url: /theme=dark/ });
    await waitForTimeline(frame);
    await page.waitForFunction(() => window.heights.some((h) => h > 300));
    const lanes = await readDrawnOps(frame);
    assert.deepEqual(lanes[0], expectedOps(site.api.simulate({ schedule: '1f1b', ranks: 4, microbatches: 8 })));
    assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), 'dark');
    // The iframe was resized to the reported height: the widget shows without inner scrolling.
    const { height, inner } = await page.evaluate(() => ({ height: Number(document.getElementById('auto').height), inner: window.heights.at(-1) }));
    assert.equal(height, inner);
    // A fixed-height iframe still works: the sweep renders and its page scrolls.
    const fixed = page.frame({ url: /widget=sweep/ });
    await fixed.waitForSelector('.dpl-sweep-svg');
    assert.equal(await fixed.$$eval('.dpl-sweep-figure', (f) => f.length), 2);
    await screenshot(page, 'embed-iframe.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('embed.html shows a bad parameter\'s message in place of the widget', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}embed.html?widget=timeline&schedule=dualpipe&ranks=8&microbatches=10`);
    await page.waitForSelector('.dpl-error');
    // The rule in plain words, then the simulator's message for the embed's author.
    assert.equal(await page.$eval('.dpl-error-message', (p) => p.textContent), 'DualPipe needs at least 2 micro-batches per rank: 16 for 8 ranks');
    assert.equal(await page.$eval('.dpl-error-detail', (p) => p.textContent), 'microbatches must be >= 2 * ranks = 16 for dualpipe (got 10)');
    await page.goto(`${site.server.url}embed.html?widget=pie`);
    await page.waitForSelector('.dpl-error');
    assert.equal(await page.$eval('.dpl-error-message', (p) => p.textContent), 'widget must be timeline or sweep (got "pie")');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the classic-script figure widget registers with the course\'s LF and mounts, themed by its variables', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    // A stand-in for the course's lesson-figures.js: LF.register({name: fn}); fn(host, config).
    await hostPages(page, {
      'course.html': ['text/html', html('<div class="lesson-figure" id="fig" data-figure=\'dualpipe-schedule {"ranks":4,"microbatches":8}\'></div><div class="lesson-figure" id="sweep" data-figure=\'dualpipe-sweep {"ranks":4}\'></div>',
        '<link rel="stylesheet" href="course.css"><script src="lesson-figures.js"></script><script src="/js/embed/figure-widget.js"></script>', '<script src="mount.js"></script>').replace('<html lang="en">', '<html lang="en" data-theme="dark">')],
      'course.css': ['text/css', ':root{--bg:#fafaf5;--ink:#1a1a1a;--blueprint:#3553ff} [data-theme="dark"]{--bg:#0a0d1a;--ink:#e8e6dc;--blueprint:#6b8eff} body{background:var(--bg);color:var(--ink)}'],
      'lesson-figures.js': ['text/javascript', `(function(){var FIGS={};window.LESSON_FIGURES=FIGS;window.LF={register:function(o){for(var k in o)FIGS[k]=o[k];}};
        window.mountLessonFigures=function(){document.querySelectorAll('.lesson-figure[data-figure]').forEach(function(host){var spec=host.dataset.figure.trim();var name=spec.split(/\\s+/)[0];var cfg=JSON.parse(spec.slice(name.length).trim()||'{}');FIGS[name](host,cfg);});};})();`],
      'mount.js': ['text/javascript', 'window.mountLessonFigures();'],
    });
    await page.goto(`${site.server.url}__test__/course.html`);
    await waitForTimeline(page, '#fig');
    const types = await page.evaluate(() => [typeof window.LESSON_FIGURES['dualpipe-schedule'], typeof window.LESSON_FIGURES['dualpipe-schedule'].mount, typeof window.LESSON_FIGURES['dualpipe-sweep']]);
    assert.deepEqual(types, ['function', 'function', 'function']);
    const [drawn] = await readDrawnOps(page, '#fig');
    assert.deepEqual(drawn, expectedOps(site.api.simulate({ schedule: 'dualpipe', ranks: 4, microbatches: 8 })));
    // In its shadow root, the course's dark theme picks the widget's dark palette: a full
    // backward in the dark theme's backward colour (widgets.css --dpl-op-B), on the course's --bg.
    const fill = await page.$eval('#fig .dpl-cell.k-B.d-0', (r) => getComputedStyle(r).fill);
    assert.equal(fill, 'rgb(180, 80, 26)');
    await page.waitForSelector('#sweep .dpl-sweep-svg');
    await screenshot(page, 'embed-figure-dark.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('without a course LF, the figure widget creates a minimal one that can mount figures', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await hostPages(page, {
      'bare.html': ['text/html', html('<div class="lesson-figure" data-figure=\'dualpipe-schedule {"schedule":"zb-h1","ranks":4,"microbatches":6}\'></div>', '<script src="/js/embed/figure-widget.js"></script>', '<script src="go.js"></script>')],
      'go.js': ['text/javascript', 'window.LF.mountAll();'],
    });
    await page.goto(`${site.server.url}__test__/bare.html`);
    await waitForTimeline(page);
    const [drawn] = await readDrawnOps(page);
    assert.deepEqual(drawn, expectedOps(site.api.simulate({ schedule: 'zb-h1', ranks: 4, microbatches: 6 })));
    assert.deepEqual(Object.keys(await page.evaluate(() => window.LF.figures)).sort(), ['dualpipe-schedule', 'dualpipe-sweep']);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the <dualpipe-timeline> custom element renders in light DOM and follows its attributes', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await hostPages(page, {
      'element.html': ['text/html', html('<dualpipe-timeline id="el" schedule="gpipe" ranks="4" microbatches="6" theme="light"></dualpipe-timeline><dualpipe-timeline id="bad" schedule="dualpipe" ranks="5"></dualpipe-timeline>',
        '<script type="module" src="/js/embed/dualpipe-timeline-element.js"></script>')],
    });
    await page.goto(`${site.server.url}__test__/element.html`);
    await waitForTimeline(page, '#el');
    assert.equal(await page.$eval('#el', (el) => el.shadowRoot), null);
    assert.equal(await page.$$eval('#el .dpl-rank-label', (l) => l.length), 4);
    await page.$eval('#el', (el) => { el.setAttribute('ranks', '6'); el.setAttribute('schedule', '1f1b'); });
    await page.waitForFunction(() => document.querySelectorAll('#el .dpl-rank-label').length === 6);
    const [drawn] = await readDrawnOps(page, '#el');
    assert.deepEqual(drawn, expectedOps(site.api.simulate({ schedule: '1f1b', ranks: 6, microbatches: 6 })));
    await page.waitForSelector('#bad .dpl-error');
    assert.match(await page.$eval('#bad .dpl-error-message', (p) => p.textContent), /^DualPipe needs an even number of ranks/);
    assert.equal(await page.$eval('#bad .dpl-error-detail', (p) => p.textContent), 'ranks must be an even integer >= 2 for dualpipe (got 5)');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a Hindi <dualpipe-timeline> declares the Devanagari web font in its host page, so its letters are not boxes', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await hostPages(page, {
      'hi.html': ['text/html', html('<dualpipe-timeline id="el" schedule="1f1b" ranks="4" microbatches="8" lang="hi"></dualpipe-timeline>',
        '<script type="module" src="/js/embed/dualpipe-timeline-element.js"></script>')],
    });
    await page.goto(`${site.server.url}__test__/hi.html`);
    await waitForTimeline(page, '#el');
    await page.evaluate(() => document.fonts.ready);
    const faces = await page.evaluate(() => [...document.fonts].filter((f) => f.family.replaceAll('"', '') === 'DPL Devanagari').map((f) => f.status));
    assert.ok(faces.includes('loaded'), faces.join(', '));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('embed.html in a language of another script loads that script\'s web font, so its letters are not boxes', async () => {
  // Every language with a font set but Hindi, whose font embed.html's own stylesheet declares.
  for (const { code, font } of LOCALES.filter((l) => l.font && l.strings && l.code !== 'hi')) {
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}embed.html?widget=timeline&schedule=1f1b&ranks=4&microbatches=8&lang=${code}`);
      await waitForTimeline(page);
      const family = FONT_SETS[font].family;
      await page.waitForFunction((f) => [...document.fonts].some((face) => face.family.replaceAll('"', '') === f), family);
      await page.evaluate(() => document.fonts.ready);
      const faces = await page.evaluate((f) => [...document.fonts].filter((face) => face.family.replaceAll('"', '') === f).map((face) => face.status), family);
      assert.ok(faces.includes('loaded'), `${code}: ${family} ${faces.join(', ')}`);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('embeds take the communication model (flat, nested or as attributes) and can start with the streams expanded', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    const partsOf = (scope) => page.$$eval(`${scope} .dpl-timeline-svg [data-part]`, (rs) => rs.length);
    const expectedCount = (config) => expectedParts(site.api.simulate(config)).length;
    await page.goto(`${site.server.url}embed.html?widget=timeline&ranks=4&microbatches=8&commRatio=1&commLayers=2&streams=1`);
    await page.waitForSelector('.dpl-timeline-svg [data-part]');
    assert.equal(await partsOf('body'), expectedCount({ schedule: 'dualpipe', ranks: 4, microbatches: 8, costs: { comm: { ratio: 1, layers: 2 } } }));
    assert.equal(await page.getAttribute('[data-action="streams"]', 'aria-pressed'), 'true');

    await hostPages(page, {
      'comm.html': ['text/html', html('<div class="lesson-figure" id="fig" data-figure=\'dualpipe-schedule {"ranks":4,"microbatches":8,"streams":1,"costs":{"comm":{"ratio":0.5,"attnShare":0.25}}}\'></div><dualpipe-timeline id="el" schedule="1f1b" ranks="4" microbatches="8" comm-ratio="1" streams="1"></dualpipe-timeline>',
        '<script src="/js/embed/figure-widget.js"></script><script type="module" src="/js/embed/dualpipe-timeline-element.js"></script>', '<script src="go.js"></script>')],
      'go.js': ['text/javascript', 'window.LF.mountAll();'],
    });
    await page.goto(`${site.server.url}__test__/comm.html`);
    await page.waitForSelector('#fig .dpl-timeline-svg [data-part]');
    await page.waitForSelector('#el .dpl-timeline-svg [data-part]');
    assert.equal(await partsOf('#fig'), expectedCount({ schedule: 'dualpipe', ranks: 4, microbatches: 8, costs: { comm: { ratio: 0.5, attnShare: 0.25 } } }));
    assert.equal(await partsOf('#el'), expectedCount({ schedule: '1f1b', ranks: 4, microbatches: 8, costs: { comm: { ratio: 1 } } }));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('embeds take timing=runtime the same way in all three forms: iframe query, figure spec and attribute', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    // B - W < F: DeepSeek's batched sends and receives delay some ops (docs/schema.md, "Timing").
    const config = { schedule: 'dualpipe', ranks: 4, microbatches: 8, costs: { backward: 1.5, weight: 0.9, overlapped: 2 } };
    const runtime = site.api.simulate({ ...config, timing: 'runtime' });
    assert.ok(runtime.makespan > site.api.simulate(config).makespan, 'the case shows the difference');
    await page.goto(`${site.server.url}embed.html?ranks=4&microbatches=8&backward=1.5&weight=0.9&overlapped=2&timing=runtime`);
    await waitForTimeline(page);
    assert.deepEqual((await readDrawnOps(page))[0], expectedOps(runtime));
    assert.match(await page.$eval('.dpl-lane-heading', (e) => e.textContent), /DeepSeek’s runtime timing/);

    await hostPages(page, {
      'timing.html': ['text/html', html('<div class="lesson-figure" id="fig" data-figure="dualpipe-schedule ranks=4 microbatches=8 backward=1.5 weight=0.9 overlapped=2 timing=runtime"></div><dualpipe-timeline id="el" ranks="4" microbatches="8" backward="1.5" weight="0.9" overlapped="2" timing="runtime"></dualpipe-timeline>',
        '<script src="/js/embed/figure-widget.js"></script><script type="module" src="/js/embed/dualpipe-timeline-element.js"></script>', '<script src="go.js"></script>')],
      'go.js': ['text/javascript', 'window.LF.mountAll();'],
    });
    await page.goto(`${site.server.url}__test__/timing.html`);
    await waitForTimeline(page, '#fig');
    await waitForTimeline(page, '#el');
    assert.deepEqual((await readDrawnOps(page, '#fig'))[0], expectedOps(runtime));
    assert.deepEqual((await readDrawnOps(page, '#el'))[0], expectedOps(runtime));
    // An attribute change re-runs under the other timing.
    await page.evaluate(() => document.getElementById('el').setAttribute('timing', 'dependency'));
    await page.waitForFunction(() => !document.querySelector('#el .dpl-lane-heading').textContent.includes('runtime'));
    assert.deepEqual((await readDrawnOps(page, '#el'))[0], expectedOps(site.api.simulate(config)));
    // A value outside the catalogue's is named in the embed's notice.
    await page.goto(`${site.server.url}embed.html?ranks=4&microbatches=8&timing=eager`);
    await page.waitForSelector('.dpl-notice');
    assert.match(await page.$eval('.dpl-notice', (e) => e.textContent), /timing.*eager/);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
