// Reads a learner's typed answer and judges it against the simulator's value. DOM-free (tested
// under Node). Accepted forms, by the unit an exercise definition names:
//   every kind: 0.039  3.9e-2  3.9 × 10^-2  −0.5  1,234,567 or 12,34,567 (grouping)  ४२ (Devanagari digits)
//   fraction:   3.9%  3.9 pp                      (a percentage, divided by 100)
//   GPU-hours:  0.05  0.05 GPU-hours  3 GPU-minutes  50 milli-GPU-hours (and 0.05 GPU-h, 50 mGPU-h)
//   parameters: 8.82 billion  8820 million  8.82B  8820M  882 crore  8.82 अरब  8.82 बिलियन  (and 8.82e9)
//   bytes:      17.64 GB  17.64e9 B  16.43 GiB  17640 MB  (a bare number is bytes)
//   time units, slots, micro-batches: plain numbers
// On a page whose language writes decimals with a comma (es, ru, tr: usesDecimalComma), a
// single comma between digits is a decimal comma: 0,039  3,9  1234,5  2,75 GB  1,234 (the page
// writes its own numbers so, lib/format.js, and a number copied from it must read back the
// same); two or more commas are grouping (1,234,567). A point is a decimal point in every
// language (a learner may type it as the English examples do; those languages' own examples,
// ex.format.*, write their comma), so their pages group digits with a narrow space (lib/format.js
// formatCount), which is ignored. Also ignored: the bidi marks Arabic
// numbers carry ("27.3\u200e%\u200e"); a percent sign before the number (Turkish "%27,3") is read
// as after it.
// The tolerance comes from the definition: {absolute} and/or {relative}; either one suffices. A
// wrong answer is judged too high or too low, and no more: how far off, or by what factor, would
// let a learner compute the answer from one wrong try (issue 29).
import { decimalSign } from './format.js';

/** Which parser a definition's `unit` text calls for. */
export function unitKind(unit = '') {
  const u = String(unit).toLowerCase();
  if (u === 'fraction') return 'fraction';
  if (u.includes('gpu-hour')) return 'gpuHours';
  if (u === 'parameters') return 'params';
  if (u === 'bytes') return 'bytes';
  if (u.startsWith('slot')) return 'slot';
  return 'plain';
}

const DEVANAGARI_ZERO = 0x0966;

function asciiDigits(text) {
  return text.replace(/[\u0966-\u096F]/g, (d) => String(d.charCodeAt(0) - DEVANAGARI_ZERO));
}

// Unit words per kind -> multiplier. Keys are lower case; matching ignores case except where a
// key is listed in CASED (M for mega vs m for milli matter for GPU-hours only).
const UNITS = {
  fraction: { '%': 0.01, pp: 0.01, 'percent': 0.01, 'प्रतिशत': 0.01 },
  gpuHours: {
    'gpu-hours': 1, 'gpu-hour': 1, 'gpu hours': 1, 'gpu hour': 1, 'gpu-minutes': 1 / 60, 'gpu-minute': 1 / 60,
    'gpu minutes': 1 / 60, minutes: 1 / 60, min: 1 / 60, 'milli-gpu-hours': 1e-3,
    'gpu-h': 1, gpuh: 1, h: 1, 'mgpu-h': 1e-3, 'mgpu-hours': 1e-3, mgpuh: 1e-3, 'kgpu-h': 1e3, 'kgpu-hours': 1e3,
    'gpu-घंटे': 1, 'gpu घंटे': 1, 'घंटे': 1, 'gpu-मिनट': 1 / 60, 'gpu मिनट': 1 / 60, 'मिनट': 1 / 60,
  },
  params: {
    thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12, lakh: 1e5, crore: 1e7,
    k: 1e3, m: 1e6, mn: 1e6, b: 1e9, bn: 1e9, g: 1e9, t: 1e12,
    'लाख': 1e5, 'करोड़': 1e7, 'अरब': 1e9, 'खरब': 1e11, 'मिलियन': 1e6, 'बिलियन': 1e9, 'ट्रिलियन': 1e12,
    params: 1, parameters: 1, 'पैरामीटर': 1,
  },
  bytes: {
    b: 1, byte: 1, bytes: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12,
    kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4, 'बाइट': 1,
  },
  plain: { units: 1, unit: 1, 'time units': 1, u: 1, 'micro-batches': 1, 'इकाई': 1 },
  slot: { slot: 1, 'स्लॉट': 1 },
};

/** The unit words accepted for `kind`, for messages ("%, pp"). */
export function acceptedUnits(kind) {
  return Object.keys(UNITS[kind] || {});
}

const NUMBER = /^([+-]?)(\d[\d,]*(?:\.\d*)?|\.\d+)(?:e([+-]?\d+))?(?:\s*[x×*·]\s*10\s*\^\s*([+-]?\d+))?/i;

/** Digits with grouping commas: 1,234,567 (thousands) or 12,34,567 (Indian); else null. */
function ungroup(intPart) {
  if (!intPart.includes(',')) return intPart;
  if (/^\d{1,3}(,\d{3})+$/.test(intPart) || /^\d{1,2}(,\d{2})*,\d{3}$/.test(intPart)) {
    if (/^0,/.test(intPart)) return null; // 0,039 is a decimal comma, not grouping
    return intPart.replaceAll(',', '');
  }
  return null;
}

