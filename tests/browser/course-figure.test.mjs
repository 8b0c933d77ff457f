// The course figure inside a page that reproduces the course's lesson page as it mounts figures
// (rohitg00/ai-engineering-from-scratch site/lesson.html + lesson-figures.js, described here, not
// copied): a fence becomes <div class="lesson-figure" data-figure="TEXT"> with TEXT written
// between double quotes unescaped; figure files register with window.LF.register({name: fn});
// mountLessonFigures() calls fn(host, cfg) with cfg = JSON.parse(rest of TEXT), {} when that
// throws. The page's stylesheet is hostile on purpose: everything a course style could do to a
// widget that shares its DOM (bullets, justified serif text, spacing, borders, colours on svg).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, waitForTimeline, readDrawnOps, expectedOps, screenshot, servePages, hostHtml } from './helpers.mjs';

const site = useSite();

const THEME = ':root{--bg:#fafaf5;--ink:#1a1a1a;--ink-mute:#777777;--rule-soft:#d4d2c8;--blueprint:#3553ff}'
  + '[data-theme="dark"]{--bg:#0a0d1a;--ink:#e8e6dc;--ink-mute:#9a9890;--rule-soft:#2c3150;--blueprint:#6b8eff}'
  + 'body{background:var(--bg);color:var(--ink)}';
// Inherited properties reach a shadow tree through its host; the rest would hit a light-DOM widget.
const HOSTILE = 'body{font-family:Georgia,"Times New Roman",serif;text-align:justify;letter-spacing:.2em;line-height:3;word-spacing:1em;font-style:italic;text-transform:lowercase}'
  + 'ul{list-style:square outside}li{margin:1em;list-style-type:square}div{border:3px dashed red;padding:9px}'
  + 'button,select,input{background:hotpink;font-family:serif}svg rect,rect{fill:red!important;stroke:lime!important}'
  + 'figure{margin:80px;background:yellow}p{text-indent:4em}*{box-sizing:content-box}';

// The course's own mounting code, reduced to its contract.
const COURSE = `(function(){var FIGS={};window.LESSON_FIGURES=FIGS;window.LF={register:function(o){for(var k in o)FIGS[k]=o[k];}};
window.mountLessonFigures=function(root){(root||document).querySelectorAll('.lesson-figure[data-figure]').forEach(function(host){
if(host.dataset.lfMounted)return;var spec=(host.dataset.figure||'').trim();var name=spec.split(/\\s+/)[0];var cfg={};
var rest=spec.slice(name.length).trim();if(rest){try{cfg=JSON.parse(rest);}catch(e){}}
if(!FIGS[name])return;FIGS[name](host,cfg);host.dataset.lfMounted='1';});};})();`;

/** A course page with one figure per fence text, each written into data-figure="…" unescaped. */
function coursePage(page, fences, { theme = 'light', lang = 'en', course = COURSE } = {}) {
  const hosts = fences.map((text, i) => `<p>Paragraph ${i}.</p><div class="lesson-figure" id="f${i}" data-figure="${text}"></div>`).join('');
  const body = `<article class="lesson"><ul><li>a course list</li></ul>${hosts}</article>`;
  const head = '<link rel="stylesheet" href="course.css"><script src="lesson-figures.js"></script><script src="/js/embed/figure-widget.js"></script>';
  return servePages(page, site.server.url, {
    'lesson.html': ['text/html', hostHtml(body, head, '<script src="mount.js"></script>', lang).replace('<html', `<html data-theme="${theme}"`)],
    'course.css': ['text/css', THEME + HOSTILE],
    'lesson-figures.js': ['text/javascript', course],
    'mount.js': ['text/javascript', 'window.mountLessonFigures();'],
  });
}

/** Computed styles inside figure `id`'s shadow root, for the checks against leaks. */
function figureStyles(page, id) {
  return page.$eval(`#${id} .dualpipe-lab-figure`, (holder) => {
    const root = holder.shadowRoot;
    const css = (sel, props) => {
      const el = root.querySelector(sel);
      const s = getComputedStyle(el);
      return Object.fromEntries(props.map((p) => [p, s.getPropertyValue(p)]));
    };
    return {
      inShadow: Boolean(root && root.querySelector('.dpl-timeline')),
      holder: ['border-top-style', 'padding-top', 'text-align'].map((p) => getComputedStyle(holder).getPropertyValue(p)),
      lightOps: holder.querySelectorAll('.dpl-op').length,
      frame: css('.dpl-frame', ['font-family', 'text-align', 'letter-spacing', 'line-height', 'word-spacing', 'font-style', 'text-transform', 'border-top-color', 'border-top-style', 'background-color', 'margin-top']),
      label: css('.dpl-frame-label', ['color', 'text-transform']),
      legendItem: css('.dpl-legend li', ['list-style-type', 'margin-top']),
      op: css('.dpl-cell.k-B.d-0', ['fill', 'stroke']),
      body: css('.dpl-frame-body', ['border-top-style']),
      button: css('button', ['background-color']),
    };
  });
}

