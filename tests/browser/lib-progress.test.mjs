// web/js/lib/progress.js and lib/lang-pref.js under Node: the course's aifs:progress:v1 shape,
// tolerance of missing, corrupt and foreign data, per-lesson reset, and the language choice.
import { test } from 'node:test';
import { readFileSync, readdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import { createProgress, normalizeLesson, summarize, quizQuestionIds, STORAGE_KEY, LESSON_PATH } from '../../web/js/lib/progress.js';
import { initialLang, rememberLang, LANG_STORAGE_KEY } from '../../web/js/lib/lang-pref.js';

function memoryStorage(initial = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k) => (data.has(k) ? data.get(k) : null), setItem: (k, v) => data.set(k, String(v)), data };
}
const clock = () => { let t = 1000; return () => ++t; };

test('records quiz answers in the course\'s shape under this lesson\'s path', () => {
  const storage = memoryStorage();
  const p = createProgress({ storage, now: clock() });
  assert.equal(LESSON_PATH, 'phases/10-llms-from-scratch/19-dualpipe-parallelism');
  p.recordVisit();
  p.recordAnswer('pre-q0', 0, true);
  p.recordAnswer('check-q1', 2, false);
  const stored = JSON.parse(storage.data.get(STORAGE_KEY));
  assert.deepEqual(Object.keys(stored), ['lessons', 'updatedAt']);
  const entry = stored.lessons[LESSON_PATH];
  // The course reads picked, correct and t; first, wrong and tries are ours.
  assert.deepEqual(entry.answers['pre-q0'], { picked: 0, correct: true, t: 1003, first: { picked: 0, correct: true }, wrong: [], tries: 1 });
  assert.deepEqual(entry.answers['check-q1'], { picked: 2, correct: false, t: 1005, first: { picked: 2, correct: false }, wrong: [2], tries: 1 });
  assert.equal(entry.completedAt, null);
  assert.equal(entry.visitedAt, 1001);
  assert.equal(stored.updatedAt, 1006); // every write stamps the entry, then updatedAt
});

test('a retried quiz answer keeps its first try; completion counts the latest, the first-try score the first', () => {
  const p = createProgress({ storage: memoryStorage(), now: clock() });
  p.recordAnswer('pre-q0', 1, false);
  p.recordAnswer('pre-q0', 3, false);
  const e = p.recordAnswer('pre-q0', 0, true);
  assert.deepEqual(e.answers['pre-q0'], { picked: 0, correct: true, t: 1005, first: { picked: 1, correct: false }, wrong: [1, 3], tries: 3 });
  const s = summarize(e, { quizIds: ['pre-q0'], exerciseIds: [] });
  assert.equal(s.quizCorrect, 1);
  assert.equal(s.quizFirstTry, 0);
  assert.equal(s.complete, true);
  // An answer stored before retries existed (no `first`) was its own first try.
  assert.equal(summarize({ answers: { 'pre-q0': { picked: 0, correct: true } } }, { quizIds: ['pre-q0'] }).quizFirstTry, 1);
});

test('exercise attempts count up and keep the learner\'s texts', () => {
  const p = createProgress({ storage: memoryStorage(), now: clock() });
  p.recordExercise('recover-gpu-hours', { correct: false, answers: { 'utilization-gap': { text: '0.25', correct: false } } });
  const e = p.recordExercise('recover-gpu-hours', { correct: true, answers: { 'utilization-gap': { text: '0.193', correct: true } } });
  assert.equal(e.exercises['recover-gpu-hours'].attempts, 2);
  assert.equal(e.exercises['recover-gpu-hours'].correct, true);
  assert.equal(p.get().exercises['recover-gpu-hours'].answers['utilization-gap'].text, '0.193');
});

test('other lessons and unknown fields are kept; reset forgets this lesson only', () => {
  const other = { answers: { 'pre-q0': { picked: 1, correct: true, t: 5 } }, completedAt: 7, visitedAt: 3 };
  const storage = memoryStorage({ [STORAGE_KEY]: JSON.stringify({ lessons: { 'phases/00-setup/01-x': other }, updatedAt: 9, theirs: 'kept' }) });
  const p = createProgress({ storage, now: clock() });
  p.recordAnswer('post-q1', 3, true);
  let stored = JSON.parse(storage.data.get(STORAGE_KEY));
  assert.deepEqual(stored.lessons['phases/00-setup/01-x'], other);
  assert.equal(stored.theirs, 'kept');
  p.reset();
  stored = JSON.parse(storage.data.get(STORAGE_KEY));
  assert.deepEqual(Object.keys(stored.lessons), ['phases/00-setup/01-x']);
  assert.deepEqual(p.get().answers, {});
});

