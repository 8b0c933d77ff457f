// The course's shared progress record (aifs:progress:v1, see progress.js) as text: whether this
// lesson's entry can be written into it, and the edit that writes it. An edit touches only the
// members it sets (lib/json-text.js): this lesson's answers, exercises, completedAt and
// visitedAt, and the record's updatedAt; every other byte, other lessons' entries above all,
// stays exactly as it was, in whatever shape or version they were written. A record this lesson
// cannot write into without guessing (not JSON, not the course's shape, a key it would write
// given twice) is never written at all: progress.js keeps this lesson's progress beside it.
// DOM-free.
import { rootStart, find, setMember, removeMember, valueEnd } from './json-text.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isTime = (v) => typeof v === 'number' && Number.isFinite(v);

/** `object[key] = value` as an own property, whatever the key ("__proto__" included). */
export function put(object, key, value) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

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
      if (isObject(a) && Number.isInteger(a.picked)) put(out.answers, qid, { ...a, correct: a.correct === true });
    }
  }
  out.exercises = {};
  if (isObject(entry.exercises)) {
    for (const [id, e] of Object.entries(entry.exercises)) {
      if (!isObject(e)) continue;
      const answers = {};
      if (isObject(e.answers)) {
        for (const [aid, a] of Object.entries(e.answers)) if (isObject(a)) put(answers, aid, { ...a, correct: a.correct === true });
      }
      put(out.exercises, id, {
        ...e,
        correct: e.correct === true,
        attempts: Number.isInteger(e.attempts) && e.attempts >= 0 ? e.attempts : 0,
        answers,
      });
    }
  }
  out.completedAt = isTime(entry.completedAt) ? entry.completedAt : null;
  out.visitedAt = isTime(entry.visitedAt) ? entry.visitedAt : 0;
  return out;
}

/**
 * A change to this lesson's entry: [keys, value], keys within the entry (['answers', 'pre-q0'],
 * ['visitedAt']), value our own plain data.
 * @typedef {[string[], unknown]} Change
 */

/** `entry` (normalised) with `changes` applied, normalised again. */
export function applyToEntry(entry, changes) {
  const out = normalizeLesson(entry);
  for (const [keys, value] of changes) {
    if (keys.length === 1) put(out, keys[0], value);
    else put(out[keys[0]], keys[1], value);
  }
  return normalizeLesson(out);
}

/** The changes that bring what `pending` holds (kept apart while the record was unreadable) into `shared`: the later of two answers or exercises, the earlier completion, the later visit. */
export function mergeChanges(shared, pending) {
  const a = normalizeLesson(shared);
  const b = normalizeLesson(pending);
  /** @type {Change[]} */
  const changes = [];
  for (const map of ['answers', 'exercises']) {
    for (const [id, mine] of Object.entries(b[map])) {
      const theirs = a[map][id];
      if (!theirs || !(isTime(theirs.t) && isTime(mine.t) && theirs.t > mine.t)) changes.push([[map, id], mine]);
    }
  }
  if (b.completedAt !== null && a.completedAt === null) changes.push([['completedAt'], b.completedAt]);
  if (b.visitedAt > a.visitedAt) changes.push([['visitedAt'], b.visitedAt]);
  return changes;
}

/** The members of this lesson's entry we write, each of which must appear at most once. */
const ENTRY_KEYS = ['answers', 'exercises', 'completedAt', 'visitedAt'];

/**
 * What the record's text (null when there is none) lets this lesson do: {ok: true, entry} when
 * its entry can be read and written in place (entry: the stored entry, undefined when absent),
 * else {ok: false}: the text is not JSON, or not an object with a `lessons` object, or this
 * lesson's entry is not an object whose answers and exercises are objects, or a key we would
 * write appears twice in its object.
 */
export function inspectRecord(text, path) {
  if (text === null || text === undefined || text === '') return { ok: true, entry: undefined };
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  if (!isObject(parsed) || !isObject(parsed.lessons)) return { ok: false };
  const root = rootStart(text);
  const lessons = find(text, root, ['lessons']);
  const here = find(text, root, ['lessons', path]);
  if (!lessons || !here || !find(text, root, ['updatedAt'])) return { ok: false };
  const entry = Object.prototype.hasOwnProperty.call(parsed.lessons, path) ? parsed.lessons[path] : undefined;
  if (entry === undefined) return { ok: true, entry };
  if (!isObject(entry)) return { ok: false };
  for (const key of ENTRY_KEYS) {
    if (!find(text, root, ['lessons', path, key])) return { ok: false };
    if ((key === 'answers' || key === 'exercises') && key in entry && !isObject(entry[key])) return { ok: false };
  }
  return { ok: true, entry };
}

/** The record's updatedAt set to `time`, unless another version keeps something else there. */
function stamp(text, root, time) {
  const at = find(text, root, ['updatedAt']);
  if (!at) return null;
  if (at.at >= 0 && typeof JSON.parse(text.slice(at.at, valueEnd(text, at.at))) !== 'number') return text;
  return setMember(text, root, 'updatedAt', JSON.stringify(time));
}

/**
 * The record's text with `changes` made to lesson `path`'s entry (created as the course creates
 * one when absent) and updatedAt set to `time`; null when inspectRecord says it cannot be.
 * @param {string | null} text
 * @param {string} path
 * @param {Change[]} changes
 * @param {number} time
 */
export function writeChanges(text, path, changes, time) {
  if (!inspectRecord(text, path).ok) return null;
  let out = text || JSON.stringify({ lessons: {}, updatedAt: 0 });
  const root = rootStart(out);
  const at = (keys) => find(out, root, ['lessons', path, ...keys]);
  if (at([]).at < 0) out = setMember(out, find(out, root, ['lessons']).at, path, JSON.stringify(emptyLesson()));
  for (const [keys, value] of changes) {
    if (keys.length === 2 && at([keys[0]]).at < 0) out = setMember(out, at([]).at, keys[0], '{}'); // an entry without "exercises"
    const parent = at(keys.slice(0, -1));
    if (!parent || parent.at < 0 || out[parent.at] !== '{') return null;
    const next = setMember(out, parent.at, keys[keys.length - 1], JSON.stringify(value));
    if (next === null) return null;
    out = next;
  }
  return stamp(out, root, time);
}

/** The record's text without lesson `path`'s entry, stamped with `time`; null when it cannot be. */
export function removeLesson(text, path, time) {
  if (!inspectRecord(text, path).ok) return null;
  if (!text) return text;
  const root = rootStart(text);
  const out = removeMember(text, find(text, root, ['lessons']).at, path);
  return out === null ? null : stamp(out, root, time);
}
