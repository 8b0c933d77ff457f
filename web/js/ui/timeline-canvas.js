// The canvas renderer of a timeline lane, for runs too large for one SVG element per op (up to
// core's op cap): a paint draws the runs lib/timeline-lod.js makes of each rank's ops in the
// view (single ops with the dots of direction 1, split pair cells and micro-batch ids once they are wide
// enough; sub-pixel ops grouped per pixel column), fills batched by colour, so its work is
// bounded by pixels, not ops. The canvas is wider than the plot: a view that is the last one moved
// sideways (a pan, or playback following the cursor) moves the canvas in its window by whole
// pixels, painting a margin ahead when the window reaches it and shifting the bitmap when it
// leaves, with the same pixels a whole paint gives (the dots are anchored to the run).
// The axis band above the rows is a small canvas of its own, repainted for each view; the gutter,
// idle column, cursor and veil are the same HTML layers as the SVG renderer's
// (ui/timeline-frame.js). Hover finds the op under the pointer by binary search, and the data
// table lists the ops as text. The canvas covers only the ranks on screen (and ROW_MARGIN
// beyond): a tall lane's bitmap is copied whole to the compositor each time it changes, so rows
// off screen would cost every frame of a pan or of playback; reveal() draws rows scrolled in.
import { h } from './dom.js';
import { ticks, ticksOnStep, niceStep } from '../lib/scale.js';
import { numberFormat } from '../lib/format.js';
import { lodRuns, createRuns, categoryParts, firstAfter, FB_BASE, PART_BASE, PART_PASSES, CATEGORY_KINDS, opAtTime } from '../lib/timeline-lod.js';
import { timeToX, xToTime } from '../lib/timeline-viewport.js';
import { rankAtY, rankSpan } from '../lib/timeline-layout.js';
import { clamp } from '../lib/scale.js';
import { fits, LABEL_CHAR_PX } from './timeline-draw.js';
import { partText } from '../lib/stream-parts.js';
import { drawGutter, drawIdleColumn, cursorLayer, memoryPath } from './timeline-frame.js';
import { dotPattern } from './timeline-palette.js';
import { DOT_TILE } from './timeline-draw.js';

const runs = createRuns(4096);
// Fills by kind and direction (index kind * 2 + dir, a category's own number), then the two
// colours of grouped W columns (palette.solid), then the stream parts' (palette.part, by
// category from PART_BASE).
const CELL_COLOURS = CATEGORY_KINDS.length * 2;
const GROUPED_W = CELL_COLOURS;
const PART_COLOUR = GROUPED_W + 2;
const COLOURS = PART_COLOUR + PART_PASSES.length * 2;
/** A colour index's fill in `palette`. */
const colourOf = (palette, c) => (c >= PART_COLOUR ? palette.part[c - PART_COLOUR]
  : c >= GROUPED_W ? palette.solid.W[c - GROUPED_W] : palette.cell[CATEGORY_KINDS[c >> 1]][c & 1]);
const W_KIND = CATEGORY_KINDS.indexOf('W');
const ALPHAS = 8; // grouped columns' opacity levels
const MAX_LABELS = 3000; // past this many ids in view, text costs more than it tells
/** The canvas's margin each side of the plot, as a share of the plot's width (see canvasLane). */
const MARGIN_SHARE = 0.25;
/** A shift that would keep less than this share of the plot's width paints the view afresh. */
const MIN_KEPT = 0.25;
/**
 * CSS pixels drawn above and below the viewport: rows a scroll brings in are on the canvas
 * already when the compositor scrolls ahead of the repaint, and small scrolls repaint nothing.
 */
const ROW_MARGIN = 128;

