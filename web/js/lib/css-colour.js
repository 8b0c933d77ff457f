// Computed CSS colours as the canvas timeline reads them, rgba(r, g, b, a) with 0-255 channels
// and alpha to three decimals (ui/timeline-palette.js writes them, ui/timeline-canvas.js reads
// them). The forms a browser computes are converted here, without drawing them on a canvas and
// reading the pixel back; and the WCAG contrast of two of them (tests check the op fills with it).
// DOM-free.

const channel = (x) => Math.min(255, Math.max(0, Math.round(x)));

/** rgba(r, g, b, a) of channels 0-255 (rounded, clamped) and alpha 0-1. */
export const rgbaText = (r, g, b, a) => `rgba(${channel(r)}, ${channel(g)}, ${channel(b)}, ${Math.min(1, Math.max(0, a)).toFixed(3)})`;

const NUMBER = '\\s*(-?[\\d.]+(?:e-?\\d+)?)';
const RGB = new RegExp(`^rgba?\\(${NUMBER},${NUMBER},${NUMBER}(?:,${NUMBER})?\\s*\\)$`);
const SRGB = new RegExp(`^color\\(srgb${NUMBER}${NUMBER}${NUMBER}(?:\\s*/${NUMBER})?\\s*\\)$`);
const HEX = /^#([\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})$/i;

/**
 * rgba(r, g, b, a) of a colour in a form browsers compute: rgb() and rgba() (legacy commas),
 * color(srgb r g b [/ a]) (a computed color-mix()) and #hex (a custom property as written);
 * null for any other form (a name, another colour space), which the caller resolves itself.
 */
export function rgbaOf(text) {
  const color = String(text).trim();
  let m = RGB.exec(color);
  if (m) return rgbaText(+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]);
  m = SRGB.exec(color);
  if (m) return rgbaText(+m[1] * 255, +m[2] * 255, +m[3] * 255, m[4] === undefined ? 1 : +m[4]);
  m = HEX.exec(color);
  if (!m) return null;
  const digits = m[1].length <= 4 ? [...m[1]].map((d) => d + d) : m[1].match(/../g);
  const [r, g, b, a = 255] = digits.map((d) => parseInt(d, 16));
  return rgbaText(r, g, b, a / 255);
}

/** The relative luminance of an rgba() text (WCAG 2.x, sRGB; alpha ignored), or NaN. */
export function luminance(text) {
  const m = /rgba\((\d+), (\d+), (\d+)/.exec(rgbaOf(text) ?? '');
  if (!m) return NaN;
  const linear = (c) => {
    const v = Number(c) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(m[1]) + 0.7152 * linear(m[2]) + 0.0722 * linear(m[3]);
}

/**
 * The WCAG contrast ratio of two opaque colours (any form rgbaOf reads): (L1 + 0.05) / (L2 + 0.05)
 * with L1 the lighter; 1 to 21. WCAG 1.4.11 asks 3:1 of marks a reader needs against what is beside them.
 */
export function contrastRatio(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
