// The memory-over-time lane: each rank's in-flight activations as a step function of time, as
// core reports them (result.activationSteps, docs/schema.md: per-GPU units, +1 when an F ends,
// -1 when a B ends), with the rank's peak in those units and in stage-micro-batches (core's
// perRank[].peakActivationMemory and peakActivations); in GB when the run has a memory model
// (core's result.memory: model states plus activations at its bytes per unit). memoryEnvelope() reduces the steps in a
// view to at most a few points per pixel, keeping each column's highest level so no peak
// disappears when zoomed out. DOM-free.
import { firstAfter } from './timeline-lod.js';
import { formatFixedIn } from './format.js';
import { DEFAULT_LANG } from './locales.js';

/**
 * Every rank's memory steps of `result` (the JS API's simulate()): {time, level} as core gives
 * them (at time[i] the level becomes level[i]; time[0] = 0 at level 0), `peak` the highest level
 * and `peakCount` the same in stage-micro-batches, `label` the peak as the lane writes it (in
 * language `lang`: "12.0", Spanish "12,0"). With a
 * memory model that counts activations (config.memoryModel, core's result.memory), the levels
 * are GB: each rank's model states plus its in-flight activations, core's bytes per unit times
 * the level (`unit` 'GB'); otherwise per-GPU units (`unit` 'units').
 */
export function memorySteps(result, lang = DEFAULT_LANG) {
  const memory = result.memory?.activations ? result.memory : null;
  const base = memory ? memory.perGpu.bytes.total / 1e9 : 0;
  const perUnit = memory ? memory.activations.bytesPerUnit / 1e9 : 1;
  return result.activationSteps.map(({ time, level }, r) => {
    const peak = result.perRank[r].peakActivationMemory;
    const gb = base + peak * perUnit;
    return {
      time,
      level: memory ? Float64Array.from(level, (v) => base + v * perUnit) : level,
      peak: memory ? gb : peak,
      peakCount: result.perRank[r].peakActivations,
      unit: memory ? 'GB' : 'units',
      label: memory ? formatFixedIn(gb, 1, lang) : null,
    };
  });
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
