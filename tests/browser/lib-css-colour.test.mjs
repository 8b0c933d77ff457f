// web/js/lib/css-colour.js under Node: the colour forms a browser computes become the
// rgba(r, g, b, a) the canvas timeline reads; other forms are left to the caller.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rgbaOf, contrastRatio, luminance } from '../../web/js/lib/css-colour.js';

test('rgb(), rgba(), color(srgb ...) and #hex become rgba(r, g, b, a)', () => {
  assert.equal(rgbaOf('rgb(251, 250, 246)'), 'rgba(251, 250, 246, 1.000)');
  assert.equal(rgbaOf('rgba(27, 27, 31, 0.16)'), 'rgba(27, 27, 31, 0.160)');
  // A computed color-mix(): channels 0..1, rounded to the nearest of 256 levels.
  assert.equal(rgbaOf('color(srgb 0.776314 0.800941 0.942275)'), 'rgba(198, 204, 240, 1.000)');
  assert.equal(rgbaOf('color(srgb 1 0 0.5 / 0.25)'), 'rgba(255, 0, 128, 0.250)');
  assert.equal(rgbaOf('color(srgb 1.2 -0.1 2e-7)'), 'rgba(255, 0, 0, 1.000)'); // out of gamut: clamped
  assert.equal(rgbaOf('#2f4ae0'), 'rgba(47, 74, 224, 1.000)');
  assert.equal(rgbaOf(' #FFF '), 'rgba(255, 255, 255, 1.000)');
  assert.equal(rgbaOf('#0000ff80'), 'rgba(0, 0, 255, 0.502)');
});

test('names, other colour spaces and malformed text are left to the caller', () => {
  for (const text of ['none', 'transparent', 'red', 'oklab(0.5 0.1 0.1)', 'color(display-p3 1 0 0)', 'rgb(1, 2)', '#12345', '']) {
    assert.equal(rgbaOf(text), null, text);
  }
});

test('contrastRatio follows WCAG 2: black on white is 21:1, a colour on itself 1:1', () => {
  assert.equal(contrastRatio('#000', '#fff'), 21);
  assert.equal(contrastRatio('rgb(12, 34, 56)', '#0c2238'), 1);
  // WCAG's own example: #777 on white is just under 4.5:1 (4.48).
  assert.equal(Math.round(contrastRatio('#777777', '#ffffff') * 100) / 100, 4.48);
  // Order does not matter; luminance of white is 1, of black 0.
  assert.equal(contrastRatio('#fff', '#777777'), contrastRatio('#777777', '#fff'));
  assert.equal(luminance('#ffffff'), 1);
  assert.equal(luminance('rgb(0, 0, 0)'), 0);
  assert.ok(Number.isNaN(luminance('red')));
});
