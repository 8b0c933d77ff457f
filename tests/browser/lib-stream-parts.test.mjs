// web/js/lib/stream-parts.js under Node: placing result.comm.ops parts on the timeline, and the
// compute stream's waits inside an op (its exposed communication). Hand values from docs/schema.md
// ("Communication model"): at ratio 1 with F=1 B=2 W=1 F&B=3, a lone F lasts 2 and waits for its
// dispatch (0.5 to 1) and its combine (1.5 to 2); a pair lasts 3 and never waits: each of its
// all-to-alls (a backward's as long as a forward's) runs under a computation of the other chunk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commKey, opParts, opExposed, computeGaps, partClass, partText, partLabel, describePart, PART_NAMES } from '../../web/js/lib/stream-parts.js';
import { normalizeTimeline } from '../../web/js/lib/timeline-data.js';
import { translator } from '../../web/js/lib/i18n.js';
import { pipesim } from './helpers.mjs';

const api = await pipesim();
const result = api.simulate({ schedule: 'dualpipe', ranks: 4, microbatches: 8, costs: { comm: { ratio: 1 } } });
const ops = result.comm.ops;

test('the compute stream waits where the schema says, and the waits add up to each kind\'s exposed time', () => {
  assert.deepEqual(computeGaps(ops.F), [{ start: 0.5, end: 1 }, { start: 1.5, end: 2 }]);
  assert.deepEqual(computeGaps(ops.FB), []);
  assert.deepEqual(computeGaps(ops.W), []);
  for (const layers of [1, 4]) {
    const r = api.simulate({ schedule: 'dualpipe', ranks: 4, microbatches: 8, costs: { comm: { ratio: 1, layers } } });
    for (const [key, entry] of Object.entries(r.comm.ops)) {
      const waited = computeGaps(entry).reduce((n, g) => n + g.end - g.start, 0);
      assert.ok(Math.abs(waited - entry.exposed) < 1e-9, `${key} at ${layers} layers: ${waited} vs ${entry.exposed}`);
    }
  }
});

test('an op\'s parts are its kind\'s parts shifted by its start; a pair\'s parts name their own chunk', () => {
  const rows = normalizeTimeline(result);
  const pair = rows.flat().find((o) => o.kind === 'FB');
  const parts = opParts(pair, result.comm);
  assert.equal(parts.length, ops.FB.parts.length);
  parts.forEach((p, i) => {
    const raw = ops.FB.parts[i];
    assert.equal(p.start, pair.start + raw.start);
    assert.equal(p.end, pair.start + raw.end);
    assert.deepEqual([p.rank, p.op, p.stream, p.part, p.label], [pair.rank, pair.seq, raw.stream, raw.part, raw.label]);
    assert.deepEqual([p.dir, p.mb], raw.pass === 'F' ? [pair.fdir, pair.fmb] : [pair.bdir, pair.bmb]);
  });
  const zb = rows.flat().find((o) => o.kind === 'B' && o.zb);
  assert.equal(commKey(zb), 'Bz');
  assert.equal(opParts(zb, result.comm).length, ops.Bz.parts.length);
  assert.deepEqual(opExposed(zb, result.comm, new Map()).map((g) => g.end - g.start).reduce((a, b) => a + b, 0), ops.Bz.exposed);
  assert.deepEqual(opParts(pair, undefined), []);
});

test('part names, classes, labels and descriptions', () => {
  assert.deepEqual([...new Set(Object.values(ops).flatMap((e) => e.parts.map((p) => p.part)))].sort(), [...PART_NAMES].sort());
  for (const entry of Object.values(ops)) for (const p of entry.parts) assert.equal(partLabel(p.part, p.pass), p.label);
  const dispatch = ops.F.parts.find((p) => p.part === 'dispatch');
  assert.equal(partClass(dispatch, 1), 'k-F d-1 is-comm');
  assert.equal(partClass(ops.W.parts[0], 0), 'k-W d-0');
  assert.equal(partText(dispatch, 100, 6), 'DISPATCH(F)');
  assert.equal(partText(dispatch, 12, 6), 'D');
  assert.equal(partText(dispatch, 8, 6), '');
  const t = translator('en');
  assert.equal(describePart({ ...dispatch, rank: 2, op: 4, dir: 1, mb: 3, start: 7.5, end: 8 }, t, String, 4),
    'Rank 2, op 5: DISPATCH(F), layer 1 of 4, communication stream; chunk of direction 1, micro-batch 3. Time 7.5 to 8.');
  assert.equal(describePart({ rank: 0, op: 0, start: 0.5, end: 1 }, t),
    'Rank 0, op 1: compute waits for an all-to-all (exposed communication). Time 0.5 to 1.');
});