/** Rectangles to fill, batched per colour and opacity: one path and one fill per batch. */
function createBatches() {
  const batches = Array.from({ length: COLOURS * ALPHAS }, () => ({ n: 0, xywh: new Float32Array(256) }));
  return {
    add(colour, alphaLevel, x, y, w, hgt) {
      // Whole pixels: a software rasteriser fills an aligned rect far faster than an
      // anti-aliased one, and cells keep crisp edges.
      const left = Math.round(x);
      w = Math.max(1, Math.round(x + w) - left);
      x = left;
      const b = batches[colour * ALPHAS + alphaLevel];
      if (b.n * 4 === b.xywh.length) {
        const bigger = new Float32Array(b.xywh.length * 2);
        bigger.set(b.xywh);
        b.xywh = bigger;
      }
      const at = b.n++ * 4;
      b.xywh[at] = x;
      b.xywh[at + 1] = y;
      b.xywh[at + 2] = w;
      b.xywh[at + 3] = hgt;
    },
    /**
     * The same rectangles written as pixels into `band` (see createBand), in the order fill()
     * paints them, x from `left` scaled by `dpr`; `place(y, hgt)` says which of its rank's
     * template lines a rectangle covers.
     */
    blit(band, colours, place, left, dpr) {
      batches.forEach((b, key) => {
        if (!b.n) return;
        const [r, g, bl, a] = colours[Math.floor(key / ALPHAS)];
        const alpha = a * (((key % ALPHAS) + 1) / ALPHAS);
        for (let i = 0; i < b.n * 4; i += 4) band.rect((b.xywh[i] - left) * dpr, b.xywh[i + 2] * dpr, place(b.xywh[i + 1], b.xywh[i + 3]), r, g, bl, alpha);
        b.n = 0;
      });
    },
    fill(ctx, palette) {
      batches.forEach((b, key) => {
        if (!b.n) return;
        const colour = Math.floor(key / ALPHAS);
        ctx.globalAlpha = ((key % ALPHAS) + 1) / ALPHAS;
        ctx.fillStyle = colourOf(palette, colour);
        // One path of rects, one fill: each fillRect is a draw of its own when the canvas is
        // rasterised, and thousands of them cost twice the time of one path.
        ctx.beginPath();
        for (let i = 0; i < b.n * 4; i += 4) ctx.rect(b.xywh[i], b.xywh[i + 1], b.xywh[i + 2], b.xywh[i + 3]);
        ctx.fill();
        b.n = 0;
      });
      ctx.globalAlpha = 1;
    },
  };
}

/** [r, g, b, alpha 0..1] of a canvas colour string as timeline-palette.js writes it: rgba(r, g, b, a). */
function rgba(text) {
  const [r, g, b, a = 1] = text.match(/[\d.]+/g).map(Number);
  return [r, g, b, a];
}

/** A pixel of colour [r, g, b] at opacity a (0..1), as ImageData stores it (little-endian RGBA). */
const pack = (r, g, b, a) => ((Math.round(a * 255) << 24) | (b << 16) | (g << 8) | r) >>> 0;

/**
 * The rows' band of the plot as an ImageData, painted line by line: every line of a rank's op
 * row is a copy of one of its template lines (upper half, the line between the halves when it
 * is split by anti-aliasing, lower half), every other line a copy of the gap line (transparent,
 * with the gridlines). Writing a few template lines and copying them is far cheaper for a
 * software canvas than filling thousands of rectangles (5.5 ms against 1.5 ms a paint of a
 * 64-rank run, measured), with the same pixels to within one level of a channel.
 */
function createBand(width, height) {
  const image = new ImageData(width, height);
  const px = new Uint32Array(image.data.buffer);
  const gap = new Uint32Array(width);
  let c0 = 0;
  let c1 = width;
  /** Source-over of [r, g, b] at opacity a on pixels [x0, x1) of the line starting at `at`. */
  function over(at, x0, x1, r, g, b, a) {
    if (a >= 1) {
      px.fill(pack(r, g, b, 1), at + x0, at + x1);
      return;
    }
    for (let i = at + x0; i < at + x1; i++) {
      const d = px[i];
      const da = (d >>> 24) / 255;
      const oa = a + da * (1 - a);
      if (oa <= 0) continue;
      const keep = (da * (1 - a)) / oa;
      const k = a / oa;
      px[i] = pack(Math.round(r * k + (d & 255) * keep), Math.round(g * k + ((d >>> 8) & 255) * keep), Math.round(b * k + ((d >>> 16) & 255) * keep), oa);
    }
  }
  return {
    image,
    /** Starts a paint of columns [from, to): the gap line with gridlines at `grid` columns. */
    begin(from, to, grid, gridColour) {
      c0 = from;
      c1 = to;
      gap.fill(0, c0, c1);
      const [r, g, b, a] = gridColour;
      for (const x of grid) if (x >= c0 && x < c1) gap[x] = pack(r, g, b, a);
    },
    /** A template line (starting at pixel `at`): the gap line under the idle fill. */
    template(at, idle) {
      px.set(gap.subarray(c0, c1), at + c0);
      over(at, c0, c1, idle[0], idle[1], idle[2], idle[3]);
    },
    /**
     * Fills [x0, x1) of `lines` ({at, cover}[]: line starts and the share of each line covered)
     * with [r, g, b] at opacity a.
     */
    rect(x0, w, lines, r, g, b, a) {
      const from = Math.max(c0, x0);
      const to = Math.min(c1, x0 + w);
      if (to <= from) return;
      for (const { at, cover } of lines) over(at, from, to, r, g, b, a * cover);
    },
    /**
     * Copies each template line over the rest of its part (`parts`: {first, count} lines, in
     * order down the band); the lines between parts get the gap line, and from line `gridEnd`
     * (where the gridlines stop) on, nothing.
     */
    finish(parts, gridEnd) {
      const gapLine = gap.subarray(c0, c1);
      let next = 0;
      for (const { first, count } of parts) {
        for (; next < first; next++) px.set(gapLine, next * width + c0);
        for (let line = 1; line < count; line++) px.copyWithin((first + line) * width + c0, first * width + c0, first * width + c1);
        next = first + count;
      }
      for (; next < gridEnd; next++) px.set(gapLine, next * width + c0);
      for (; next < image.height; next++) px.fill(0, next * width + c0, next * width + c1);
    },
  };
}