test('corrupt, foreign or unavailable storage never throws', () => {
  for (const text of ['{not json', '"a string"', '[1,2]', '{"lessons": [1]}', '{"lessons": {"phases/10-llms-from-scratch/19-dualpipe-parallelism": "junk"}}',
    'null', '[]', '{"lessons":7}', '{"lessons":{"x":{"answers":"y"}}}', '['.repeat(100000) + ']'.repeat(100000),
    `{"lessons":{"${'k'.repeat(100000)}":{}}}`,
    JSON.stringify({ lessons: { [LESSON_PATH]: { answers: { 'pre-q0': 'x', 'check-q0': { picked: 'a' } }, exercises: [1], completedAt: 'soon' } } })]) {
    const storage = memoryStorage({ [STORAGE_KEY]: text });
    const p = createProgress({ storage, now: clock() });
    assert.deepEqual(p.get().answers, {}, text);
    assert.equal(p.get().completedAt, null);
    p.recordAnswer('pre-q0', 1, true);
    assert.deepEqual(p.get().answers['pre-q0'].picked, 1, text);
  }
  const broken = { getItem() { throw new Error('SecurityError'); }, setItem() { throw new Error('QuotaExceededError'); } };
  const p = createProgress({ storage: broken, now: clock() });
  p.recordAnswer('pre-q0', 0, true);
  assert.equal(p.get().answers['pre-q0'].correct, true, 'kept in memory for the visit');
  assert.equal(createProgress({ storage: null }).get().completedAt, null);
  assert.deepEqual(normalizeLesson(null), { answers: {}, completedAt: null, visitedAt: 0, exercises: {} });
});

test('question ids follow the course ("<stage>-q<index>"); completion needs every answer right and every exercise solved', () => {
  const ids = quizQuestionIds([{ stage: 'pre' }, { stage: 'check' }, { stage: 'check' }, { stage: 'check' }, { stage: 'post' }, { stage: 'post' }]);
  assert.deepEqual(ids, ['pre-q0', 'check-q0', 'check-q1', 'check-q2', 'post-q0', 'post-q1']);
  const answers = Object.fromEntries(ids.map((q) => [q, { picked: 0, correct: true }]));
  const solved = { a: { correct: true }, b: { correct: true } };
  assert.equal(summarize({ answers, exercises: solved }, { quizIds: ids, exerciseIds: ['a', 'b'] }).complete, true);
  assert.equal(summarize({ answers, exercises: { a: { correct: true } } }, { quizIds: ids, exerciseIds: ['a', 'b'] }).complete, false);
  const one = summarize({ answers: { ...answers, 'post-q1': { picked: 1, correct: false } }, exercises: solved }, { quizIds: ids, exerciseIds: ['a', 'b'] });
  assert.deepEqual(one, { quizAnswered: 6, quizCorrect: 5, quizFirstTry: 5, quizTotal: 6, exercisesSolved: 2, exercisesTotal: 2, complete: false });
});

test('an optional exercise is not needed for completion but still counts as solved or not', () => {
  const answers = { 'pre-q0': { picked: 0, correct: true } };
  const options = { quizIds: ['pre-q0'], exerciseIds: ['a', 'b', 'c'], optionalIds: ['c'] };
  const required = summarize({ answers, exercises: { a: { correct: true }, b: { correct: true } } }, options);
  assert.deepEqual([required.exercisesSolved, required.exercisesTotal, required.complete], [2, 3, true]);
  // Solving only the optional one leaves a required one open: not complete.
  const wrongOne = summarize({ answers, exercises: { a: { correct: true }, c: { correct: true } } }, options);
  assert.deepEqual([wrongOne.exercisesSolved, wrongOne.exercisesTotal, wrongOne.complete], [2, 3, false]);
  // The lesson's own definitions mark exercises 1, 4 and 5 optional, off its core path (docs/exercises.md).
  const dir = new URL('../../lessons/exercises/', import.meta.url);
  const optional = readdirSync(dir).filter((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')).optional === true).sort();
  assert.deepEqual(optional, ['dualpipe-vs-chimera.json', 'param-overhead.json', 'recover-gpu-hours.json']);
});

test('language: hash, then query, then the remembered choice, then English', () => {
  const storage = memoryStorage();
  assert.deepEqual(initialLang({ storage }), { lang: 'en', source: 'default' });
  rememberLang(storage, 'hi');
  assert.equal(storage.data.get(LANG_STORAGE_KEY), 'hi');
  assert.deepEqual(initialLang({ storage }), { lang: 'hi', source: 'stored' });
  assert.deepEqual(initialLang({ search: '?lang=en', storage }), { lang: 'en', source: 'query' });
  assert.deepEqual(initialLang({ hash: '#view=sweep&lang=hi', search: '?lang=en' }), { lang: 'hi', source: 'hash' });
  assert.deepEqual(initialLang({ search: '?lang=fr', storage: memoryStorage() }), { lang: 'en', source: 'default' });
  rememberLang({ setItem() { throw new Error('quota'); } }, 'hi'); // ignored, no throw
});
