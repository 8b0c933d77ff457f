// Nothing lost (issue 30): lib/progress.js and lib/progress-record.js under Node against shared
// records this page cannot read (truncated, foreign-shaped, another version's), huge ones and
// hostile ones. Whatever the learner does, no byte of another lesson's data changes: an
// unreadable record is left exactly as it was and copied aside before this lesson writes
// anything, this lesson's progress is kept in its own key until the record can be merged, and
// a readable record is changed only in this lesson's members. Before, the page replaced any
// record it could not read with a fresh one of its own, without a word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress, STORAGE_KEY, LESSON_PATH, UNREADABLE_PREFIX, PENDING_PREFIX } from '../../web/js/lib/progress.js';
import { members, rootStart, find } from '../../web/js/lib/json-text.js';

/** localStorage as a browser has it: getItem, setItem, removeItem, key, length; `quota` in UTF-16 units over all keys and values. */
function browserStorage(initial = {}, quota = Infinity) {
  const data = new Map(Object.entries(initial));
  const used = () => [...data].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    data,
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem(k, v) {
      const before = data.get(k);
      data.set(k, String(v));
      if (used() > quota) {
        if (before === undefined) data.delete(k); else data.set(k, before);
        throw new Error('QuotaExceededError');
      }
    },
    removeItem: (k) => { data.delete(k); },
    key: (i) => [...data.keys()][i] ?? null,
    get length() { return data.size; },
  };
}
const clock = () => { let t = 1_800_000_000_000; return () => ++t; };

/** Everything a learner does in a visit, through the module's API. */
function visit(p) {
  p.recordVisit();
  p.recordAnswer('pre-q0', 1, false);
  p.recordAnswer('pre-q0', 0, true);
  p.recordAnswer('__proto__', 2, true);
  p.recordExercise('recover-gpu-hours', { correct: true, answers: { gap: { text: '0.193', correct: true } } });
  p.markComplete();
}

const OTHER = 'phases/00-setup-and-tooling/01-dev-environment';
// Another lesson's entry in shapes JSON.parse and JSON.stringify do not round-trip: a number out
// of range, trailing zeros, an exponent, a "__proto__" key, a key given twice, escapes, a lone
// surrogate, deep nesting, another version's fields.
const OTHER_TEXT = '{"answers":{"pre-q0":{"picked":1,"correct":true,"t":1e400},"__proto__":{"picked":0},"x":1,"x":2},' +
  '"completedAt":"2024-01-01","score":1.50,"exp":2E+3,"name":"a\\u0000\\ud800b\\n","deep":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
const readable = (ours = '') =>
  `{"version":2, "lessons" : {"${OTHER}":${OTHER_TEXT}${ours ? `,"${LESSON_PATH}":${ours}` : ''},"z/lesson":[1,2]},"updatedAt":"yesterday","theirs":{"k":1.0}}`;

/** The text of every member of `keys`' object other than `except`, in order. */
function memberTexts(text, keys, except) {
  const at = find(text, rootStart(text), keys)?.at;
  if (at === undefined || at < 0) return [];
  return members(text, at).list.filter((m) => m.key !== except).map((m) => text.slice(m.start, m.end));
}

