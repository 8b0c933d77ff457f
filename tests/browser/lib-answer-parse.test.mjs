// web/js/lib/answer-parse.js under Node: the answer formats an exercise accepts, the messages for
// what it cannot read, and how a wrong answer is judged (too high or too low, nothing more).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnswer, unitKind, judge, withinTolerance, describeTolerance, usesDecimalComma } from '../../web/js/lib/answer-parse.js';
import { LOCALES } from '../../web/js/lib/locales.js';

const value = (text, kind) => {
  const r = parseAnswer(text, kind);
  assert.ok(r.ok, `${text} (${kind}) should parse: ${JSON.stringify(r)}`);
  return r.value;
};
const near = (a, b) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

test('definition units map to parsers', () => {
  assert.equal(unitKind('fraction'), 'fraction');
  assert.equal(unitKind('H800 GPU-hours per million tokens'), 'gpuHours');
  assert.equal(unitKind('parameters'), 'params');
  assert.equal(unitKind('bytes'), 'bytes');
  assert.equal(unitKind('slot (0-based)'), 'slot');
  assert.equal(unitKind('time units'), 'plain');
  assert.equal(unitKind(undefined), 'plain');
});

test('a fraction reads as 0.039, 3.9e-2, 3.9%, 3.9 pp and 3.9 × 10^-2', () => {
  for (const text of ['0.039', '3.9e-2', '3.9E-2', '3.9%', '3.9 %', '3.9 pp', '3.9 × 10^-2', '3.9x10^-2', '.039', '+0.039']) {
    near(value(text, 'fraction'), 0.039);
  }
  near(value('−0.5', 'fraction'), -0.5); // a typographic minus
  near(value('०.०३९', 'fraction'), 0.039); // Devanagari digits
});

test('GPU-hours read with or without units, milli included', () => {
  near(value('0.05', 'gpuHours'), 0.05);
  near(value('50 mGPU-h', 'gpuHours'), 0.05);
  near(value('0.05 GPU-h', 'gpuHours'), 0.05);
  near(value('0.05 GPU-hours', 'gpuHours'), 0.05);
  near(value('3 GPU-minutes', 'gpuHours'), 0.05);
  near(value('3 मिनट', 'gpuHours'), 0.05);
  near(value('50 milli-GPU-hours', 'gpuHours'), 0.05);
  assert.deepEqual(parseAnswer('50 MGPU-h', 'gpuHours'), { ok: false, reason: 'unit', unit: 'MGPU-h' });
});

test('parameters read as 8.82e9, 8.82B, 8820M, 8.82 billion, 882 crore and grouped digits', () => {
  near(value('8.82e9', 'params'), 8.82e9);
  near(value('8.82B', 'params'), 8.82e9);
  near(value('8820M', 'params'), 8.82e9);
  near(value('8.82 billion', 'params'), 8.82e9);
  near(value('882 crore', 'params'), 8.82e9);
  near(value('8.82 अरब', 'params'), 8.82e9);
  near(value('8.82 बिलियन', 'params'), 8.82e9);
  near(value('14.8 trillion', 'params'), 14.8e12);
  near(value('8,819,213,312', 'params'), 8819213312);
  near(value('8,81,92,13,312', 'params'), 8819213312); // Indian grouping
});

test('bytes read as 17.65 GB, 17.65e9 B, GiB and MB; a bare number is bytes', () => {
  near(value('17.65 GB', 'bytes'), 17.65e9);
  near(value('17.65GB', 'bytes'), 17.65e9);
  near(value('17.65e9 B', 'bytes'), 17.65e9);
  near(value('17650 MB', 'bytes'), 17.65e9);
  near(value('16.4 GiB', 'bytes'), 16.4 * 2 ** 30);
  near(value('17638426624', 'bytes'), 17638426624);
});

test('unreadable input says why: empty, decimal comma, syntax, unknown unit', () => {
  assert.deepEqual(parseAnswer('', 'fraction'), { ok: false, reason: 'empty' });
  assert.deepEqual(parseAnswer('   ', 'fraction'), { ok: false, reason: 'empty' });
  assert.deepEqual(parseAnswer('0,039', 'fraction'), { ok: false, reason: 'decimalComma' });
  assert.deepEqual(parseAnswer('1,5', 'plain'), { ok: false, reason: 'decimalComma' });
  assert.deepEqual(parseAnswer('abc', 'plain'), { ok: false, reason: 'syntax' });
  assert.deepEqual(parseAnswer('1,23,4', 'plain'), { ok: false, reason: 'syntax' });
  assert.deepEqual(parseAnswer('17 parsecs', 'bytes'), { ok: false, reason: 'unit', unit: 'parsecs' });
  assert.deepEqual(parseAnswer('3.9%', 'bytes'), { ok: false, reason: 'unit', unit: '%' });
});

