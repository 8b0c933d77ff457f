// Number formatting shared by every view and by the lesson reader. DOM-free (tested under Node).
// Simulated times are exact multiples of 1e-6, but the formulas in `reference` are computed in
// floating point (4.200000000000001), so everything shown is rounded first.

/** Rounds to at most `decimals` places and drops trailing zeros: 7 -> "7", 2.40 -> "2.4". */
export function formatNumber(value, decimals = 3) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  const fixed = value.toFixed(decimals);
  const trimmed = fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

/** A fraction as a percentage: 0.0909 -> "9.1%". */
export function formatPercent(fraction, decimals = 1) {
  return `${(fraction * 100).toFixed(decimals)}%`;
}

/** How a quoted number is written: percent or plain, and with how many decimals. */
export function quotedShape(quoted) {
  const text = String(quoted).trim();
  const match = /^-?\d+(?:\.(\d+))?(%?)$/.exec(text);
  if (!match) return null;
  return { decimals: match[1] ? match[1].length : 0, percent: match[2] === '%' };
}

/** Decimal places the simulator's own precision (its 1e-6 tick) needs for `value`: 4.2 -> 1. */
export function simDecimals(value) {
  const text = formatNumber(value, 6);
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

/**
 * Formats `value` the way `quoted` is written, so "30.4%" and 0.30434 compare as equal strings;
 * a plain number keeps the digits the simulator gives when the quote has fewer (quoted "6",
 * simulated 4.2: "4.2", never "4"). Percentages are ratios, shown at the quote's precision.
 * Without a usable quote, fractions (0..1 named *fraction or utilization) become percentages.
 */
export function formatLike(value, quoted, field = '') {
  const shape = quoted ? quotedShape(quoted) : null;
  if (shape) {
    if (shape.percent) return formatPercent(value, shape.decimals);
    return value.toFixed(Math.max(shape.decimals, simDecimals(value)));
  }
  if (/(fraction|utilization)$/i.test(field)) return formatPercent(value, 1);
  return formatNumber(value, 6);
}

/** Reads a dotted path ("bubble.max") from a result object; undefined when absent. */
export function readPath(object, path) {
  return String(path)
    .split('.')
    .filter(Boolean)
    .reduce((node, key) => (node == null ? undefined : node[key]), object);
}

