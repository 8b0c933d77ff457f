// The learner's progress in this lesson, kept in localStorage in the course's own shape
// (rohitg00/ai-engineering-from-scratch site/progress.js), so the course's pages and ours read the
// same record:
//
//   aifs:progress:v1 = { lessons: { "<lesson-path>": { answers: { "<qid>": {picked, correct, t} },
//                                                      completedAt: number|null, visitedAt: number } },
//                        updatedAt: number }
//
// "<qid>" is "<stage>-q<index within the stage>" ("pre-q0", "check-q2"), as the course's quiz
// renderer names them. We add one field the course ignores: `exercises: { "<id>": {correct,
// lastCorrect, attempts, t, answers: {<answer id>: {text, correct}}, inputs} }` (the hand trace
// stores its grid there; `correct` stays true once an attempt was right).
// A quiz answer may be retried: the entry holds the latest answer as the course reads it
// ({picked, correct, t}) plus our `first` ({picked, correct}: the first try, never overwritten),
// `wrong` (options tried and wrong) and `tries`. Completion follows the course's rule (every
// quiz question answered right, as its latest answer) plus every exercise solved that its definition does not mark `optional`; the first-try
// score is reported beside it, not used for completion.
//
// Nothing here throws, and nothing of another lesson is ever lost (issue 30). The record is only
// changed in place, member by member (lib/progress-record.js), so every byte of other lessons'
// entries, and of fields and entries of our own written by another version, stays as it was. A
// record this lesson cannot write into (not JSON, another shape, truncated, a repeated key) is
// left exactly as it is: before this lesson first writes, it is copied aside under a dated key
// (`aifs:progress:v1:unreadable:<ISO time>`, since the course's own tracker replaces a record it
// cannot parse), and this lesson's progress goes to a key of its own
// (`aifs:progress:v1:pending:<lesson path>`) until the record can be merged again, on a later
// visit or when the learner asks for a fresh record (status(), resetShared(): the progress
// panel's notice). Without storage at all, progress lives in memory for the visit. DOM-free:
// `storage` is injected.

import { emptyLesson, normalizeLesson, inspectRecord, writeChanges, removeLesson, mergeChanges, applyToEntry } from './progress-record.js';

export { emptyLesson, normalizeLesson };

export const STORAGE_KEY = 'aifs:progress:v1';
/** This lesson's path in the course (phases/10-llms-from-scratch/19-dualpipe-parallelism). */
export const LESSON_PATH = 'phases/10-llms-from-scratch/19-dualpipe-parallelism';
/** Where a copy of an unreadable record is kept: this prefix and the ISO time it was copied. */
export const UNREADABLE_PREFIX = `${STORAGE_KEY}:unreadable:`;
/** Where a lesson keeps its progress while the record cannot take it: this prefix and its path. */
export const PENDING_PREFIX = `${STORAGE_KEY}:pending:`;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Progress of one lesson in `storage` (a Storage, or anything with getItem/setItem, and
 * removeItem, length and key where it has them; null when storage is unavailable: progress then
 * lives in memory for the visit).
 */
