// How the browser tests and `make bench` start Chromium: Debian's build (or $CHROMIUM), headless,
// through playwright-core, with the flags that work in this container (no sandbox as root, no GPU,
// nothing fetched from the network by the browser itself).
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// The browser's own UI that headless Chromium builds for every new window, and so for every fresh
// context a benchmark run opens: its omnibox popup, a WebUI page (chrome://omnibox-popup.top-chrome)
// in a renderer of its own. Traced on a 2-core machine, that renderer took ~150 ms of CPU during
// the page's first draw, and the page waited for a core. A learner's navigation happens in a
// window that has its popup already: with Chromium as is, a page opened from a tab that had sat on
// about:blank for 2.5 s drew its first op as soon as in a browser without these features (lesson
// 375 vs 658 ms in a new window, explorer 331 vs 547). So `make bench` starts Chromium without them.
const BROWSER_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup', 'PreloadTopChromeWebUI'];

/** Launches Chromium with CHROMIUM_ARGS. */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Launches Chromium as launchChromium() does, without BROWSER_UI_FEATURES. Chromium keeps only the
 * last --disable-features switch on its command line, and playwright-core passes one of its own,
 * so that list is read back from a first browser (chrome://version) and extended, not replaced.
 */
export async function launchChromiumWithoutBrowserUi() {
  const probe = await launchChromium();
  let own;
  try {
    own = await disabledFeatures(probe);
  } catch (error) {
    console.warn(`Chromium's command line could not be read (${error.message.split('\n')[0]}): started with its browser UI`);
    return probe;
  }
  await probe.close();
  const features = [...new Set([...own, ...BROWSER_UI_FEATURES])];
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, `--disable-features=${features.join(',')}`] });
}

/** The features running `browser` was told to disable: its last --disable-features switch, read from chrome://version. */
export async function disabledFeatures(browser) {
  const page = await browser.newPage();
  try {
    await page.goto('chrome://version');
    const switches = (await page.textContent('#command_line')).match(/--disable-features=\S+/g) ?? [];
    return switches.length ? switches.at(-1).slice('--disable-features='.length).split(',') : [];
  } finally {
    await page.close();
  }
}
