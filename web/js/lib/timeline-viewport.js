// The time window a timeline shows, and how zoom, pan, playback and keyboard focus move it.
// A view is a plain {start, end} in simulated time; limits are {makespan, minSpan}. Every
// function returns a new view clamped into [0, makespan], never narrower than minSpan, so
// renderers (SVG, canvas, overview strip) only ever map a valid window onto their pixels.
// Modelled on perfetto's and speedscope's viewports: zoom keeps the time under the pointer
// (or the cursor) where it is. DOM-free (tested under Node).
import { clamp } from './scale.js';

/** Zoom-in stops when this many of the shortest op fill the plot (their labels are large). */
const MIN_SHORTEST_OPS_IN_VIEW = 4;
/** One press of a zoom button or key. */
export const ZOOM_STEP = 2;
/** A keyboard pan moves this share of the visible span. */
export const PAN_STEP = 0.25;
/** Playback that follows the cursor keeps it at this share of the view once it gets there. */
const FOLLOW_AT = 0.5;

/** The limits of a run's views: the whole run, and the narrowest window zoom may reach. */
export function viewLimits(makespan, shortestOp) {
  const span = makespan > 0 ? makespan : 1;
  const shortest = shortestOp > 0 && Number.isFinite(shortestOp) ? shortestOp : span;
  return { makespan: span, minSpan: Math.min(span, shortest * MIN_SHORTEST_OPS_IN_VIEW) };
}

/** The whole run. */
export function fitView(limits) {
  return { start: 0, end: limits.makespan };
}

/** `view` moved and narrowed as little as needed to be valid under `limits`. */
export function clampView(view, limits) {
  const span = clamp(view.end - view.start, limits.minSpan, limits.makespan);
  const start = clamp(view.start, 0, limits.makespan - span);
  return { start, end: start + span };
}

export const spanOf = (view) => view.end - view.start;

/** True when the view shows the whole run (nothing to pan to). */
export function isFit(view, limits) {
  return spanOf(view) >= limits.makespan * (1 - 1e-9);
}

/** How many times the run is magnified: 1 when it fits. */
export const magnification = (view, limits) => limits.makespan / spanOf(view);

/**
 * Zoomed by `factor` (> 1 zooms in) around time `anchor`, which keeps its place on screen
 * (the pointer's time for the wheel, the cursor for keys and buttons).
 */
export function zoomView(view, factor, anchor, limits) {
  if (!(factor > 0)) return view;
  const span = spanOf(view);
  const next = clamp(span / factor, limits.minSpan, limits.makespan);
  const at = clamp(anchor, view.start, view.end);
  const start = at - ((at - view.start) / span) * next;
  return clampView({ start, end: start + next }, limits);
}

/** Moved by `dt` time units (positive: later), stopping at the run's ends. */
export function panView(view, dt, limits) {
  return clampView({ start: view.start + dt, end: view.end + dt }, limits);
}

/** The same span centred on time `t` (as far as the run's ends allow). */
export function centerOn(view, t, limits) {
  const half = spanOf(view) / 2;
  return clampView({ start: t - half, end: t + half }, limits);
}

/** The smallest pan that brings [t0, t1] into view, with `margin` (share of span) around it. */
export function revealSpan(view, t0, t1, limits, margin = 0.05) {
  const span = spanOf(view);
  const pad = span * margin;
  if (t1 - t0 > span - 2 * pad) return centerOn(view, (t0 + t1) / 2, limits);
  if (t0 < view.start + pad) return panView(view, t0 - pad - view.start, limits);
  if (t1 > view.end - pad) return panView(view, t1 + pad - view.end, limits);
  return view;
}

/**
 * Where the view goes while the cursor plays forward to `t`. Smoothly: once the cursor is past
 * the middle, the view travels with it. With `paged` (reduced motion: no gliding), the view
 * stays still and jumps a page when the cursor leaves it. A cursor before the view (replay
 * from 0) brings the view back to it either way.
 */
export function followView(view, t, limits, { paged = false } = {}) {
  const span = spanOf(view);
  if (t < view.start) return clampView({ start: t, end: t + span }, limits);
  if (paged) return t > view.end ? clampView({ start: t, end: t + span }, limits) : view;
  const at = view.start + span * FOLLOW_AT;
  return t > at ? panView(view, t - at, limits) : view;
}

/** x (pixels from the plot's left edge, `width` wide) of time `t`, and back. */
export function timeToX(view, width, t) {
  return ((t - view.start) / spanOf(view)) * width;
}
export function xToTime(view, width, x) {
  return view.start + (x / width) * spanOf(view);
}

/**
 * The view's window on an overview strip `width` pixels wide showing the whole run: its left
 * edge and width, at least `minWidth` pixels so it stays visible and draggable when zoomed far.
 */
export function overviewWindow(view, limits, width, minWidth = 8) {
  const w = Math.min(width, Math.max(minWidth, (spanOf(view) / limits.makespan) * width));
  const centre = ((view.start + view.end) / 2 / limits.makespan) * width;
  return { x: clamp(centre - w / 2, 0, width - w), width: w };
}

/**
 * Zoom factor of one wheel event: ctrl+wheel and trackpad pinches (which arrive as wheel
 * events with ctrlKey) zoom by deltaY; lines and pages are converted to pixels first.
 */
export function wheelZoomFactor(deltaY, deltaMode = 0) {
  const px = deltaY * (deltaMode === 1 ? 16 : deltaMode === 2 ? 400 : 1);
  return Math.exp(-clamp(px, -200, 200) * 0.005);
}

/**
 * What a key does to the view (keyboard zoom and pan), or null. `+`/`=` zoom in, `-` zoom out,
 * `0` fits the run; with `pan` (the overview strip has focus), arrows move a quarter of the
 * view, Page Up/Down a whole view, Home/End go to the run's ends.
 */
export function viewKeyAction(key, { pan = false } = {}) {
  if (key === '+' || key === '=') return { zoom: ZOOM_STEP };
  if (key === '-' || key === '_') return { zoom: 1 / ZOOM_STEP };
  if (key === '0') return { fit: true };
  if (!pan) return null;
  const moves = { ArrowLeft: -PAN_STEP, ArrowRight: PAN_STEP, PageUp: -1, PageDown: 1 };
  if (key in moves) return { pan: moves[key] };
  if (key === 'Home') return { edge: -1 };
  if (key === 'End') return { edge: 1 };
  return null;
}

/** The new view after a viewKeyAction, zooming around `anchor` (the time cursor). */
export function applyViewAction(view, action, anchor, limits) {
  if (action.fit) return fitView(limits);
  if (action.zoom) return zoomView(view, action.zoom, anchor, limits);
  if (action.pan) return panView(view, action.pan * spanOf(view), limits);
  if (action.edge) return panView(view, action.edge * limits.makespan, limits);
  return view;
}
