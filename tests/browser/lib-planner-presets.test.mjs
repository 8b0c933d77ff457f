// The page's planner presets (web/js/lib/planner-presets.js) are a copy of
// lessons/planner-presets/*.json, which the CLI and core tests use: this keeps the two in step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { PLANNER_PRESETS } from '../../web/js/lib/planner-presets.js';

const dir = new URL('../../lessons/planner-presets/', import.meta.url);

test('the page offers exactly the lesson planner presets, with identical specs', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  assert.deepEqual(PLANNER_PRESETS.map((p) => `${p.id}.json`).sort(), files);
  for (const preset of PLANNER_PRESETS) {
    const spec = JSON.parse(readFileSync(new URL(`${preset.id}.json`, dir), 'utf8'));
    assert.deepEqual(preset.spec, spec, preset.id);
  }
});
