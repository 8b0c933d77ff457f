// No boxes (issue 27): in each of the course's seven languages, text in its script inside the
// course figure is drawn with the web font the bundle ships (lib/font-sets.js), loaded across
// origins (the figure from the lab's origin, the page on the course's: the case where Hindi was
// drawn as boxes, its font refused for want of CORS). One page load per language, on a machine
// with no system font for Devanagari or Chinese (this one: `fc-list :lang=hi` and `:lang=zh` list
// nothing) and DejaVu for the rest, so a glyph that came from a system fallback would show.
//
// The figure speaks only English and Hindi so far; in the other languages it still takes the
// font of the course language's script, so that its text in that script is drawn in it once its
// strings exist. Until then the text checked is a phrase in the script (the heading of the
// stand-in's lesson in that language) put inside the figure's frame, where it takes the
// figure's own font stack. The check is Chromium's own account of the fonts that drew it
// (CSS.getPlatformFontsForNode): a web font for every glyph, no system font.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { useCourseSites, COURSE_BUNDLE } from './course-site.mjs';
import { openPage, screenshot } from './helpers.mjs';
import { LOCALES, spokenLang } from '../../web/js/lib/locales.js';
import { FONT_SETS } from '../../web/js/lib/font-sets.js';

const sites = useCourseSites();
const SCHEDULE = '.lesson-figure[data-figure^="dualpipe-schedule"]';
const FONTS = 'figures-dualpipe/generated/fonts/';

// A phrase in each language's script: the stand-in lesson's heading (fixtures/course/lessons/).
const PHRASES = {
  en: 'Pipeline parallelism', zh: '流水线并行', hi: 'पाइपलाइन पैरेललिज़्म', es: 'Paralelismo de pipeline',
  ar: 'التوازي عبر خط الأنابيب', ru: 'Конвейерный параллелизм', tr: 'Ardışık düzen paralelliği',
};

/** The faces of a set's built stylesheet: [{file, ranges: [[from, to]]}]. */
async function facesOf(set) {
  const css = await readFile(path.join(COURSE_BUNDLE, FONTS, `${set}.css`), 'utf8');
  return [...css.matchAll(/src: url\("([^"]+)"\)[^;]*;\s*unicode-range: ([^;]+);/g)].map(([, file, list]) => ({
    file,
    ranges: list.split(',').map((r) => r.trim().replace(/^U\+/i, '').split('-').map((hex) => parseInt(hex, 16))).map(([a, b = a]) => [a, b]),
  }));
}
const covers = (face, text) => [...text].some((ch) => face.ranges.some(([a, b]) => ch.codePointAt(0) >= a && ch.codePointAt(0) <= b));

/** The node id of the first element (piercing shadow roots) whose class list has `cls`. */
function findByClass(node, cls) {
  const attrs = node.attributes ?? [];
  for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === 'class' && attrs[i + 1].split(/\s+/).includes(cls)) return node.nodeId;
  for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) {
    const found = findByClass(child, cls);
    if (found) return found;
  }
  return null;
}

/** The fonts Chromium drew the text of the element with class `cls` in: [{familyName, isCustomFont, glyphCount}]. */
async function platformFonts(cdp, cls) {
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
  const nodeId = findByClass(root, cls);
  assert.ok(nodeId, `.${cls} in the document`);
  return (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts;
}

for (const locale of LOCALES) {
  test(`${locale.code}: text in its script inside the figure is drawn in the shipped font, loaded across origins, and only that`, async () => {
    const { context, page, log } = await openPage(sites.browser);
    try {
      await page.goto(`${sites.course}lesson-cross.html?lang=${locale.code}`);
      await page.locator(`${SCHEDULE} .dpl-timeline .dpl-op`).first().waitFor({ timeout: 20000 });
      // The phrase, inside the frame, laid out; then every face it (and the figure) needs has settled.
      const drawn = await page.$eval(`${SCHEDULE} dualpipe-lab-figure`, async (holder, phrase) => {
        const frame = holder.shadowRoot.querySelector('.dpl-frame');
        const probe = document.createElement('p');
        probe.className = 'dpl-font-probe';
        probe.textContent = phrase;
        frame.append(probe);
        probe.getBoundingClientRect();
        await document.fonts.ready;
        return { text: frame.textContent, family: getComputedStyle(frame).fontFamily };
      }, PHRASES[locale.code]);
      const cdp = await context.newCDPSession(page);
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const fonts = await platformFonts(cdp, 'dpl-font-probe');
      const woff2 = log.requests.filter((u) => u.endsWith('.woff2'));
      const faces = await page.evaluate(() => [...document.fonts].map((f) => ({ family: f.family.replaceAll('"', ''), status: f.status })));
      if (locale.font) {
        const set = FONT_SETS[locale.font];
        assert.ok(drawn.family.replaceAll('"', '').startsWith(`${set.family},`), drawn.family);
        assert.ok(faces.some((f) => f.family === set.family && f.status === 'loaded'), JSON.stringify(faces));
        // Every glyph of the script from the web font; the system's only for what the set leaves
        // out (the spaces between words).
        const all = await facesOf(locale.font);
        const outside = [...PHRASES[locale.code]].filter((ch) => !all.some((face) => covers(face, ch))).length;
        const system = fonts.filter((f) => !f.isCustomFont).reduce((sum, f) => sum + f.glyphCount, 0);
        assert.ok(fonts.some((f) => f.isCustomFont) && system <= outside, `drawn in ${JSON.stringify(fonts)}; ${outside} characters outside the set`);
        // Only files of this set, from the lab's origin, and only those holding characters drawn:
        // all of the phrase's, none that nothing in the frame needs.
        const fetched = woff2.map((u) => {
          assert.ok(u.startsWith(`${sites.lab}${FONTS}`), u);
          return u.slice(`${sites.lab}${FONTS}`.length);
        });
        for (const file of fetched) assert.ok(all.some((f) => f.file === file && covers(f, drawn.text)), `${file} holds nothing drawn`);
        const needed = all.filter((f) => covers(f, PHRASES[locale.code]) && f.file.includes('-400-'));
        for (const face of needed) assert.ok(fetched.includes(face.file), `${face.file} (the phrase's) was not fetched`);
        console.log(`${locale.code}: ${fetched.length} of ${all.length} files of ${set.family} fetched; drawn in ${fonts.map((f) => f.familyName).join(', ')}`);
      } else {
        // Latin text: the system's fonts, and no web font fetched at all.
        assert.deepEqual(woff2, []);
        assert.ok(fonts.every((f) => !f.isCustomFont), JSON.stringify(fonts));
        assert.equal(await page.$$eval('link[data-dualpipe-lab]', (links) => links.length), 0, 'no font stylesheet');
      }
      if (locale.font && spokenLang(locale.code) === locale.code) {
        // The figure's own text in that language (its label) takes the same font (a Latin-script
        // language without a set, Spanish, is drawn in the system's fonts like English).
        const label = await platformFonts(cdp, 'dpl-frame-label');
        assert.ok(label.some((f) => f.isCustomFont), `its label drawn in ${JSON.stringify(label)}`);
      }
      await screenshot(page, `course-font-${locale.code}.png`);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}
