// Native and wasm agree byte for byte: every golden config gives, through simulateJson, exactly
// the result bytes stored in tests/golden/<case>.json and exactly what the native CLI prints.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import test from 'node:test';
import { nativeCli, pipesim, repoPath } from './helpers.mjs';

const GOLDEN_DIR = repoPath('tests/golden');
const cases = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.json')).sort();

// The golden files are written by scripts/regenerate-goldens.sh as
// {"config":<config>,\n"result":<CLI bytes>}\n, so the stored bytes can be cut out unchanged
// (re-serialising through JSON.parse would lose the CLI's "66.0" spelling).
function goldenParts(text) {
  const match = text.match(/^\{"config":(.*),\n"result":(.*)\}\n$/s);
  assert.ok(match, 'golden file is not in the regenerate-goldens.sh layout');
  return { configText: match[1], resultText: match[2] };
}

test('there are golden cases to compare', () => {
  assert.ok(cases.length >= 6, `only ${cases.length} golden files`);
});

for (const file of cases) {
  test(`golden ${file}: simulateJson reproduces the stored result byte for byte`, async () => {
    const api = await pipesim();
    const { configText, resultText } = goldenParts(readFileSync(`${GOLDEN_DIR}/${file}`, 'utf8'));
    assert.equal(api.simulateJson(configText), resultText);
    assert.equal(api.simulateJson(JSON.parse(configText)), resultText);
  });

  test(`golden ${file}: simulateJson equals the native CLI's bytes`, async () => {
    const api = await pipesim();
    const { configText } = goldenParts(readFileSync(`${GOLDEN_DIR}/${file}`, 'utf8'));
    assert.equal(api.simulateJson(configText), nativeCli(['simulate', '--input', '-', '--format', 'json'], configText));
  });
}

test('a large DualPipe run (R=16, M=256, F&B=2.4, p2p=0.1) equals the native CLI byte for byte', async () => {
  const api = await pipesim();
  const config = JSON.stringify({ schedule: 'dualpipe', ranks: 16, microbatches: 256,
                                  costs: { forward: 1.1, backward: 2.3, weight: 0.7, overlapped: 2.4, p2pLatency: 0.1 } });
  assert.equal(api.simulateJson(config), nativeCli(['simulate', '--input', '-', '--format', 'json'], config));
});
