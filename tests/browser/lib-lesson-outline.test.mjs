// web/js/lib/lesson-outline.js under Node: how far each section is read, which one the reader is
// in, and how many of a section's quiz questions and exercises are done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFractions, currentSection, activityProgress } from '../../web/js/lib/lesson-outline.js';

test('sections before the reading line are read, the one it is in partly, the rest not yet', () => {
  // Sections at 0, 100 and 300; the lesson ends at 400; the reader reads at y = 150.
  assert.deepEqual(readFractions([0, 100, 300], 400, 150), [1, 0.25, 0]);
  assert.deepEqual(readFractions([0, 100, 300], 400, 0), [0, 0, 0]);
  assert.deepEqual(readFractions([0, 100, 300], 400, 400), [1, 1, 1]);
  // The last section runs to the end of the lesson: at 350 it is half read.
  assert.deepEqual(readFractions([0, 100, 300], 400, 350), [1, 1, 0.5]);
  // A section of no height (two headings at one y) is read once the line passes it.
  assert.deepEqual(readFractions([0, 100, 100], 400, 120), [1, 1, 20 / 300]);
});

test('the current section is the last whose top the reading line has passed', () => {
  assert.equal(currentSection([0, 100, 300], 50), 0);
  assert.equal(currentSection([0, 100, 300], 100), 1);
  assert.equal(currentSection([0, 100, 300], 1000), 2);
  assert.equal(currentSection([40, 100], 10), 0); // above the first: the first
});

test('activities done: a question whose latest answer is right, an exercise once solved', () => {
  const entry = {
    answers: { 'pre-q0': { picked: 1, correct: true }, 'check-q0': { picked: 0, correct: false } },
    exercises: { 'hand-trace': { correct: true, attempts: 2 }, 'recover-gpu-hours': { correct: false, attempts: 1 } },
  };
  const activities = [
    { kind: 'quiz', id: 'pre-q0' }, { kind: 'quiz', id: 'check-q0' }, { kind: 'quiz', id: 'check-q1' },
    { kind: 'exercise', id: 'hand-trace' }, { kind: 'exercise', id: 'recover-gpu-hours' },
  ];
  assert.deepEqual(activityProgress(activities, entry), { done: 2, total: 5 });
  assert.deepEqual(activityProgress([], entry), { done: 0, total: 0 });
  assert.deepEqual(activityProgress(activities, null), { done: 0, total: 5 }); // no record yet
});