export function createProgress({ storage = null, path = LESSON_PATH, now = () => Date.now() } = {}) {
  const pendingKey = PENDING_PREFIX + path;
  let memory = null; // this lesson's entry when storage took neither the record nor our own key
  const listeners = new Set();

  const read = (key) => {
    try {
      return storage ? storage.getItem(key) : null;
    } catch {
      return null;
    }
  };
  const write = (key, text) => {
    try {
      if (!storage) return false;
      storage.setItem(key, text);
      return true;
    } catch {
      return false; // quota, or storage disabled
    }
  };
  const remove = (key) => {
    try { storage?.removeItem?.(key); } catch { /* it stays; merged again next time, to the same result */ }
  };

  /** This lesson's entry kept apart, or null. */
  function pending() {
    const text = read(pendingKey);
    if (text === null) return null;
    try {
      const entry = JSON.parse(text);
      return isObject(entry) ? normalizeLesson(entry) : null;
    } catch {
      return null;
    }
  }

  /** The key of a copy of `text` already set aside, if any. */
  function copyOf(text) {
    try {
      for (let i = 0; i < (storage?.length ?? 0); i++) {
        const key = storage.key(i);
        if (typeof key === 'string' && key.startsWith(UNREADABLE_PREFIX) && storage.getItem(key) === text) return key;
      }
    } catch { /* no listing: a copy is made again */ }
    return null;
  }

  /** Copies the unreadable record aside (once per content); its key, or null if it did not fit. */
  function setAside(text) {
    const existing = copyOf(text);
    if (existing) return existing;
    const key = UNREADABLE_PREFIX + new Date(now()).toISOString();
    return write(key, text) ? key : null;
  }

  /**
   * Writes `changes` into the record, with anything kept apart (in our own key, or in memory)
   * merged in first; false when the record cannot take them (unreadable, or storage full), and
   * nothing was written there.
   */
  function commit(changes) {
    const text = read(STORAGE_KEY);
    const view = inspectRecord(text, path);
    if (!view.ok) return false;
    const apart = memory ?? pending();
    const all = apart ? [...mergeChanges(view.entry, apart), ...changes] : changes;
    const next = writeChanges(text, path, all, now());
    if (next === null || !write(STORAGE_KEY, next)) return false;
    remove(pendingKey);
    memory = null;
    return true;
  }

  /** Makes `changes` to this lesson's entry wherever they can be kept; returns the new entry. */
  function change(changes) {
    const entry = applyToEntry(api.get(), changes);
    if (!commit(changes)) {
      const text = read(STORAGE_KEY);
      if (text !== null && !inspectRecord(text, path).ok) setAside(text); // before any write
      memory = write(pendingKey, JSON.stringify(entry)) ? null : entry;
    }
    notify(entry, false);
    return normalizeLesson(entry);
  }

  function notify(entry, reset) {
    const copy = normalizeLesson(entry);
    for (const listener of listeners) {
      try { listener(copy, { reset }); } catch { /* a listener's bug must not break recording */ }
    }
  }

  const api = {
    path,
    /** This lesson's entry (normalised copy; an empty one when nothing is stored). */
    get() {
      if (memory) return normalizeLesson(memory);
      const view = inspectRecord(read(STORAGE_KEY), path);
      const apart = pending();
      if (!view.ok) return apart ?? emptyLesson();
      return apart ? applyToEntry(view.entry, mergeChanges(view.entry, apart)) : normalizeLesson(view.entry);
    },
    /**
     * Where progress is kept: {unreadable} when the shared record cannot be read or written into
     * (this lesson's progress is then kept apart), with {copy} the key of its copy (null when none
     * could be made).
     */
    status() {
      const text = read(STORAGE_KEY);
      const unreadable = text !== null && !inspectRecord(text, path).ok;
      return { unreadable, copy: unreadable ? copyOf(text) : null };
    },
    /** Merges what was kept apart into the record, when it can now take it (on each load). */
    sync() {
      if (memory !== null || pending() !== null) commit([]);
    },
    /**
     * Replaces an unreadable record with a fresh one holding this lesson's progress, once a copy
     * of it is set aside (nothing is replaced when no copy fits). Returns whether it did.
     */
    resetShared() {
      const text = read(STORAGE_KEY);
      if (text === null || inspectRecord(text, path).ok) return true;
      if (!setAside(text)) return false;
      const entry = api.get();
      const fresh = writeChanges(null, path, [], now());
      const next = writeChanges(fresh, path, mergeChanges(undefined, entry), now());
      if (next === null || !write(STORAGE_KEY, next)) return false;
      remove(pendingKey);
      memory = null;
      notify(api.get(), false);
      return true;
    },
    recordVisit() {
      return change([[['visitedAt'], now()]]);
    },
    /** A quiz answer, as the course records it; the first try stays in `first`. */
    recordAnswer(qid, picked, correct) {
      if (!qid || !Number.isInteger(picked)) return api.get();
      const before = api.get().answers[qid];
      const first = before ? (isObject(before.first) ? { picked: before.first.picked, correct: before.first.correct === true } : { picked: before.picked, correct: before.correct }) : { picked, correct: Boolean(correct) };
      const earlierWrong = before ? (Array.isArray(before.wrong) ? before.wrong.filter(Number.isInteger) : before.correct ? [] : [before.picked]) : [];
      const wrong = [...new Set([...earlierWrong, ...(correct ? [] : [picked])])];
      const tries = (before ? (Number.isInteger(before.tries) ? before.tries : 1) : 0) + 1;
      return change([[['answers', qid], { picked, correct: Boolean(correct), t: now(), first, wrong, tries }]]);
    },
    /** An exercise attempt: `answers` {answerId: {text, correct}}; `correct` when all are right. */
    recordExercise(id, { correct, answers = {}, ...extra }) {
      if (!id) return api.get();
      const before = api.get().exercises[id] || { attempts: 0, correct: false };
      // Once solved, an exercise stays solved: trying other inputs afterwards must not undo it.
      return change([[['exercises', id], { ...extra, correct: before.correct || Boolean(correct), lastCorrect: Boolean(correct), attempts: before.attempts + 1, t: now(), answers }]]);
    },
    markComplete() {
      const entry = api.get();
      return entry.completedAt ? entry : change([[['completedAt'], now()]]);
    },
    unmarkComplete() {
      return change([[['completedAt'], null]]);
    },
    /** Forgets this lesson only; other lessons' entries stay as they are. */
    reset() {
      const text = read(STORAGE_KEY);
      const next = removeLesson(text, path, now());
      if (next) write(STORAGE_KEY, next);
      remove(pendingKey);
      memory = null;
      const empty = emptyLesson();
      notify(empty, true);
      return empty;
    },
    /** Calls fn(entry, {reset}) after every change; returns an unsubscribe function. */
    onChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  api.sync();
  return api;
}

/**
 * Summary of an entry against the lesson's quiz and exercises: {quizAnswered, quizCorrect,
 * quizFirstTry (right on the first try), quizTotal, exercisesSolved, exercisesTotal, complete
 * (by the rule above)}. Exercises in `optionalIds` (a definition's `optional`) count in the
 * exercise figures but not in the rule: the lesson is complete without them.
 */
export function summarize(entry, { quizIds = [], exerciseIds = [], optionalIds = [] } = {}) {
  const e = normalizeLesson(entry);
  const quizAnswered = quizIds.filter((q) => e.answers[q]).length;
  const quizCorrect = quizIds.filter((q) => e.answers[q]?.correct).length;
  // An answer stored before retries existed was its own first try.
  const quizFirstTry = quizIds.filter((q) => e.answers[q] && (isObject(e.answers[q].first) ? e.answers[q].first.correct === true : e.answers[q].correct)).length;
  const exercisesSolved = exerciseIds.filter((x) => e.exercises[x]?.correct).length;
  const requiredSolved = exerciseIds.every((x) => optionalIds.includes(x) || e.exercises[x]?.correct);
  return {
    quizAnswered,
    quizCorrect,
    quizFirstTry,
    quizTotal: quizIds.length,
    exercisesSolved,
    exercisesTotal: exerciseIds.length,
    complete: quizIds.length > 0 && quizCorrect === quizIds.length && requiredSolved,
  };
}

/** The course's question ids for a quiz: "<stage>-q<index within its stage>", in quiz order. */
export function quizQuestionIds(questions = []) {
  const counts = {};
  return questions.map((q) => {
    const stage = q.stage || 'all';
    counts[stage] = (counts[stage] ?? -1) + 1;
    return `${stage}-q${counts[stage]}`;
  });
}
