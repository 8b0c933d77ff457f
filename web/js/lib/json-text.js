// Edits of JSON text that leave every byte they do not edit as it was. The course's shared
// progress record holds other lessons' data, possibly written by another version of the course in
// shapes we do not know; parsing it and writing it back would rewrite that data (a number such as
// 1e400 becomes null, 1.50 becomes 1.5, a repeated key loses one of its values, a "__proto__" key
// can vanish), so lib/progress-record.js changes the record through these functions instead:
// only the members it sets are written. Every function expects text that JSON.parse accepts, and
// walks it without recursion, so nesting of any depth costs no stack. DOM-free.

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** The index of the first non-whitespace character at or after `i`. */
function skipSpace(text, i) {
  while (i < text.length && WHITESPACE.has(text[i])) i++;
  return i;
}

const BACKSLASH = 92;

/**
 * The index just past the string whose opening quote is at `i`. It jumps from quote to quote with
 * indexOf rather than reading each character: a record holding other lessons' long notes (megabytes)
 * is walked on every visit, and a character loop made that take seconds.
 */
function stringEnd(text, i) {
  for (let from = i + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (quote - backslashes - 1 > i && text.charCodeAt(quote - backslashes - 1) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1; // an even run escapes itself, not the quote
    from = quote + 1;
  }
}

/** The index just past the JSON value that starts at `i` (no leading whitespace). */
export function valueEnd(text, i) {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c !== '{' && c !== '[') {
    let j = i;
    while (j < text.length && !WHITESPACE.has(text[j]) && text[j] !== ',' && text[j] !== '}' && text[j] !== ']') j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text[j];
    if (d === '"') j = stringEnd(text, j) - 1;
    else if (d === '{' || d === '[') depth++;
    else if (d === '}' || d === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return text.length;
}

/**
 * The members of the object whose '{' is at `start`: [{key, start, valueStart, valueEnd, end}]
 * (start: the key's quote; end: just past the value) and the index of its closing '}'.
 */
export function members(text, start) {
  const list = [];
  let i = skipSpace(text, start + 1);
  while (text[i] === '"') {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd));
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1); // past the ':'
    const end = valueEnd(text, valueStart);
    list.push({ key, start: i, valueStart, valueEnd: end, end });
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return { list, close: i };
}

/** Where the root value starts (past leading whitespace). */
export function rootStart(text) {
  return skipSpace(text, 0);
}

/**
 * The start of the value at `keys` (object members, one after another) from the object at
 * `start`: {at} (-1 when a member is absent), or null when a step is not an object or its key
 * appears more than once (which of the two would a reader take?).
 */
export function find(text, start, keys) {
  let at = start;
  for (const key of keys) {
    if (text[at] !== '{') return null;
    const found = members(text, at).list.filter((m) => m.key === key);
    if (found.length > 1) return null;
    if (found.length === 0) return { at: -1 };
    at = found[0].valueStart;
  }
  return { at };
}

/**
 * `text` with member `key` of the object at `start` set to `valueText` (replaced where it is,
 * else added last), or null when the key appears more than once.
 */
export function setMember(text, start, key, valueText) {
  const { list, close } = members(text, start);
  const found = list.filter((m) => m.key === key);
  if (found.length > 1) return null;
  if (found.length === 1) return text.slice(0, found[0].valueStart) + valueText + text.slice(found[0].valueEnd);
  const member = `${list.length ? ',' : ''}${JSON.stringify(key)}:${valueText}`;
  const after = list.length ? list[list.length - 1].end : close;
  return text.slice(0, after) + member + text.slice(after);
}

/**
 * `text` without member `key` of the object at `start`, and one comma beside it; unchanged when
 * the key is absent, null when it appears more than once.
 */
export function removeMember(text, start, key) {
  const { list } = members(text, start);
  const index = list.findIndex((m) => m.key === key);
  if (index < 0) return text;
  if (list.findIndex((m, i) => i > index && m.key === key) >= 0) return null;
  // The comma before it; the first member takes the comma after it instead.
  const from = index > 0 ? list[index - 1].end : list[index].start;
  const to = index > 0 ? list[index].end : (index + 1 < list.length ? list[index + 1].start : list[index].end);
  return text.slice(0, from) + text.slice(to);
}