const F_COLOUR = CATEGORY_KINDS.indexOf('F') * 2; // + dir: a category's fill
const B_COLOUR = CATEGORY_KINDS.indexOf('B') * 2;
/** Above this many ops in view, pair cells are drawn as two halves instead of two triangles. */
const MAX_DIAGONAL_OPS = 1500;

/**
 * One lane on a canvas. `lane`: a lane of lib/timeline-model.js (its tracks, itemAt, look,
 * memory). Returns
 * {element, canvas, render(view), setCursor(t), hit(clientX, clientY) -> {op, box} | null,
 * reveal()}: reveal() after the page scrolled or resized draws the ranks that came on screen.
 * The canvas's data-ranks says which ranks it holds ("first-last").
 *
 * The canvas is wider than the plot: a margin each side, painted once the view moves towards it,
 * lets a pan or playback move the canvas by a CSS transform in its window instead of changing
 * its pixels. A software-rasterised canvas is copied whole to the compositor each time its
 * pixels change (the larger part of a frame's work when playback repainted every frame), while a
 * transform is the compositor's alone. When the view leaves the canvas, the bitmap is shifted to
 * keep what it still shows and the margin ahead is painted: one heavier frame in many.
 */
export function canvasLane(lane, { layout, makespan, t, palette, memoryMax = 0, unit = '' }) {
  const L = layout;
  const num = numberFormat(t.lang); // axis ticks: the page's decimal sign, read left to right in the plot
  const ranks = lane.tracks.length;
  const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
  // Moving the bitmap needs whole device pixels; at another ratio every view is painted afresh.
  const movable = Number.isInteger(dpr);
  const margin = movable ? Math.round(L.plotWidth * MARGIN_SHARE) : 0;
  const shown = L.plotWidth + 1; // the window: the plot and the gridline at its right edge
  const width = shown + 2 * margin; // the canvas, in CSS pixels
  const canvas = h('canvas', { class: 'dpl-timeline-canvas', role: 'img', 'aria-label': t('tl.canvasLabel', { title: lane.title, ops: t.number(lane.itemCount) }) });
  canvas.width = Math.round(width * dpr);
  canvas.style.width = `${width}px`;
  const ctx = canvas.getContext('2d', { alpha: true });
  const frame = h('div', { class: 'dpl-canvas-window' }, [canvas]);
  Object.assign(frame.style, { left: `${L.left}px`, width: `${shown}px` });
  const axis = h('canvas', { class: 'dpl-timeline-axis', width: Math.round(L.width * dpr), height: L.top * dpr, 'aria-hidden': 'true' });
  Object.assign(axis.style, { width: `${L.width}px`, height: `${L.top}px` });
  const axisCtx = axis.getContext('2d');
  const cursor = cursorLayer(L);
  // The plot keeps the whole lane's height; the canvas's window is placed over the ranks it holds.
  const element = h('div', { class: 'dpl-lane-plot is-canvas' }, [frame, axis, cursor.element, drawGutter(lane, L, t, unit), drawIdleColumn(lane, L, t)]);
  element.style.height = `${L.height}px`;
  const batches = createBatches();
  const dots = Object.fromEntries(CATEGORY_KINDS.map((kind) => [kind, dotPattern(ctx, palette.dot[kind])]));
  const labelPx = L.rowHeight >= 16;
  const bandWidth = width * dpr;
  const colours = Array.from({ length: COLOURS }, (_, c) => rgba(colourOf(palette, c) ?? palette.idle));
  const idleColour = rgba(palette.idle);
  const gridColour = rgba(palette.grid);
  const tickCount = Math.max(2, Math.floor(L.plotWidth / 70));
  let rows = null; // the ranks the canvas holds: {first, last, top, bottom} (rankSpan)
  let bandY = 0; // canvas pixels above the rows' band (the axis band's height, when rank 0 is held)
  // At a whole-number pixel ratio, rows are painted as pixels (createBand); otherwise as paths.
  let band = null;
  let bandParts = [];
  let rowLines = [];
  /** The template lines a batched rectangle at CSS y, `hgt` tall, covers. */
  const place = (y, hgt) => {
    const r = Math.floor((y - L.top) / (L.block + L.gap));
    const lines = rowLines[r - rows.first];
    return hgt >= L.rowHeight ? lines.full : y === L.rowY(r) ? lines.upper : lines.lower;
  };
  let view = { start: 0, end: makespan }; // what the window shows
  // The canvas's time scale: the time at its left edge and pixels per time unit (null: unpainted),
  // the columns [from, to) painted at that scale, and the column at the window's left edge.
  let origin = null;
  let k = 1;
  let painted = { from: 0, to: 0 };
  let offset = margin;
  let back = null; // a second bitmap to shift through, and its context
  let backCtx = null;
  let diagonal = false; // this view's pair cells are split diagonally (see paintColumns)
  let labelled = false; // this view draws micro-batch ids
  let drafting = false; // this render is a gesture's frame: ids wait for the gesture to end
  let drafted = false; // something painted since the last whole paint lacks its ids
  let screenMoved = true; // the page scrolled or resized since the rows on screen were last read

  /** The part of the lane inside the viewport (CSS pixels from its top), or null while it has no box (hidden). */
  function onScreen() {
    const box = element.getBoundingClientRect();
    if (!box.height) return null;
    const viewport = document.documentElement.clientHeight || globalThis.innerHeight;
    return { top: clamp(-box.top, 0, L.height), bottom: clamp(viewport - box.top, 0, L.height) };
  }

  /**
   * Whether the canvas holds every row on screen; if not, sizes it to those rows and ROW_MARGIN.
   * A hidden lane keeps the rows it holds, and one never shown holds them all.
   */
  function holdsRowsOnScreen() {
    const seen = onScreen();
    if (rows && (!seen || (seen.top >= rows.top && seen.bottom <= rows.bottom))) return true;
    hold(seen ? rankSpan(L, ranks, seen.top - ROW_MARGIN, seen.bottom + ROW_MARGIN) : rankSpan(L, ranks, 0, L.height));
    return false;
  }

  /**
   * Sizes the canvas to the ranks of `span` (which clears it) and lays out their band: each
   * rank's op row as its parts (upper half, the line anti-aliasing splits between the halves
   * when the row is an odd number of pixels tall, lower half) and the template lines a
   * full-height, upper-half and lower-half rectangle covers.
   */
  function hold(span) {
    rows = span;
    canvas.height = Math.round((rows.bottom - rows.top) * dpr);
    canvas.style.height = `${rows.bottom - rows.top}px`;
    Object.assign(frame.style, { top: `${rows.top}px`, height: `${rows.bottom - rows.top}px` });
    canvas.dataset.ranks = `${rows.first}-${rows.last}`;
    origin = null;
    back = null;
    const bandTop = L.rowY(rows.first);
    bandY = (bandTop - rows.top) * dpr;
    band = movable ? createBand(bandWidth, canvas.height - bandY) : null;
    bandParts = [];
    rowLines = [];
    for (let r = rows.first; r <= rows.last; r++) {
      const first = (L.rowY(r) - bandTop) * dpr;
      const tall = L.rowHeight * dpr;
      const half = Math.floor(tall / 2);
      const parts = tall % 2 ? [{ first, count: half }, { first: first + half, count: 1 }, { first: first + half + 1, count: half }] : [{ first, count: half }, { first: first + half, count: half }];
      bandParts.push(...parts);
      const line = (part, cover) => ({ at: part.first * bandWidth, cover });
      const split = parts.length === 3 ? [line(parts[1], 0.5)] : [];
      rowLines.push({
        templates: parts.map((part) => part.first * bandWidth),
        full: parts.map((part) => line(part, 1)),
        upper: [line(parts[0], 1), ...split],
        lower: [line(parts[parts.length - 1], 1), ...split],
      });
    }
  }

  /** After a scroll or resize: paints the view afresh if rows came on screen that the canvas lacks. */
  function reveal() {
    screenMoved = false;
    if (!holdsRowsOnScreen()) render(view);
  }

  /** The axis band: tick marks and their times over the plot. */
  function drawAxis() {
    const g = axisCtx;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, L.width, L.top);
    g.font = `11px ${palette.font}`;
    g.textAlign = 'center';
    g.textBaseline = 'alphabetic';
    g.fillStyle = palette.tick;
    g.strokeStyle = palette.grid;
    g.lineWidth = 1;
    g.beginPath();
    for (const v of ticks(view.start, view.end, tickCount)) {
      const x = Math.round(L.left + timeToX(view, L.plotWidth, v)) + 0.5;
      g.moveTo(x, L.top - 6);
      g.lineTo(x, L.top);
      g.fillText(num(v), x, L.top - 10);
    }
    g.stroke();
  }

  /** How many ops intersect `v`, over all ranks (two binary searches a rank). */
  function opsInView(v) {
    let n = 0;
    for (const tr of lane.tracks) n += firstAfter(tr.start, v.end) - firstAfter(tr.end, v.start);
    return n;
  }

  /**
   * Whether the view draws micro-batch ids: rows tall enough, and at most MAX_LABELS ops in view
   * wide enough for one (12 px; 24 px for a pair, split diagonally only in a sparse view). Decided
   * for the whole view, so a strip painted after a pan agrees with a whole paint.
   */
  function labelsFor(v) {
    if (!labelPx) return false;
    if (opsInView(v) <= MAX_LABELS) return true;
    const px = L.plotWidth / (v.end - v.start);
    let n = 0;
    for (const tr of lane.tracks) {
      for (let i = firstAfter(tr.end, v.start); i < tr.start.length && tr.start[i] < v.end; i++) {
        const w = (tr.end[i] - tr.start[i]) * px - 1; // the 1 px seam
        if (w >= 12 && (tr.cat[i] < FB_BASE || tr.cat[i] >= PART_BASE) && ++n > MAX_LABELS) return false;
      }
    }
    return true;
  }

  /**
   * The canvas column that shows `next` at the window's left edge, in whole pixels, when the
   * canvas's scale can show it (same span); null when it must be painted afresh.
   */
  function columnOf(next) {
    if (origin === null || !movable) return null;
    const span = next.end - next.start;
    if (Math.abs(L.plotWidth / k - span) > span * 1e-9) return null;
    const px = (next.start - origin) * k;
    const at = Math.round(px);
    // A view at either end of the run is painted exactly (its first or last op at the plot's
    // edge), not to the nearest pixel of a moved bitmap (a thousandth of a pixel is whole).
    if (Math.abs(px - at) > 1e-3 && (next.start <= 0 || next.end >= makespan)) return null;
    return at;
  }

  /**
   * Shows view `next`. `draft` (a gesture under way): no micro-batch ids and pair cells as halves
   * rather than triangles, the costliest details of a paint; the next render that is not a draft
   * paints the view afresh with them, so what settles is exactly a whole paint.
   */
  function render(next, { draft = false } = {}) {
    // A whole paint costs more than finding the rows on screen, but that reads the page's layout:
    // only after a scroll or a resize (reveal() keeps up with those), never on a gesture's frame.
    const at = rows && !(drafted && !draft) ? columnOf(next) : null;
    drafting = draft;
    if (at === null) {
      if (screenMoved || !rows) holdsRowsOnScreen();
      screenMoved = false;
      paintAfresh(next);
    } else {
      if (at === offset) return;
      // The window shows the canvas's own scale moved by whole pixels: within half a pixel of
      // `next`, and exactly what painting that view afresh gives. The cursor and hits use it too.
      view = { start: origin + at / k, end: origin + (at + L.plotWidth) / k };
      if (!moveTo(at)) paintAfresh(next);
    }
    drawAxis();
  }

  /** Decisions taken per view (see labelsFor) and the dots' phase for the canvas's scale. */
  function prepare() {
    ctx.setTransform(dpr, 0, 0, dpr, 0, -rows.top * dpr); // canvas columns across, lane y down
    // A gesture's frames draw pair cells as halves and no ids: the two costliest details.
    diagonal = !drafting && labelPx && opsInView(view) <= MAX_DIAGONAL_OPS;
    labelled = !drafting && labelsFor(view);
    drafted ||= drafting && labelPx;
    canvas.dataset.paint = drafted ? 'draft' : 'whole'; // for tests: ids and pair triangles wait
    // The dots move with the ops: anchored at time 0, at a whole pixel.
    const phase = -Math.round(origin * k) % DOT_TILE;
    for (const pattern of Object.values(dots)) pattern.setTransform(new DOMMatrix([1, 0, 0, 1, phase, 0]));
  }

  /**
   * Paints `next` in the window, at the canvas's middle, and nothing of the margins yet: what they
   * hold is stale, and is painted over before the window moves onto it.
   */
  function paintAfresh(next) {
    view = next;
    drafted = false;
    k = L.plotWidth / (next.end - next.start);
    origin = next.start - margin / k;
    prepare();
    paintColumns(margin, margin + shown, band);
    painted = { from: margin, to: margin + shown };
    showColumn(margin);
  }

  /**
   * Shows canvas column `at` at the window's left edge: when the window would leave the canvas,
   * shifts the bitmap so that the window sits at the canvas's far side (the margin on both sides
   * ahead of it), then paints whatever the window needs that is not painted yet, up to the
   * canvas's edge. False when too little of the bitmap would be kept to be worth shifting.
   */
  function moveTo(at) {
    if (at < 0 || at + shown > width) {
      const target = at < 0 ? width - shown : 0;
      const dx = at - target; // columns the content moves left (right when negative)
      const kept = { from: Math.max(painted.from - dx, 0), to: Math.min(painted.to - dx, width) };
      if (kept.to - kept.from < L.plotWidth * MIN_KEPT) return false;
      shiftBitmap(dx);
      origin += dx / k;
      painted = kept;
      at = target;
    }
    const needsLeft = at < painted.from;
    const needsRight = at + shown > painted.to;
    if (needsLeft || needsRight) {
      prepare();
      if (needsLeft) {
        paintColumns(0, painted.from, band);
        painted.from = 0;
      }
      if (needsRight) {
        paintColumns(painted.to, width, band);
        painted.to = width;
      }
    }
    showColumn(at);
    return true;
  }

  /** Puts canvas column `at` at the window's left edge. */
  function showColumn(at) {
    offset = at;
    canvas.style.transform = `translateX(${-at}px)`;
  }

  /**
   * Moves the rows' band `dx` columns left (right when negative), through a second bitmap:
   * Chromium's software canvas draws a canvas onto itself about ten times slower than it makes
   * the two copies (22 ms against 2 at 1216 x 922, measured).
   */
  function shiftBitmap(dx) {
    const y = bandY;
    const bandHeight = canvas.height - y;
    const d = Math.abs(dx) * dpr;
    const w = canvas.width - d;
    const from = dx > 0 ? d : 0;
    if (!back) {
      back = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(canvas.width, canvas.height) : h('canvas', { width: canvas.width, height: canvas.height });
      backCtx = back.getContext('2d');
      backCtx.globalCompositeOperation = 'copy';
    }
    backCtx.drawImage(canvas, from, y, w, bandHeight, from, y, w, bandHeight);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    // 'copy' replaces what is under the image, transparent pixels included (the gaps between
    // rows). The columns the shift uncovers are no longer painted, whatever they hold.
    ctx.globalCompositeOperation = 'copy';
    ctx.drawImage(back, from, y, w, bandHeight, from - dx * dpr, y, w, bandHeight);
    ctx.restore();
  }

  /**
   * Paints the rows' band of canvas columns [x0, x1) (CSS pixels): the rows as pixels through
   * `pixels` (createBand), or as paths when it is null (a pixel ratio that is not whole).
   */
  function paintColumns(x0, x1, pixels = null) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(x0, L.top, x1 - x0, L.height - L.top);
    ctx.clip();
    ctx.clearRect(x0, L.top, x1 - x0, L.height - L.top);
    ctx.strokeStyle = palette.grid;
    ctx.lineWidth = 1;
    // Gridlines end at the canvas's edges: drawn from far outside it, a line is rasterised
    // with a row of partial coverage where it enters, unlike the whole paint's pixels.
    const gridTop = Math.max(L.top, rows.top);
    const gridBottom = Math.min(L.height - L.bottom, rows.bottom);
    ctx.beginPath();
    const grid = gridColumns();
    for (const x of grid) {
      if (x < x0 - 1 || x > x1 + 1) continue;
      ctx.moveTo(x + 0.5, gridTop);
      ctx.lineTo(x + 0.5, gridBottom);
    }
    ctx.stroke();
    paintRows(x0, x1, pixels, grid);
    if (L.memoryY >= 0 && lane.memory) drawMemory(x0, x1);
    ctx.restore();
  }

  /** The canvas columns of the gridlines: the axis's ticks, on the step the window's view gets. */
  function gridColumns() {
    const span = L.plotWidth / k;
    const step = niceStep(span, tickCount);
    return ticksOnStep(origin, origin + width / k, step).map((v) => Math.round((v - origin) * k));
  }

  /** The canvas's time span: the window's view and the margins. */
  const canvasView = () => ({ start: origin, end: origin + width / k });

  /** The idle rows and the ops of canvas columns [from, to); `grid`: the gridlines' columns. */
  function paintRows(from, to, pixels, grid) {
    if (!pixels) {
      ctx.fillStyle = palette.idle;
      ctx.beginPath();
      for (let r = rows.first; r <= rows.last; r++) ctx.rect(from, L.rowY(r), to - from, L.rowHeight);
      ctx.fill();
    }
    const spanned = canvasView();
    const details = []; // x, y, w, category, rank, op of single ops: pair cells, dots, ids
    // Pair cells are split diagonally (two anti-aliased triangles) only where there are few of
    // them and rows are full height: thousands of triangles cost a software-rasterised canvas
    // more than the rest of the frame, so a dense view splits them into upper and lower halves.
    for (let r = rows.first; r <= rows.last; r++) {
      const y = L.rowY(r);
      const n = lodRuns(lane.tracks[r], spanned, width, runs, undefined, from, to);
      for (let j = 0; j < n; j++) {
        const x = runs.x0[j];
        const single = runs.op[j] >= 0;
        // Single ops leave a 1 px seam so neighbours stay apart, as the SVG cells' stroke does.
        const w = single && runs.x1[j] - runs.x0[j] >= 4 ? runs.x1[j] - runs.x0[j] - 1 : runs.x1[j] - runs.x0[j];
        const cat = runs.cat[j];
        const level = Math.round(runs.alpha[j] * ALPHAS) - 1;
        if (cat >= PART_BASE) {
          // A stream part (a trace's range, a modelled pair's part): its name where it fits.
          batches.add(PART_COLOUR + cat - PART_BASE, level, x, y, w, L.rowHeight);
          if (single && labelPx && labelled) details.push(x, y, w, cat, r, runs.op[j]);
        } else if (cat >= FB_BASE && single && diagonal) {
          details.push(x, y, w, cat, r, runs.op[j]);
        } else if (cat >= FB_BASE) {
          // A grouped pair column, or a pair cell in a dense view: forward colour on top,
          // backward below (F upper, B lower, as in the split cell).
          const half = L.rowHeight / 2;
          batches.add(F_COLOUR + ((cat - FB_BASE) >> 1), level, x, y, w, half);
          batches.add(B_COLOUR + ((cat - FB_BASE) & 1), level, x, y + half, w, half);
        } else {
          const isW = cat >> 1 === W_KIND;
          batches.add(isW && !single ? GROUPED_W + (cat & 1) : cat, level, x, y, w, L.rowHeight);
          // Details: the dots of direction 1, and ids where a row is tall enough for one.
          if (single && ((cat & 1) === 1 || (labelPx && labelled))) details.push(x, y, w, cat, r, runs.op[j]);
        }
      }
    }
    if (pixels) {
      const lines = [];
      for (const column of grid) for (let d = 0; d < dpr; d++) lines.push(column * dpr + d);
      pixels.begin(from * dpr, to * dpr, lines, gridColour);
      for (const lines of rowLines) for (const at of lines.templates) pixels.template(at, idleColour);
      batches.blit(pixels, colours, place, 0, dpr);
      pixels.finish(bandParts, (Math.min(rows.bottom, L.height - L.bottom) - L.rowY(rows.first)) * dpr);
      ctx.putImageData(pixels.image, 0, bandY, from * dpr, 0, (to - from) * dpr, pixels.image.height);
    } else {
      batches.fill(ctx, palette);
    }
    drawDetails(details);
  }

  /**
   * Pair cells (two triangles), the dots over direction 1 and micro-batch ids where
   * they fit. Shapes of one colour go into one path and are filled once: thousands of separate
   * fills a frame are what a software-rasterised canvas cannot afford.
   */
  function drawDetails(details) {
    const labels = [];
    const dotted = Object.fromEntries(CATEGORY_KINDS.map((kind) => [kind, []])); // direction-1 ops by kind: x, y, w
    const triangles = { F: [[], []], B: [[], []] }; // pair halves by kind and direction: x, y, w
    const hgt = L.rowHeight;
    for (let i = 0; i < details.length; i += 6) {
      const x = details[i], y = details[i + 1], w = details[i + 2], cat = details[i + 3], rank = details[i + 4], seq = details[i + 5];
      if (cat >= PART_BASE) {
        const text = partText(lane.itemAt(rank, seq), w, LABEL_CHAR_PX);
        if (text) labels.push([x + w / 2, y + hgt / 2, text, palette.partLabel[cat - PART_BASE]]);
        continue;
      }
      if (cat >= FB_BASE) {
        const [f, b] = categoryParts(cat);
        triangles.F[f.dir].push(x, y, w);
        triangles.B[b.dir].push(x, y, w);
        if (labelled && w >= 24) {
          const o = lane.itemAt(rank, seq);
          if (fits(`${o.fmb}${o.bmb}`, w)) labels.push([x + w * 0.27, y + hgt * 0.3, o.fmb, palette.label.F[f.dir]], [x + w * 0.73, y + hgt * 0.72, o.bmb, palette.label.B[b.dir]]);
        }
        continue;
      }
      const kind = CATEGORY_KINDS[cat >> 1];
      const dir = cat & 1;
      if (dir === 1 && w >= 4) dotted[kind].push(x, y, w);
      if (labelled && w >= 12) {
        const o = lane.itemAt(rank, seq);
        if (fits(o.mb, w)) labels.push([x + w / 2, y + hgt / 2, o.mb, palette.label[kind][dir]]);
      }
    }
    // Forward in the upper-left triangle, backward in the lower-right one; direction 1 dotted.
    const trianglePath = (kind, list) => {
      ctx.beginPath();
      for (let i = 0; i < list.length; i += 3) {
        const x = list[i], y = list[i + 1], w = list[i + 2];
        if (kind === 'F') {
          ctx.moveTo(x, y); ctx.lineTo(x + w, y); ctx.lineTo(x, y + hgt);
        } else {
          ctx.moveTo(x + w, y); ctx.lineTo(x + w, y + hgt); ctx.lineTo(x, y + hgt);
        }
      }
    };
    for (const kind of ['F', 'B']) {
      triangles[kind].forEach((list, dir) => {
        if (!list.length) return;
        trianglePath(kind, list);
        ctx.fillStyle = palette.cell[kind][dir];
        ctx.fill(); // closes every triangle (closePath per subpath is slow on a long path)
        if (dir === 1) {
          ctx.fillStyle = dots[kind];
          ctx.fill();
        }
      });
    }
    for (const kind of CATEGORY_KINDS) {
      const list = dotted[kind];
      if (!list.length) continue;
      ctx.fillStyle = dots[kind];
      ctx.beginPath();
      for (let i = 0; i < list.length; i += 3) ctx.rect(list[i], list[i + 1], list[i + 2], hgt);
      ctx.fill();
    }
    if (labels.length) {
      ctx.font = `600 11px ${palette.font}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (const [x, y, text, colour] of labels) {
        ctx.fillStyle = colour;
        ctx.fillText(String(text), x, y);
      }
    }
  }

  /** Each rank's in-flight activations; the whole canvas's path, clipped to columns [from, to). */
  function drawMemory(from, to) {
    ctx.fillStyle = palette.memoryTrack;
    for (let r = rows.first; r <= rows.last; r++) ctx.fillRect(from, L.rowY(r) + L.memoryY, to - from, L.memoryHeight);
    ctx.beginPath();
    const spanned = canvasView();
    for (let r = rows.first; r <= rows.last; r++) {
      const top = L.rowY(r) + L.memoryY;
      memoryPath(lane.memory[r], spanned, width, { x0: 0, y0: top + L.memoryHeight, height: L.memoryHeight - 1, max: memoryMax }, ctx);
    }
    ctx.fillStyle = palette.memory;
    ctx.fill();
  }

  /** The op under a point (client coordinates), with its box on screen, or null. */
  function hit(clientX, clientY) {
    const box = element.getBoundingClientRect();
    const x = clientX - box.left - L.left;
    const y = clientY - box.top;
    const rank = rankAtY(L, y, ranks);
    if (rank < 0 || x < 0 || x > L.plotWidth || y - L.rowY(rank) > L.rowHeight) return null;
    const track = lane.tracks[rank];
    const i = opAtTime(track, xToTime(view, L.plotWidth, x));
    if (i < 0) return null;
    const x0 = box.left + L.left + Math.max(0, timeToX(view, L.plotWidth, track.start[i]));
    const x1 = box.left + L.left + Math.min(L.plotWidth, timeToX(view, L.plotWidth, track.end[i]));
    return { op: lane.itemAt(rank, i), box: { left: x0, top: box.top + L.rowY(rank), width: Math.max(1, x1 - x0), height: L.rowHeight } };
  }

  const setCursor = (time) => cursor.set(timeToX(view, L.plotWidth, Math.min(time, makespan)), time >= makespan);
  return { element, canvas, render, setCursor, hit, reveal };
}
