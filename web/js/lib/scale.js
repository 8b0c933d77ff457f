// Layout maths for the SVG charts: linear scales and "nice" tick positions. DOM-free.

/** A linear map from [d0, d1] to [r0, r1]; `invert` maps back. A zero-width domain maps to r0. */
export function linearScale([d0, d1], [r0, r1]) {
  const span = d1 - d0;
  const k = span === 0 ? 0 : (r1 - r0) / span;
  const scale = (v) => r0 + (v - d0) * k;
  scale.invert = (x) => (k === 0 ? d0 : d0 + (x - r0) / k);
  scale.domain = [d0, d1];
  scale.range = [r0, r1];
  return scale;
}

/** The 1/2/5 x 10^k step that gives about `count` intervals over `span`. */
export function niceStep(span, count = 8) {
  if (!(span > 0) || !(count > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  const nice = unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * Tick values from min to max (inclusive, within rounding) on a nice step.
 * Steps below 1 are allowed only when `integer` is false (time axes with fractional costs).
 */
export function ticks(min, max, count = 8, { integer = false } = {}) {
  let step = niceStep(max - min, count);
  if (integer) step = Math.max(1, Math.round(step));
  return ticksOnStep(min, max, step);
}

/** The multiples of `step` from min to max (inclusive, within rounding). */
export function ticksOnStep(min, max, step) {
  const first = Math.ceil(min / step - 1e-9) * step;
  const out = [];
  for (let v = first; v <= max + step * 1e-9; v += step) {
    out.push(Number(v.toFixed(10)));
    if (out.length > 1000) break; // guards against a pathological span
  }
  return out;
}

/** Clamps v into [lo, hi]. */
export function clamp(v, lo, hi) {
  return Math.min(hi, Math.max(lo, v));
}
