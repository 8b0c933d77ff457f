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
// score is reported beside it, not used for completion. Everything here tolerates missing, corrupt or foreign data: it never throws,
// and it only ever rewrites this lesson's entry. DOM-free: `storage` is injected.

export const STORAGE_KEY = 'aifs:progress:v1';
/** This lesson's path in the course (phases/10-llms-from-scratch/19-dualpipe-parallelism). */
export const LESSON_PATH = 'phases/10-llms-from-scratch/19-dualpipe-parallelism';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isTime = (v) => typeof v === 'number' && Number.isFinite(v);

/** An empty lesson entry, as the course creates it (plus our exercises). */
export function emptyLesson() {
  return { answers: {}, completedAt: null, visitedAt: 0, exercises: {} };
}

/** A clean copy of a stored lesson entry: bad fields dropped, unknown fields kept. */
export function normalizeLesson(entry) {
  if (!isObject(entry)) return emptyLesson();
  const out = { ...entry };
  out.answers = {};
  if (isObject(entry.answers)) {
    for (const [qid, a] of Object.entries(entry.answers)) {
      if (isObject(a) && Number.isInteger(a.picked)) out.answers[qid] = { ...a, correct: a.correct === true };
    }
  }
  out.exercises = {};
  if (isObject(entry.exercises)) {
    for (const [id, e] of Object.entries(entry.exercises)) {
      if (!isObject(e)) continue;
      const answers = {};
      if (isObject(e.answers)) {
        for (const [aid, a] of Object.entries(e.answers)) {
          if (isObject(a)) answers[aid] = { ...a, correct: a.correct === true };
        }
      }
      out.exercises[id] = {
        ...e,
        correct: e.correct === true,
        attempts: Number.isInteger(e.attempts) && e.attempts >= 0 ? e.attempts : 0,
        answers,
      };
    }
  }
  out.completedAt = isTime(entry.completedAt) ? entry.completedAt : null;
  out.visitedAt = isTime(entry.visitedAt) ? entry.visitedAt : 0;
  return out;
}

/**
 * Parses the stored text. Returns {state, intact}: `state` always has a `lessons` object;
 * `intact` is false when the text was unreadable or not the course's shape (then nothing of it
 * can be kept, except other top-level fields of an object).
 */
export function parseStored(text) {
  if (text === null || text === undefined || text === '') return { state: { lessons: {}, updatedAt: 0 }, intact: true };
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { state: { lessons: {}, updatedAt: 0 }, intact: false };
  }
  if (!isObject(parsed)) return { state: { lessons: {}, updatedAt: 0 }, intact: false };
  if (!isObject(parsed.lessons)) return { state: { ...parsed, lessons: {} }, intact: false };
  return { state: parsed, intact: true };
}

/**
 * Progress of one lesson in `storage` (a Storage, or anything with getItem/setItem; null when
 * storage is unavailable: progress then lives in memory for the visit).
 */
export function createProgress({ storage = null, path = LESSON_PATH, now = () => Date.now() } = {}) {
  let memory = null; // fallback when storage throws or is absent
  const listeners = new Set();

  function readText() {
    if (memory !== null) return memory;
    try {
      return storage ? storage.getItem(STORAGE_KEY) : null;
    } catch {
      return null;
    }
  }

  function writeText(text) {
    try {
      if (!storage) throw new Error('no storage');
      storage.setItem(STORAGE_KEY, text);
      memory = null;
    } catch {
      memory = text; // quota or disabled storage: keep it for this visit
    }
  }

  function load() {
    return parseStored(readText()).state;
  }

  /** Read-modify-write of this lesson's entry only; returns the new entry. */
  function change(fn) {
    const state = load();
    const entry = normalizeLesson(state.lessons[path]);
    fn(entry);
    state.lessons = { ...state.lessons, [path]: entry };
    state.updatedAt = now();
    writeText(JSON.stringify(state));
    const copy = normalizeLesson(entry);
    for (const listener of listeners) {
      try { listener(copy, { reset: false }); } catch { /* a listener's bug must not break recording */ }
    }
    return copy;
  }

  const api = {
    path,
    /** This lesson's entry (normalised copy; an empty one when nothing is stored). */
    get() {
      return normalizeLesson(load().lessons[path]);
    },
    recordVisit() {
      return change((e) => { e.visitedAt = now(); });
    },
    /** A quiz answer, as the course records it; the first try stays in `first`. */
    recordAnswer(qid, picked, correct) {
      if (!qid || !Number.isInteger(picked)) return api.get();
      return change((e) => {
        const before = e.answers[qid];
        const first = before ? (isObject(before.first) ? before.first : { picked: before.picked, correct: before.correct }) : { picked, correct: Boolean(correct) };
        const earlierWrong = before ? (Array.isArray(before.wrong) ? before.wrong : before.correct ? [] : [before.picked]) : [];
        const wrong = [...new Set([...earlierWrong, ...(correct ? [] : [picked])])];
        const tries = (before ? (Number.isInteger(before.tries) ? before.tries : 1) : 0) + 1;
        e.answers[qid] = { picked, correct: Boolean(correct), t: now(), first, wrong, tries };
      });
    },
    /** An exercise attempt: `answers` {answerId: {text, correct}}; `correct` when all are right. */
    recordExercise(id, { correct, answers = {}, ...extra }) {
      if (!id) return api.get();
      return change((e) => {
        const before = e.exercises[id] || { attempts: 0, correct: false };
        // Once solved, an exercise stays solved: trying other inputs afterwards must not undo it.
        e.exercises[id] = { ...extra, correct: before.correct || Boolean(correct), lastCorrect: Boolean(correct), attempts: before.attempts + 1, t: now(), answers };
      });
    },
    markComplete() {
      return change((e) => { if (!e.completedAt) e.completedAt = now(); });
    },
    unmarkComplete() {
      return change((e) => { e.completedAt = null; });
    },
    /** Forgets this lesson only; other lessons' entries stay as they are. */
    reset() {
      const state = load();
      const lessons = { ...state.lessons };
      delete lessons[path];
      writeText(JSON.stringify({ ...state, lessons, updatedAt: now() }));
      const empty = emptyLesson();
      for (const listener of listeners) {
        try { listener(empty, { reset: true }); } catch { /* ignore */ }
      }
      return empty;
    },
    /** Calls fn(entry, {reset}) after every change; returns an unsubscribe function. */
    onChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
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
