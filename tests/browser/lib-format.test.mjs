// web/js/lib/format.js under Node: numbers as the page shows them, and quoted lesson numbers
// compared in the quote's own shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatNumber, formatPercent, formatLike, quotedShape, readPath } from '../../web/js/lib/format.js';

test('formatNumber rounds float noise away and drops trailing zeros', () => {
  assert.equal(formatNumber(4.200000000000001), '4.2');
  assert.equal(formatNumber(7), '7');
  assert.equal(formatNumber(2.5), '2.5');
  assert.equal(formatNumber(1 / 3), '0.333');
  assert.equal(formatNumber(-0.0001), '0');
});

test('formatPercent: DualPipe 8x20 bubble 48 / (8 x 66) = 9.1%', () => {
  assert.equal(formatPercent(48 / 528), '9.1%');
  assert.equal(formatPercent(0.5, 0), '50%');
});

test('formatLike writes the live value in the shape of the quote', () => {
  // 1F1B P=8 M=16: (P-1)/(M+P-1) = 7/23 = 30.43...%
  assert.equal(formatLike(7 / 23, '30.4%'), '30.4%');
  assert.equal(formatLike(21, '21'), '21');
  assert.equal(formatLike(0.04, '0.04'), '0.04');
  assert.equal(formatLike(4, '4.0'), '4.0');
  // A plain quote keeps the simulator's digits, unless the value rests on estimated inputs.
  assert.equal(formatLike(117.252796, '117.3'), '117.252796');
  assert.equal(formatLike(117.252796, '117.3', 'makespan', { estimate: true }), '117.3');
  assert.equal(formatLike(7 / 23, '', 'bubble.fraction'), '30.4%');
  assert.equal(formatLike(6, ''), '6');
});

test('formatLike keeps the simulator\'s digits when the quote has fewer', () => {
  // DualPipe P=8 at F&B=2.4: (P/2-1)(F&B+B-3W) = 3 x 1.4 = 4.2 per rank, quoted "6" at F&B=3.
  assert.equal(formatLike(3 * 1.4, '6'), '4.2');
  assert.equal(formatLike(4.25, '4.0'), '4.25');
  // Simulated times are multiples of 1e-6: no more digits than that.
  assert.equal(formatLike(1 / 3, '0'), '0.333333');
  // A percentage is a ratio: the quote's precision.
  assert.equal(formatLike(0.0590909, '5.9%'), '5.9%');
});

test('quotedShape recognises plain, percent and unit quotes only', () => {
  assert.deepEqual(quotedShape('11.1%'), { decimals: 1, percent: true, unit: '', scale: 1 });
  assert.deepEqual(quotedShape('16'), { decimals: 0, percent: false, unit: '', scale: 1 });
  assert.deepEqual(quotedShape('12.87 GB'), { decimals: 2, percent: false, unit: ' GB', scale: 1e9 });
  assert.deepEqual(quotedShape('1.71B'), { decimals: 2, percent: false, unit: 'B', scale: 1e9 });
  assert.equal(quotedShape('about 6'), null);
  assert.equal(quotedShape('6 MB'), null);
});

test('formatLike writes bytes and parameter counts in the quote\'s unit, at its precision', () => {
  // The memory model's DeepSeek-V3 second copy, 12,871,811,798 bytes, and 1,708,435,808 parameters.
  assert.equal(formatLike(12871811798, '12.87 GB'), '12.87 GB');
  assert.equal(formatLike(12871811798, '13 GB'), '13 GB');
  assert.equal(formatLike(1708435808, '1.71B'), '1.71B');
  assert.equal(formatLike(1102401664, '1.10B'), '1.10B');
});

test('readPath follows dotted paths and returns undefined past the end', () => {
  const result = { bubble: { max: 6 }, stages: 8 };
  assert.equal(readPath(result, 'bubble.max'), 6);
  assert.equal(readPath(result, 'stages'), 8);
  assert.equal(readPath(result, 'bubble.min.x'), undefined);
});


test('in another language, numbers are written as Intl writes them there; English as the lesson writes them', () => {
  // Each language's own decimal sign, digits and percent sign, from Intl (not a table of ours).
  for (const lang of ['hi', 'zh', 'es', 'ru', 'tr', 'ar']) {
    const decimal = new Intl.NumberFormat(lang).formatToParts(2.5).find((p) => p.type === 'decimal').value;
    assert.equal(formatNumber(2.40000001, 3, lang), new Intl.NumberFormat(lang).format(2.4), lang);
    assert.ok(formatNumber(2.40000001, 3, lang).includes(decimal), lang);
    assert.equal(formatNumber(2664000, 3, lang), new Intl.NumberFormat(lang, { useGrouping: false }).format(2664000), `${lang}: no grouping`);
    assert.equal(formatNumber(-0.0001, 3, lang), new Intl.NumberFormat(lang).format(0), `${lang}: no minus zero`);
    assert.equal(formatPercent(0.0909, 1, lang), new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1 }).format(0.0909), lang);
  }
  assert.equal(formatNumber(2.4, 3, 'es'), '2,4');
  assert.equal(formatNumber(2.4, 3, 'en'), '2.4');
  assert.equal(formatPercent(0.0909, 1, 'en'), '9.1%');
  assert.equal(formatNumber(NaN, 3, 'es'), 'NaN');
});
