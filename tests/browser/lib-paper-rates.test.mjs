// web/js/lib/paper-rates.js under Node, through the real module: the papers panel's runs of the
// Zero Bubble paper's rows (lessons/papers/zero-bubble-bubble-rates.json) reproduce its Table 5 as
// tests/core/paper_rates_test.cpp does natively: 1F1B, ZB-H1 and ZB-H2 to the 4 printed decimals,
// interleaved 1F1B just above (equal chunks cannot give the outer stages a layer fewer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { pipesim, REPO } from './helpers.mjs';
import { byModel, paperConfig, paperBubbleRate, verdict, workPerRank, interleavedChunks, PRINTED_TOLERANCE } from '../../web/js/lib/paper-rates.js';

const TABLE = JSON.parse(await readFile(`${REPO}/lessons/papers/zero-bubble-bubble-rates.json`, 'utf8'));

test('the paper\'s rows group into its four model sizes, in file order', () => {
  const groups = byModel(TABLE);
  assert.deepEqual(groups.map((g) => g.model), ['1.5B', '6.2B', '14.6B', '28.3B']);
  assert.deepEqual(groups.map((g) => g.rows.length), [3, 3, 3, 3]);
  // Every layer a chunk, one fewer on the outer stages: 22 layers on 8 stages are 3 per middle stage.
  assert.equal(interleavedChunks(groups[0].rows[0]), 3);
  for (const row of TABLE.rows) assert.ok(Number.isInteger(interleavedChunks(row)), row.model);
});

test('the configs: B is T_B + T_W, T_comm the hop latency, interleaved chunks 1/V of a stage each', () => {
  const row = TABLE.rows[0];
  assert.deepEqual(paperConfig(row, 'zb-h1'), {
    schedule: 'zb-h1', ranks: 8, microbatches: 24,
    costs: { forward: 18.522, backward: 18.086 + 9.337, weight: 9.337, overlapped: 18.522 + 18.086 + 9.337, p2pLatency: 0.601 },
  });
  const v = paperConfig(row, 'interleaved-1f1b');
  assert.equal(v.chunks, 3);
  assert.equal(v.costs.forward, 18.522 / 3);
  assert.equal(v.costs.p2pLatency, 0.601, 'a hop costs the same whatever the chunk');
});

test('run through the module, 36 published rates match and interleaved 1F1B lands just above all 12', async () => {
  const api = await pipesim();
  const verdicts = { match: 0, 'above-uneven': 0, differs: 0 };
  for (const row of TABLE.rows) {
    for (const [schedule, published] of Object.entries(row.published)) {
      const ours = paperBubbleRate(api.simulate(paperConfig(row, schedule)), workPerRank(row));
      const kind = verdict(schedule, ours, published);
      verdicts[kind] += 1;
      if (schedule === 'interleaved-1f1b') {
        assert.equal(kind, 'above-uneven', `${row.model} m=${row.microbatches}: ours ${ours}, paper ${published}`);
      } else {
        assert.ok(Math.abs(ours - published) <= PRINTED_TOLERANCE + 1e-12, `${row.model} m=${row.microbatches} ${schedule}: ours ${ours}, paper ${published}`);
      }
    }
  }
  assert.deepEqual(verdicts, { match: 36, 'above-uneven': 12, differs: 0 });
});

test('the measure is the longest stage span: a hand-made two-rank timeline', () => {
  // Rank 0 works from 0 to 5, rank 1 from 1 to 7: cost 6, and with 4 units of work the rate is 1/3.
  const result = { timeline: { count: 4, rank: [0, 0, 1, 1], start: [0, 2, 1, 4], end: [2, 5, 3, 7] } };
  assert.equal(paperBubbleRate(result, 4), (6 - 4) / 6);
  assert.equal(verdict('zb-h1', 0.10004, 0.1), 'match');
  assert.equal(verdict('zb-h1', 0.1001, 0.1), 'differs');
  assert.equal(verdict('interleaved-1f1b', 0.1001, 0.1), 'above-uneven');
  assert.equal(verdict('interleaved-1f1b', 0.0999, 0.1), 'differs', 'below would not be the uneven stages');
});