/** Whether language `lang` writes a decimal comma (Intl.NumberFormat: es, ru, tr; not en, hi, zh). */
export const usesDecimalComma = (lang) => decimalSign(lang) === ',';

/**
 * Parses `text` as an answer of `kind`. Returns {ok: true, value} in the kind's base unit
 * (fraction, GPU-hours, parameters, bytes, plain number) or {ok: false, reason} where reason is
 * 'empty', 'decimalComma', 'syntax' or 'unit' (with `unit`, the word not understood).
 * `decimalComma`: the page's language writes decimals with a comma (see the header). `scales`:
 * for parameters, the page's own scale words (lower case -> factor: lib/plain-number.js
 * scaleWords), read besides the English and Hindi ones. `units`: the page's own unit words for
 * this kind (lower case -> factor), so a value copied with the unit the page wrote reads back
 * ("0,05 horas-GPU").
 */
export function parseAnswer(text, kind = 'plain', { decimalComma = false, scales = {}, units = {} } = {}) {
  // Bidi isolates around a value the page wrote in a right-to-left language (lib/i18n.js), when copied.
  let s = asciiDigits(String(text ?? '').replace(/[\u2066-\u2069]/g, '')).trim()
    .replace(/[\u2212\u2012\u2013]/g, '-') // minus signs and dashes typed for "minus"
    .replace(/[\u00a0\u2009\u202f_]/g, '') // thin spaces and underscores inside numbers
    .replace(/[\u200e\u200f\u061c]/g, ''); // bidi marks (Arabic "27.3\u200e%\u200e", "\u200e-2.5")
  if (kind === 'fraction') s = s.replace(/^([+-]?)%\s*(.*)$/, '$1$2%'); // Turkish "%27,3": the sign first
  if (s === '') return { ok: false, reason: 'empty' };
  if (decimalComma) {
    // One comma between digits, no point or further comma in the number: a decimal comma.
    const m = /^([+-]?)(\d+),(\d+)(?![\d,.])/.exec(s);
    if (m) s = `${m[1]}${m[2]}.${m[3]}${s.slice(m[0].length)}`;
  }
  if (/^[+-]?\d+,\d+$/.test(s) && !/^[+-]?\d{1,3}(,\d{3})+$/.test(s)) return { ok: false, reason: 'decimalComma' };
  if (/^[+-]?0,\d+/.test(s)) return { ok: false, reason: 'decimalComma' };
  const m = NUMBER.exec(s);
  if (!m) return { ok: false, reason: 'syntax' };
  const [intPart, frac = ''] = m[2].split('.');
  const grouped = ungroup(intPart);
  if (grouped === null) return { ok: false, reason: m[2].startsWith('0,') ? 'decimalComma' : 'syntax' };
  let value = Number(`${m[1]}${grouped || '0'}${frac ? `.${frac}` : ''}`);
  if (m[3] !== undefined) value *= 10 ** Number(m[3]);
  if (m[4] !== undefined) value *= 10 ** Number(m[4]);
  const rest = s.slice(m[0].length).trim();
  if (rest) {
    const table = { ...(kind === 'params' ? { ...UNITS.params, ...scales } : UNITS[kind] || UNITS.plain), ...units };
    const key = rest.toLowerCase().replace(/\s+/g, ' ');
    // GPU-hours: a capital M is not milli; only mGPU-h (lower-case m) scales by 1e-3.
    const factor = kind === 'gpuHours' && /^M/.test(rest) ? undefined : table[key];
    if (factor === undefined) return { ok: false, reason: 'unit', unit: rest };
    value *= factor;
  }
  if (!Number.isFinite(value)) return { ok: false, reason: 'syntax' };
  return { ok: true, value };
}

/** Whether `value` is within `tolerance` ({absolute?, relative?}) of `expected`. */
export function withinTolerance(value, expected, tolerance = {}) {
  const diff = Math.abs(value - expected);
  const absolute = tolerance.absolute ?? (tolerance.relative === undefined ? 0 : undefined);
  const scale = Math.max(Math.abs(expected), 1e-300);
  // A little floating-point slack, so 0.1 + 0.2 style sums never fail an exact (0) tolerance.
  const slack = 1e-9 * Math.max(1, Math.abs(expected));
  if (absolute !== undefined && diff <= absolute + slack) return true;
  if (tolerance.relative !== undefined && diff <= tolerance.relative * scale + slack) return true;
  return false;
}

/**
 * Judges `value` against `expected`: {correct, direction: 'high' | 'low' | null}. Nothing more on
 * purpose: a distance or a factor would give the answer away.
 */
export function judge(value, expected, tolerance = {}) {
  const correct = withinTolerance(value, expected, tolerance);
  return { correct, direction: correct ? null : value > expected ? 'high' : 'low' };
}

/** The tolerance as it reads to a learner: {kind: 'absolute'|'relative'|'exact', amount}. */
export function describeTolerance(tolerance = {}) {
  if (tolerance.relative) return { kind: 'relative', amount: tolerance.relative };
  if (tolerance.absolute) return { kind: 'absolute', amount: tolerance.absolute };
  return { kind: 'exact', amount: 0 };
}