test('a quote-free DualPipeV 4x10 renders exactly the simulated ops inside the course page, with no host style leaking in', async () => {
  for (const theme of ['light', 'dark']) {
    const { context, page, log } = await openPage(site.browser);
    try {
      await coursePage(page, ['dualpipe-schedule schedule=dualpipev ranks=4 microbatches=10'], { theme });
      await page.goto(`${site.server.url}__test__/lesson.html`);
      await waitForTimeline(page, '#f0');
      const [drawn] = await readDrawnOps(page, '#f0');
      assert.deepEqual(drawn, expectedOps(site.api.simulate({ schedule: 'dualpipev', ranks: 4, microbatches: 10 })));
      const s = await figureStyles(page, 'f0');
      assert.equal(s.inShadow, true);
      assert.equal(s.lightOps, 0, 'nothing of the widget is in the host\'s light DOM');
      assert.deepEqual(s.holder, ['none', '0px', 'start'], 'the one element in the host\'s DOM takes none of its div rules');
      // Inherited host text styles stop at the frame (its text aligns to the start of its own direction, not justified).
      assert.doesNotMatch(s.frame['font-family'], /Georgia|Times|(^|,\s*)serif$/);
      assert.deepEqual([s.frame['text-align'], s.frame['letter-spacing'], s.frame['word-spacing'], s.frame['font-style'], s.frame['text-transform']],
        ['start', 'normal', '0px', 'normal', 'none']);
      assert.notEqual(s.frame['line-height'], '48px');
      // Host rules for ul/li, div, button and svg never match inside the shadow root.
      assert.equal(s.legendItem['list-style-type'], 'none');
      assert.notEqual(s.body['border-top-style'], 'dashed');
      assert.notEqual(s.button['background-color'], 'rgb(255, 105, 180)');
      assert.notEqual(s.op.fill, 'rgb(255, 0, 0)');
      // The course's figure frame, in the course's variables for this theme.
      const expect = theme === 'light'
        ? { rule: 'rgb(212, 210, 200)', bg: 'rgb(250, 250, 245)', blueprint: 'rgb(53, 83, 255)', backward: 'rgb(143, 60, 0)' }
        : { rule: 'rgb(44, 49, 80)', bg: 'rgb(10, 13, 26)', blueprint: 'rgb(107, 142, 255)', backward: 'rgb(180, 80, 26)' };
      assert.deepEqual([s.frame['border-top-style'], s.frame['border-top-color'], s.frame['background-color']], ['solid', expect.rule, expect.bg]);
      assert.deepEqual([s.label.color, s.label['text-transform']], [expect.blueprint, 'uppercase']);
      // Op colours are the kinds' (widgets.css --dpl-op-*), in the palette of the course's theme.
      assert.equal(s.op.fill, expect.backward, 'a full backward takes the theme\'s backward colour');
      await screenshot(page, `course-figure-dualpipev-${theme}.png`, { fullPage: true });
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests.filter((u) => !u.startsWith(site.server.url)), []);
    } finally {
      await context.close();
    }
  }
});

test('a JSON config the course breaks with unescaped quotes is named in a notice; an escaped one still works', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await coursePage(page, [
      'dualpipe-schedule {"schedule":"1f1b","ranks":4,"microbatches":8}',
      'dualpipe-schedule {&quot;schedule&quot;:&quot;1f1b&quot;,&quot;ranks&quot;:4,&quot;microbatches&quot;:8}',
    ]);
    await page.goto(`${site.server.url}__test__/lesson.html`);
    await waitForTimeline(page, '#f1');
    const [escaped] = await readDrawnOps(page, '#f1');
    assert.deepEqual(escaped, expectedOps(site.api.simulate({ schedule: '1f1b', ranks: 4, microbatches: 8 })));
    // The broken attribute reads `dualpipe-schedule {`: said, not silently replaced by defaults.
    await waitForTimeline(page, '#f0');
    const note = await page.$eval('#f0 .dualpipe-lab-figure', (h) => h.shadowRoot.querySelector('.dpl-frame-note')?.textContent ?? '');
    assert.match(note, /\{/);
    assert.match(note, /key=value/);
    await screenshot(page, 'course-figure-json.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('on a Hindi course page the figure speaks Hindi in the shipped Devanagari font', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await coursePage(page, ['dualpipe-schedule schedule=dualpipe ranks=4 microbatches=8'], { lang: 'hi' });
    await page.goto(`${site.server.url}__test__/lesson.html`);
    await waitForTimeline(page, '#f0');
    const label = await page.$eval('#f0 .dualpipe-lab-figure', (h) => h.shadowRoot.querySelector('.dpl-frame-label').textContent);
    assert.match(label, /[\u0900-\u097F]/);
    // The face is declared by a stylesheet the figure adds to the document: wait for it to load.
    await page.waitForFunction(() => [...document.fonts].some((f) => f.family.replaceAll('"', '') === 'DPL Devanagari' && f.status === 'loaded'), null, { timeout: 10000 });
    await screenshot(page, 'course-figure-hi.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