test('tolerances: absolute, relative, exact', () => {
  assert.ok(withinTolerance(0.195, 0.1932, { absolute: 0.005 }));
  assert.ok(!withinTolerance(0.2, 0.1932, { absolute: 0.005 }));
  assert.ok(withinTolerance(0.0504, 0.05, { relative: 0.01 }));
  assert.ok(!withinTolerance(0.0506, 0.05, { relative: 0.01 }));
  assert.ok(withinTolerance(1, 1, { absolute: 0 }));
  assert.ok(withinTolerance(0.1 + 0.2, 0.3, { absolute: 0 }));
  assert.ok(!withinTolerance(2, 1, {}));
  assert.deepEqual(describeTolerance({ relative: 0.01 }), { kind: 'relative', amount: 0.01 });
  assert.deepEqual(describeTolerance({ absolute: 0 }), { kind: 'exact', amount: 0 });
});

test('a wrong answer is only too high or too low: nothing the answer can be computed from', () => {
  const gain = 40 / 207; // DualPipe - 1F1B utilisation at P=8 M=16
  assert.deepEqual(judge(0.193, gain, { absolute: 0.005 }), { correct: true, direction: null });
  assert.deepEqual(judge(0.25, gain, { absolute: 0.005 }), { correct: false, direction: 'high' });
  // A percentage typed as a fraction, a flipped sign: still only a direction (issue 29: "too high,
  // by about 1900%" let a learner work the answer out from one wrong try).
  assert.deepEqual(judge(19.32, gain, { absolute: 0.005 }), { correct: false, direction: 'high' });
  assert.deepEqual(judge(-gain, gain, { absolute: 0.005 }), { correct: false, direction: 'low' });
});

test('a language that writes a decimal comma: a single comma is its decimal comma, as the page writes its numbers', () => {
  // Which languages: Intl's, not a list of ours (Spanish, Russian, Turkish write 1,5; English, Hindi, Chinese 1.5).
  for (const { code } of LOCALES) assert.equal(usesDecimalComma(code), new Intl.NumberFormat(code).format(1.5).includes(','), code);
  assert.equal(usesDecimalComma('es'), true);
  assert.equal(usesDecimalComma('en'), false);
  const comma = { decimalComma: true };
  const read = (text, kind = 'plain') => {
    const r = parseAnswer(text, kind, comma);
    assert.ok(r.ok, `${text} (${kind}): ${JSON.stringify(r)}`);
    return r.value;
  };
  near(read('0,039', 'fraction'), 0.039);
  near(read('3,9%', 'fraction'), 0.039);
  near(read('1,5'), 1.5);
  near(read('-2,75'), -2.75);
  near(read('1234,5'), 1234.5);
  near(read('12,3456'), 12.3456);
  near(read('2,75 GB', 'bytes'), 2.75e9);
  near(read('8,82 billion', 'params'), 8.82e9);
  near(read('3,9e-2', 'fraction'), 0.039);
  // A point stays a decimal point; two commas can only be grouping.
  near(read('4.5'), 4.5);
  near(read('1,234,567', 'params'), 1234567);
  // One comma before exactly three digits: the page itself writes 1.667 as "1,667" in these
  // languages (lib/format.js), so a number copied from it reads back as itself.
  near(read('1,667'), 1.667);
  near(read('12,345'), 12.345);
  near(read('-999,000'), -999);
  // The forms those pages write: a narrow space or no-break space grouping, the percent sign
  // after a no-break space (Spanish, Russian) or first (Turkish).
  near(read('8\u202f819\u202f734\u202f528', 'params'), 8819734528);
  near(read('1\u00a0234\u00a0567', 'params'), 1234567);
  near(read('27,3\u00a0%', 'fraction'), 0.273);
  near(read('%27,3', 'fraction'), 0.273);
  // Without the option (English, Hindi, Chinese pages) nothing changes.
  assert.deepEqual(parseAnswer('1,5', 'plain'), { ok: false, reason: 'decimalComma' });
  assert.equal(parseAnswer('1,234', 'plain').value, 1234);
  // Not a number either way.
  assert.equal(parseAnswer('1,2,3', 'plain', comma).ok, false);
  assert.equal(parseAnswer('1.234,5', 'plain', comma).ok, false);
});

test('the bidi marks of an Arabic page\'s numbers are not part of the number', () => {
  // Intl writes ar percentages and negatives with left-to-right marks: "27.3\u200e%\u200e", "\u200e-2.5".
  assert.equal(parseAnswer('27.3\u200e%\u200e', 'fraction').value, 0.273);
  assert.equal(parseAnswer('\u200e-2.5', 'plain').value, -2.5);
  assert.equal(parseAnswer('\u200f4.5', 'plain').value, 4.5);
});
