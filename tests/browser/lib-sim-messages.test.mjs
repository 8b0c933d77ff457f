// web/js/lib/sim-messages.js under Node: every validation message core gives for the bad configs a
// learner can type into the form comes out in Hindi, with the same numbers and names, and any
// message the table does not know (or any other language) passes through unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { simMessage, localizedError } from '../../web/js/lib/sim-messages.js';

const NATIVE_CLI = fileURLToPath(new URL('../../build/native/pipesim', import.meta.url));

/** Core's own message for `config`: the CLI prints "pipesim: <code>: <message>" and exits 1. */
function coreMessage(config) {
  const run = spawnSync(NATIVE_CLI, ['simulate', '--input', '-', '--format', 'json'], { input: JSON.stringify(config), encoding: 'utf8' });
  assert.equal(run.status, 1, JSON.stringify(config));
  return run.stderr.trim().replace(/^pipesim: \w+: /, '');
}

const BAD = [
  { schedule: 'dualpipe', ranks: 7, microbatches: 20 },
  { schedule: 'dualpipe', ranks: 8, microbatches: 21 },
  { schedule: 'dualpipe', ranks: 8, microbatches: 10 },
  { schedule: 'dualpipev', ranks: 8, microbatches: 10 },
  { schedule: 'chimera', ranks: 4, microbatches: 10 },
  { schedule: 'chimera', ranks: 3, microbatches: 9 },
  { schedule: 'nope', ranks: 4, microbatches: 8 },
  { schedule: '1f1b', ranks: 0, microbatches: 8 },
  { schedule: '1f1b', ranks: 4, microbatches: 0 },
  { schedule: '1f1b', ranks: 'abc', microbatches: 8 },
  { schedule: '1f1b', ranks: 4, microbatches: 2.5 },
  { schedule: '1f1b', ranks: 1000, microbatches: 100000 },
  { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { forward: 0 } },
  { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { weight: -1 } },
  { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { weight: 3 } },
  { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { forward: 1e7 } },
  { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { forward: 1e-9 } },
  { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { overlapped: 'x' } },
  { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { comm: { ratio: -1 } } },
  { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { comm: { ratio: 1, attnShare: 2 } } },
  { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { comm: { ratio: 1, layers: 0 } } },
];

test('core messages for bad form values come out in Hindi with the same numbers and names', () => {
  const tokens = (s) => (s.match(/\d+(\.\d+)?(e[-+]?\d+)?|[a-z][\w-]*\d[\w-]*|"[^"]*"|\b(dualpipev?|chimera|1f1b|gpipe|zb-h1)\b/g) || []).sort();
  for (const config of BAD) {
    const english = coreMessage(config);
    const hindi = simMessage('hi', english);
    assert.notEqual(hindi, english, `no Hindi for: ${english}`);
    assert.match(hindi, /[\u0900-\u097F]/, english);
    assert.deepEqual(tokens(hindi), tokens(english), english);
  }
});

test('English, unknown messages and messageless errors pass through unchanged', () => {
  const english = 'ranks must be an even integer >= 2 for dualpipe (got 7)';
  assert.equal(simMessage('en', english), english);
  assert.equal(simMessage('hi', 'schedule cannot make progress: rank 0 op 3'), 'schedule cannot make progress: rank 0 op 3');
  assert.equal(simMessage('hi', ''), '');
  const error = { code: 'invalid_config', path: '/ranks', message: english };
  assert.deepEqual(localizedError('hi', error), { code: 'invalid_config', path: '/ranks', message: simMessage('hi', english) });
  assert.equal(localizedError('en', error), error);
  assert.equal(localizedError('hi', 'plain text'), 'plain text');
});
