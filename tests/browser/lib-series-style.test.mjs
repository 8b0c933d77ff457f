// web/js/ui/series-style.js under Node: every catalogue schedule gets its own line style (colour,
// marker, dash), and every colour slot is defined in CSS for both themes at a contrast of at
// least 3:1 against the chart's background (WCAG 1.4.11, graphical objects).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { seriesStyle, paletteStyle, COLOURS, MARKERS, DASHES } from '../../web/js/ui/series-style.js';
import CATALOGUE from '../../web/generated/catalogue.js';

const key = (style) => `${style.className}|${style.marker}|${style.dash}`;

test('every catalogue schedule gets a style no other schedule has', () => {
  const styles = CATALOGUE.schedules.map((s) => key(seriesStyle(s.name)));
  assert.equal(new Set(styles).size, styles.length, styles.join('\n'));
});

test('the palette never repeats within 9 x 8 x 7 positions, and neighbours differ in colour, marker and dash', () => {
  const size = COLOURS * MARKERS.length * DASHES.length;
  const styles = Array.from({ length: size }, (_, i) => paletteStyle(i));
  assert.equal(new Set(styles.map(key)).size, size);
  for (let i = 1; i < size; i++) {
    for (const part of ['className', 'marker', 'dash']) assert.notEqual(styles[i][part], styles[i - 1][part], `${part} at ${i}`);
  }
});

const css = readFileSync(new URL('../../web/css/widgets.css', import.meta.url), 'utf8');
/** The custom properties set in the rule whose selector is exactly `selector`. */
function block(selector) {
  const start = css.indexOf(`${selector} {`);
  assert.ok(start >= 0, selector);
  const body = css.slice(css.indexOf('{', start) + 1, css.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [dark, light] = [luminance(a), luminance(b)].sort((x, y) => x - y);
  return (light + 0.05) / (dark + 0.05);
};

test('each colour slot has a CSS class and, in light and dark, a colour at >= 3:1 on the background', () => {
  for (let i = 0; i < COLOURS; i++) assert.match(css, new RegExp(`\\.dpl \\.is-series-${i} \\{ --dpl-c: var\\(--dpl-series-${i}\\); \\}`));
  const light = block('.dpl');
  const themes = {
    // The dark palette overrides the light one; a slot it leaves alone follows the host's --blueprint.
    light: { page: block('.dpl-theme-light'), series: light },
    dark: { page: block('.dpl-theme-dark'), series: { ...light, ...block('.dpl-theme-dark .dpl, .dpl-theme-dark.dpl, .dpl-on-dark .dpl, .dpl.dpl-on-dark') } },
  };
  // The same palettes are written out for the page's theme switch, the system preference and a
  // pinned embed theme: they must not drift apart (a slot following --blueprint is set only once).
  const series = (props) => Object.fromEntries(Object.entries(props).filter(([k, v]) => k.startsWith('--dpl-series-') && !v.startsWith('var(')));
  assert.deepEqual(series(block('.dpl-theme-light .dpl, .dpl-theme-light.dpl')), series(light));
  for (const selector of ['[data-theme="dark"] .dpl', ':root:not([data-theme="light"]) .dpl']) {
    assert.deepEqual(series(block(selector)), series(block('.dpl-theme-dark .dpl, .dpl-theme-dark.dpl, .dpl-on-dark .dpl, .dpl.dpl-on-dark')), selector);
  }
  for (const [name, { page, series }] of Object.entries(themes)) {
    for (let i = 0; i < COLOURS; i++) {
      const value = series[`--dpl-series-${i}`];
      assert.ok(value, `${name}: --dpl-series-${i} is not set`);
      const colour = value.replace(/^var\(--blueprint, #\w+\)$/, page['--blueprint']);
      for (const bg of [page['--bg'], page['--bg-raised']]) {
        assert.ok(contrast(colour, bg) >= 3, `${name}: --dpl-series-${i} ${colour} on ${bg}: ${contrast(colour, bg).toFixed(2)}`);
      }
    }
  }
});
