// scripts/chromium.mjs: `make bench`'s Chromium leaves out the omnibox popup each new window
// builds, and keeps every feature playwright-core disables (Chromium honours only the last
// --disable-features switch, so a second one would silently re-enable those).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { disabledFeatures, launchChromium, launchChromiumWithoutBrowserUi } from '../../scripts/chromium.mjs';

test("the bench's Chromium disables the omnibox popup and everything playwright-core disables", async () => {
  const plain = await launchChromium();
  let defaults;
  try {
    defaults = new Set(await disabledFeatures(plain));
  } finally {
    await plain.close();
  }
  assert.ok(defaults.has('PaintHolding'), 'playwright-core disables features of its own');
  assert.ok(!defaults.has('WebUIOmniboxPopup'));
  const bench = await launchChromiumWithoutBrowserUi();
  try {
    const disabled = new Set(await disabledFeatures(bench));
    for (const feature of defaults) assert.ok(disabled.has(feature), `${feature} stays disabled`);
    for (const feature of ['WebUIOmniboxPopup', 'PreloadTopChromeWebUI']) assert.ok(disabled.has(feature), `${feature} is disabled`);
  } finally {
    await bench.close();
  }
});