const UNREADABLE = [
  ['truncated', readable().slice(0, 180)],
  ['truncated mid-string', readable().slice(0, 60)],
  ['cut to one brace', '{'],
  ['not JSON', 'lessons: yes'],
  ['a JSON string', '"progress"'],
  ['an array', '[{"lessons":{}}]'],
  ['null', 'null'],
  ['another shape: no lessons', '{"progress":{"a":{"done":true}},"updatedAt":1}'],
  ['lessons as an array', '{"lessons":[{"path":"a","done":true}]}'],
  ['this lesson as a string', `{"lessons":{"${LESSON_PATH}":"done","${OTHER}":{"completedAt":3}}}`],
  ['this lesson\'s answers as an array', `{"lessons":{"${LESSON_PATH}":{"answers":[1,2]},"${OTHER}":{}}}`],
  ['this lesson given twice', `{"lessons":{"${LESSON_PATH}":{},"${LESSON_PATH}":{"answers":{}}}}`],
  ['lessons given twice', '{"lessons":{"a":{}},"lessons":{"b":{}}}'],
  ['this lesson\'s answers given twice', `{"lessons":{"${LESSON_PATH}":{"answers":{},"answers":{"pre-q0":{"picked":1}}}}}`],
  ['100,000 nested arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
  ['a lone surrogate byte sequence', '{"lessons":{"a":"\ud800"'],
];

test('an unreadable or foreign-shaped record is never written: it is copied aside, and this lesson goes on in its own key', () => {
  for (const [name, text] of UNREADABLE) {
    const storage = browserStorage({ [STORAGE_KEY]: text });
    const p = createProgress({ storage, now: clock() });
    assert.equal(p.status().unreadable, true, name);
    visit(p);
    assert.equal(storage.data.get(STORAGE_KEY), text, `${name}: the record was changed`);
    const copies = [...storage.data.keys()].filter((k) => k.startsWith(UNREADABLE_PREFIX));
    assert.equal(copies.length, 1, `${name}: ${copies.length} copies`);
    assert.equal(storage.data.get(copies[0]), text, `${name}: the copy differs`);
    assert.match(copies[0].slice(UNREADABLE_PREFIX.length), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(p.status(), { unreadable: true, copy: copies[0] }, name);
    // This lesson's progress: kept in its own key, and read back on the next visit.
    const again = createProgress({ storage, now: clock() });
    const entry = again.get();
    assert.deepEqual([entry.answers['pre-q0'].picked, entry.answers['pre-q0'].first.picked, entry.answers.__proto__.picked], [0, 1, 2], name);
    assert.equal(Object.getPrototypeOf(entry.answers), Object.prototype, name);
    assert.equal(entry.exercises['recover-gpu-hours'].correct, true, name);
    assert.ok(entry.completedAt > 0, name);
    assert.ok(storage.data.has(PENDING_PREFIX + LESSON_PATH), name);
    visit(again);
    assert.equal(storage.data.get(STORAGE_KEY), text, `${name}: changed on the second visit`);
    assert.equal([...storage.data.keys()].filter((k) => k.startsWith(UNREADABLE_PREFIX)).length, 1, `${name}: copied again`);
    // "Reset progress" forgets this lesson, and still leaves the record alone.
    again.reset();
    assert.deepEqual(again.get().answers, {}, name);
    assert.equal(storage.data.get(STORAGE_KEY), text, `${name}: changed by a reset`);
  }
});

test('a record of another version keeps every byte of what this lesson does not write', () => {
  const ours = '{"answers":{"pre-q0":"x","check-q0":{"picked":"two"},"kept":{"picked":3,"t":1e400}},"exercises":{"old":{"v":2E1}},"completedAt":"soon","mine":[1.10]}';
  for (const text of [readable(), readable(ours)]) {
    const storage = browserStorage({ [STORAGE_KEY]: text });
    const p = createProgress({ storage, now: clock() });
    assert.equal(p.status().unreadable, false);
    visit(p);
    const after = storage.data.get(STORAGE_KEY);
    // Other lessons, the record's own fields (its updatedAt is not a number: another version's),
    // and this lesson's members it did not write, byte for byte.
    assert.deepEqual(memberTexts(after, ['lessons'], LESSON_PATH), memberTexts(text, ['lessons'], LESSON_PATH));
    assert.deepEqual(memberTexts(after, [], 'lessons'), memberTexts(text, [], 'lessons'));
    const written = new Set(['pre-q0', '__proto__']);
    assert.deepEqual(memberTexts(after, ['lessons', LESSON_PATH, 'answers']).filter((m) => ![...written].some((k) => m.startsWith(`"${k}"`))),
                     memberTexts(text, ['lessons', LESSON_PATH, 'answers']).filter((m) => ![...written].some((k) => m.startsWith(`"${k}"`))));
    assert.ok(after.includes('"exercises":{"old":{"v":2E1},"recover-gpu-hours":') || !text.includes('"old"'));
    assert.ok(after.includes('"mine":[1.10]') || !text.includes('"mine"'));
    // And this lesson's progress is in it, as the course reads it.
    const entry = JSON.parse(after).lessons[LESSON_PATH];
    assert.deepEqual([entry.answers['pre-q0'].picked, entry.answers['pre-q0'].correct], [0, true]);
    assert.deepEqual(Object.keys(storage.data).filter((k) => k !== STORAGE_KEY), []);
    p.reset();
    const reset = storage.data.get(STORAGE_KEY);
    assert.deepEqual(memberTexts(reset, ['lessons']), memberTexts(text, ['lessons'], LESSON_PATH));
  }
});

test('a huge record: changed in place when it fits, left whole when the browser\'s quota refuses it', () => {
  // 4.7 million characters of other lessons, under a 5-million-character quota as browsers have.
  const lessons = Array.from({ length: 2000 }, (_, i) => `"phases/99-big/${i}":{"answers":{"pre-q0":{"picked":1,"correct":true,"t":${i}}},"notes":"${'n'.repeat(2300)}"}`);
  const text = `{"lessons":{${lessons.join(',')}},"updatedAt":5}`;
  assert.ok(text.length > 4_700_000);
  // (assert.ok, not equal: a failure would print megabytes)
  const roomy = browserStorage({ [STORAGE_KEY]: text });
  visit(createProgress({ storage: roomy, now: clock() }));
  const after = memberTexts(roomy.data.get(STORAGE_KEY), ['lessons'], LESSON_PATH);
  assert.ok(after.length === lessons.length && after.every((m, i) => m === lessons[i]), 'another lesson changed');
  // A quota with room for 100 more characters: no write fits, not even this lesson's own key.
  const tight = browserStorage({ [STORAGE_KEY]: text }, text.length + STORAGE_KEY.length + 100);
  const p = createProgress({ storage: tight, now: clock() });
  visit(p);
  assert.ok(tight.data.get(STORAGE_KEY) === text, 'the record was changed');
  assert.deepEqual([...tight.data.keys()], [STORAGE_KEY]);
  assert.equal(p.get().answers['pre-q0'].picked, 0, 'this lesson goes on, in memory for the visit');
  assert.equal(p.status().unreadable, false);
});

test('what was kept apart is merged into the record once it can be read again', () => {
  const storage = browserStorage({ [STORAGE_KEY]: readable().slice(0, 100) });
  const p = createProgress({ storage, now: clock() });
  visit(p);
  // The course's own tracker, or the learner elsewhere, writes a readable record meanwhile.
  const fixed = readable(`{"answers":{"check-q0":{"picked":2,"correct":true,"t":5}},"visitedAt":4}`);
  storage.data.set(STORAGE_KEY, fixed);
  const next = createProgress({ storage, now: clock() });
  const stored = JSON.parse(storage.data.get(STORAGE_KEY)).lessons[LESSON_PATH];
  assert.deepEqual(Object.keys(stored.answers).sort(), ['__proto__', 'check-q0', 'pre-q0']);
  assert.ok(stored.completedAt > 0);
  assert.ok(!storage.data.has(PENDING_PREFIX + LESSON_PATH), 'the own key is gone once merged');
  assert.deepEqual(memberTexts(storage.data.get(STORAGE_KEY), ['lessons'], LESSON_PATH), memberTexts(fixed, ['lessons'], LESSON_PATH));
  assert.equal(next.status().unreadable, false);
});

test('a fresh record, at the learner\'s word, only once the old one is copied aside', () => {
  const text = readable().slice(0, 150);
  const storage = browserStorage({ [STORAGE_KEY]: text });
  const p = createProgress({ storage, now: clock() });
  visit(p);
  assert.equal(p.resetShared(), true);
  const copy = [...storage.data.keys()].find((k) => k.startsWith(UNREADABLE_PREFIX));
  assert.equal(storage.data.get(copy), text);
  const fresh = JSON.parse(storage.data.get(STORAGE_KEY));
  assert.deepEqual(Object.keys(fresh.lessons), [LESSON_PATH]);
  assert.equal(fresh.lessons[LESSON_PATH].answers['pre-q0'].picked, 0);
  assert.deepEqual(p.status(), { unreadable: false, copy: null });
  // No room for the copy: nothing is replaced.
  const full = browserStorage({ [STORAGE_KEY]: text }, text.length + STORAGE_KEY.length + 10);
  const q = createProgress({ storage: full, now: clock() });
  assert.equal(q.resetShared(), false);
  assert.equal(full.data.get(STORAGE_KEY), text);
});
