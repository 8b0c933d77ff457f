// The memory-over-time lane: each rank's in-flight activations as a step function of time,
// computed from its op track (lib/timeline-lod.js) by the accounting of docs/schema.md
// "peakActivations": +1 when an F ends, -1 when a B (full or input-gradient) ends, nothing for
// a W, and nothing for an overlapped FB pair (it frees its backward's activations as its
// forward's appear). Core counts stage-micro-batches (perRank[].peakActivations is the step
// function's maximum in that count); the lane shows per-GPU units (perGpuUnit), so compared
// schedules with different stage sizes read on one scale. memoryEnvelope() reduces the steps
// in a view to at most a few points per pixel, keeping each column's highest level so no peak
// disappears when zoomed out. DOM-free.
import { firstAfter, isForward, isBackward } from './timeline-lod.js';

/**
 * What one stage-micro-batch of activations is in per-GPU units (one micro-batch's activations
 * through 1/ranks of the model; a DualPipeV stage is half a rank's layers, so it counts 1/2).
 * Core defines the unit (docs/schema.md, peakActivationMemory); this reads it back from core's
 * own pair of peaks rather than restating the definition.
 */
export function perGpuUnit(result) {
  return result.maxPeakActivations > 0 ? result.maxPeakActivationMemory / result.maxPeakActivations : 1;
}

/**
 * A rank's activations over time in `unit`s of a stage-micro-batch (perGpuUnit): at time[i] the
 * level becomes level[i] (time[0] = 0, level 0); `peak` is the highest level, `peakCount` the
 * same in stage-micro-batches (what core's perRank[].peakActivations reports).
 */
export function activationSteps(track, unit) {
  const n = track.start.length;
  const time = [0];
  const level = [0];
  let now = 0;
  let peakCount = 0;
  for (let i = 0; i < n; i++) {
    const c = track.cat[i];
    const delta = isForward(c) ? 1 : isBackward(c) ? -1 : 0;
    if (!delta) continue;
    now += delta;
    peakCount = Math.max(peakCount, now);
    time.push(track.end[i]);
    level.push(now * unit);
  }
  return { time: Float64Array.from(time), level: Float64Array.from(level), peak: peakCount * unit, peakCount };
}

/** A reusable buffer of step points: from x[j] (pixels) until x[j + 1] the level is y[j]. */
export function createSteps(capacity = 512) {
  return { n: 0, x: new Float32Array(capacity), y: new Float64Array(capacity) };
}

function push(out, x, y) {
  if (out.n > 0 && out.y[out.n - 1] === y) return;
  if (out.n === out.x.length) {
    const bigger = createSteps(out.x.length * 2);
    bigger.x.set(out.x);
    bigger.y.set(out.y);
    Object.assign(out, bigger, { n: out.n });
  }
  out.x[out.n] = x;
  out.y[out.n] = y;
  out.n++;
}

/**
 * The steps of `steps` in `view` on a plot `width` pixels wide, into `out` (from createSteps):
 * the first point at x = 0 holds the level at the view's start; changes less than a pixel apart
 * collapse into one pixel-wide step at their highest level, then the level after them. Returns
 * out.n; the last step runs to the plot's right edge.
 */
export function memoryEnvelope(steps, view, width, out) {
  out.n = 0;
  const { time, level } = steps;
  const k = width / (view.end - view.start);
  let i = Math.max(0, firstAfter(time, view.start) - 1);
  push(out, 0, level[i]);
  i++;
  while (i < time.length && time[i] < view.end) {
    const x = (time[i] - view.start) * k;
    const column = Math.floor(x);
    let high = level[i];
    let j = i + 1;
    while (j < time.length && time[j] < view.end && (time[j] - view.start) * k < column + 1) {
      high = Math.max(high, level[j]);
      j++;
    }
    if (j - i > 1) {
      push(out, column, high);
      push(out, column + 1, level[j - 1]);
    } else {
      push(out, x, level[i]);
    }
    i = j;
  }
  return out.n;
}
