// The web fonts the lab ships, one set per script that a machine may have no system font for
// (lib/locales.js names each language's set). Every face comes from an @fontsource package on npm
// (Noto Sans, SIL OFL 1.1), copied by the build with its licence and declared in one stylesheet
// per set, fonts/<set>.css (scripts/font-sets.mjs), under a family name of our own: first in a
// stack, it draws its script with the shipped font even where a system font has the package's
// name, and text outside its unicode-range falls through to the next family. Each face keeps the
// package's unicode-range, so a browser downloads a file only when it draws a character in it:
// Chinese comes as about a hundred files, split by character frequency, of which a page fetches
// the few that hold the characters it shows. DOM-free; read by the build and by the figure.
//
// subsets: the package's subset names to ship, or 'numbered' for its numbered slices ([0]..[119],
// the CJK split). weights: the files shipped; with two, the first draws weights up to 550 and the
// second the rest (the figure uses 400, 600 and 700); with one, the browser emboldens it.

/**
 * @typedef {object} FontSet
 * @property {string} family our family name, first in the stack of a language using the set
 * @property {string} package the npm package the files come from
 * @property {string[]|'numbered'} subsets
 * @property {number[]} weights
 */

/** @type {Readonly<Record<string, FontSet>>} */
export const FONT_SETS = Object.freeze({
  devanagari: { family: 'DPL Devanagari', package: '@fontsource/noto-sans-devanagari', subsets: ['devanagari'], weights: [400, 700] },
  arabic: { family: 'DPL Arabic', package: '@fontsource/noto-sans-arabic', subsets: ['arabic'], weights: [400, 700] },
  // About 3.7 MB over 101 files at one weight (a second would double it): bold is synthesised.
  sc: { family: 'DPL SC', package: '@fontsource/noto-sans-sc', subsets: 'numbered', weights: [400] },
  cyrillic: { family: 'DPL Cyrillic', package: '@fontsource/noto-sans', subsets: ['cyrillic'], weights: [400, 700] },
  // Turkish: ğ ı İ ş are in latin-ext; with latin too, a Turkish word is drawn in one font, not two.
  latin: { family: 'DPL Latin', package: '@fontsource/noto-sans', subsets: ['latin', 'latin-ext'], weights: [400, 700] },
});

/** The stylesheet of set `name`, relative to the fonts folder. */
export const fontSetStylesheet = (name) => `${name}.css`;
