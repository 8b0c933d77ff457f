// lib/json-text.js: the member walk agrees with JSON.parse on strings full of quotes and
// backslashes (its string scan jumps from quote to quote and counts the backslashes before each).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { members, valueEnd } from '../../web/js/lib/json-text.js';

// A small deterministic generator, so a failure names a case that reproduces.
function* strings(count) {
  const alphabet = ['"', '\\', 'a', '}', ']', ',', ':', '{', ' ', 'é'];
  let seed = 12345;
  for (let n = 0; n < count; n++) {
    let s = '';
    const length = n % 12;
    for (let k = 0; k < length; k++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      s += alphabet[(seed >>> 16) % alphabet.length]; // the high bits: the low ones cycle
    }
    yield s;
  }
}

test('keys and values with quotes, backslashes and brackets in them are found where JSON.parse finds them', () => {
  const cases = [...strings(400)];
  for (let n = 0; n + 1 < cases.length; n += 2) {
    const object = { [cases[n]]: cases[n + 1], [`${cases[n]}#`]: [cases[n + 1], { x: cases[n] }] };
    const text = JSON.stringify(object, null, n % 4 === 0 ? 1 : 0);
    const { list, close } = members(text, 0);
    assert.equal(text[close], '}', text);
    assert.deepEqual(list.map((m) => m.key), Object.keys(object), text);
    for (const m of list) assert.deepEqual(JSON.parse(text.slice(m.valueStart, m.valueEnd)), object[m.key], text);
  }
});

test('an unterminated string runs to the end of the text', () => {
  assert.equal(valueEnd('"abc\\"', 0), 6);
  assert.equal(valueEnd('"abc\\\\"', 0), 7);
});
