// web/js/lib/trace-text.js under Node: the lesson's worked trace reads as a grid, it is exactly
// what core's trace grid gives for the first eleven slots (written in the lesson's notation), and
// cutting it into blocks keeps every slot once, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseTraceText, traceCellText, traceFromGrid, chunkTrace } from '../../web/js/lib/trace-text.js';
import { REPO, pipesim } from './helpers.mjs';

const lesson = await readFile(`${REPO}/lessons/dualpipe.en.md`, 'utf8');
const block = /```text dualpipe-4x8-trace\n([\s\S]*?)```/.exec(lesson)[1];

test('the lesson\'s worked trace is the simulator\'s, slot for slot', async () => {
  const trace = parseTraceText(block);
  assert.deepEqual(trace.slots, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(trace.rows.map((r) => r.rank), [0, 1, 2, 3]);
  // Rank 0 by hand from the lesson's own reading: three warm-up forwards, F0 of direction 1,
  // its input-gradient backward and weight chunk, F1<, then the pair 3>1< for F&B = 3 slots, idle.
  assert.deepEqual(trace.rows[0].cells, ['F0>', 'F1>', 'F2>', 'F0<', 'b0<', 'W0<', 'F1<', '3>1<', '3>1<', '3>1<', '.']);
  const api = await pipesim();
  const grid = api.traceGrid({ config: { schedule: 'dualpipe', ranks: 4, microbatches: 8, costs: { forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 } }, slotLength: 1 });
  assert.deepEqual(traceFromGrid(grid, 11), trace);
});

test('cells in the lesson\'s notation; text that is not a trace is not read as one', () => {
  assert.equal(traceCellText(null), '.');
  assert.equal(traceCellText({ op: 'B', dir: 0, mb: 2, zb: false }), 'B2>');
  assert.equal(traceCellText({ op: 'B', dir: 1, mb: 2, zb: true }), 'b2<');
  assert.equal(traceCellText({ op: 'FB', fdir: 1, fmb: 2, bdir: 0, bmb: 0 }), '2<0>');
  assert.equal(parseTraceText('rank 0 1\n0 F0> F1>'), null);
  assert.equal(parseTraceText('slot 0 1\n0 F0>'), null, 'a row short of a cell');
  assert.equal(parseTraceText('slot 0 1'), null, 'no rows');
});

test('blocks of at most n slots keep every slot once, in order', () => {
  const trace = parseTraceText(block);
  const parts = chunkTrace(trace, 4);
  assert.deepEqual(parts.map((p) => p.slots), [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]]);
  assert.deepEqual(parts.flatMap((p) => p.rows[3].cells), trace.rows[3].cells);
  assert.equal(chunkTrace(trace, 0).length, 11, 'at least one slot per block');
});
