// The vertical and horizontal geometry of a timeline lane, shared by the SVG and the canvas
// renderers and by hit testing: the rank gutter on the left, the idle column on the right, and
// per rank a block of rows (its ops, then optionally its compute and communication streams and
// its memory lane). Runs with many ranks get compact rows so 64 ranks fit on one screen, and a
// narrow lane (a phone) rows a little lower, so a lesson's two compared lanes fit its first screen.
// DOM-free.
import { clamp } from './scale.js';

/** Gutter, idle column, axis band and the full-size rows (as drawn before zoom existed). */
export const LAYOUT = Object.freeze({ rowHeight: 26, rowGap: 6, left: 64, right: 60, top: 26, bottom: 8 });
/** The rows of a narrow lane (a phone): still tall enough for an id, so two lanes fit a first screen. */
export const NARROW_ROWS = Object.freeze({ rowHeight: 20, rowGap: 4 });
/**
 * The rows of a lane inside the course's figure frame (`dense`): the course gives a figure about
 * 600 px on a laptop screen, and an 8-rank lane of these leaves room for the controls and the
 * caption; still tall enough for an id.
 */
export const DENSE_ROWS = Object.freeze({ rowHeight: 22, rowGap: 4 });
/** Sub-rows under a rank's op row: streams (two) and memory. */
export const SUB_ROWS = Object.freeze({ height: 14, gap: 2, charPx: 5.6 });
export const MEMORY_ROW = Object.freeze({ height: 18, gap: 2 });
/** Below this width, the idle column narrows (numbers still fit) so the plot keeps its room. */
const NARROW = 480;
/** Above this many ranks rows shrink so that the lane stays about this tall. */
const MANY_RANKS = 16;
const TALL_LANE = 900;
const MIN_ROW = 10;

/**
 * The geometry of a lane: `ranks` rows, `width` pixels wide (the whole lane), with the streams
 * and/or memory sub-rows; `dense`, in DENSE_ROWS where a narrow lane's or a stream view's rows do
 * not apply. Returns {left, right, top, bottom, plotWidth, rowHeight, gap, block,
 * height, streamsY, memoryY} where rank r's op row starts at rowY(r) and its sub-rows at
 * rowY(r) + streamsY / memoryY (-1 when not shown).
 */
export function laneLayout({ ranks, width, streams = false, memory = false, dense = false }) {
  const narrow = width < NARROW;
  const right = narrow ? 44 : LAYOUT.right;
  const compact = ranks > MANY_RANKS && !streams;
  const full = streams ? LAYOUT : narrow ? NARROW_ROWS : dense ? DENSE_ROWS : LAYOUT;
  const rowHeight = compact ? Math.max(MIN_ROW, Math.min(full.rowHeight, Math.floor(TALL_LANE / ranks) - 2)) : full.rowHeight;
  const memoryHeight = compact ? Math.max(6, Math.round(rowHeight * 0.6)) : MEMORY_ROW.height;
  let block = rowHeight;
  const streamsY = streams ? block : -1;
  if (streams) block += 2 * (SUB_ROWS.gap + SUB_ROWS.height);
  const memoryY = memory ? block + MEMORY_ROW.gap : -1;
  if (memory) block += MEMORY_ROW.gap + memoryHeight;
  const gap = compact ? 2 : full.rowGap + (streams ? 6 : 0);
  const plotWidth = Math.max(40, width - LAYOUT.left - right);
  const height = LAYOUT.top + ranks * (block + gap) - gap + LAYOUT.bottom;
  return {
    left: LAYOUT.left, right, top: LAYOUT.top, bottom: LAYOUT.bottom, plotWidth, width: LAYOUT.left + plotWidth + right,
    rowHeight, gap, block, height, streamsY, memoryY, memoryHeight, compact,
    rowY: (r) => LAYOUT.top + r * (block + gap),
  };
}

/** The rank whose block contains y (pixels from the lane's top), or -1. */
export function rankAtY(layout, y, ranks) {
  const r = Math.floor((y - layout.top) / (layout.block + layout.gap));
  if (r < 0 || r >= ranks) return -1;
  return y - layout.rowY(r) < layout.block ? r : -1;
}

/**
 * The whole rank blocks that cover lane y in [top, bottom): {first, last, top, bottom}, the last
 * two the span a canvas drawing only those ranks takes (from the lane's top when the first rank
 * is 0, the axis band above it included; to the lane's bottom when the last rank is the last).
 */
export function rankSpan(layout, ranks, top, bottom) {
  const pitch = layout.block + layout.gap;
  const first = clamp(Math.floor((top - layout.top) / pitch), 0, ranks - 1);
  const last = clamp(Math.ceil((bottom - layout.top) / pitch) - 1, first, ranks - 1);
  return { first, last, top: first > 0 ? layout.rowY(first) : 0, bottom: last < ranks - 1 ? layout.rowY(last + 1) : layout.height };
}
