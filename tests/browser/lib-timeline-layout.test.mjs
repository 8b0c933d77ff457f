// web/js/lib/timeline-layout.js under Node: which whole ranks a canvas holding only the rows on
// screen draws. Hand values: 64 compact ranks, 14 px apart below a 26 px axis band (928 px tall).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { laneLayout, rankSpan } from '../../web/js/lib/timeline-layout.js';

const L = laneLayout({ ranks: 64, width: 874 });

test('a span of the lane is held as the whole ranks it touches', () => {
  assert.equal(L.height, 928);
  // From the top: the axis band comes with rank 0; y 600 falls in rank 41 (26 + 41 * 14 = 600).
  assert.deepEqual(rankSpan(L, 64, -128, 600), { first: 0, last: 40, top: 0, bottom: 600 });
  assert.deepEqual(rankSpan(L, 64, -128, 601), { first: 0, last: 41, top: 0, bottom: 614 });
  // In the middle: from the rank containing the top to the rank containing the bottom.
  assert.deepEqual(rankSpan(L, 64, 300, 500), { first: 19, last: 33, top: 292, bottom: 502 });
  // To the end: the last rank brings the lane's bottom margin.
  assert.deepEqual(rankSpan(L, 64, 800, 2000), { first: 55, last: 63, top: 796, bottom: 928 });
  // An empty span above or below the lane still holds one rank, so there is always a canvas.
  assert.deepEqual(rankSpan(L, 64, 0, 0), { first: 0, last: 0, top: 0, bottom: 40 });
  assert.deepEqual(rankSpan(L, 64, 928, 928), { first: 63, last: 63, top: 908, bottom: 928 });
});

// Hand values: 8 ranks below a 26 px axis band with an 8 px foot: 26 + 8 rows - 1 gap + 8.
test('dense rows (the course frame) make an 8-rank lane 22 + 4 px a rank; a phone\'s or a stream view\'s rows still win', () => {
  assert.equal(laneLayout({ ranks: 8, width: 760 }).height, 26 + 8 * (26 + 6) - 6 + 8); // 284
  assert.equal(laneLayout({ ranks: 8, width: 760, dense: true }).height, 26 + 8 * (22 + 4) - 4 + 8); // 238
  assert.equal(laneLayout({ ranks: 8, width: 320, dense: true }).height, 26 + 8 * (20 + 4) - 4 + 8); // 222, a phone's rows
  assert.equal(laneLayout({ ranks: 8, width: 760, dense: true, streams: true }).rowHeight, 26);
});
