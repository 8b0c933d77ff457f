// How the JS API turns a caller's argument into the JSON text core reads (pipesim.js), so that
// nothing the caller passes can escape as anything but a SimError, and no size is paid for before
// it is checked. Two passes:
// 1. A walk, iterative, that reads the value as JSON.stringify will (toJSON, boxed primitives,
//    own enumerable keys, holes and functions as JSON.stringify writes them), inside one guard:
//    whatever a getter, a Proxy trap, a revoked Proxy or a toJSON throws becomes a SimError of
//    rule input.unreadable at the path being read, never the caller's own exception. On the way
//    in it counts a lower bound of the text (an array's length, 2 bytes an element at least,
//    before any element is read; a string's length before it is written), so a sparse array of
//    length 2^32 - 1 is refused at once, and nothing larger than the limit is ever stringified.
//    It also refuses at their paths what JSON.stringify would write wrong or not at all: NaN and
//    Infinity (written as null), BigInts, cycles, and nesting deeper than core reads.
// 2. JSON.stringify, native and so several times faster than writing the text here, inside the
//    same kind of guard (a getter may throw on its second read; it is then blamed on the root).
// The module only ever receives text JSON.stringify wrote. DOM-free; no dependency.

/**
 * Bytes of `text` as UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD it becomes).
 * @param {string} text
 */
export function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length &&
             text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * A JSON pointer to `tokens` (RFC 6901), stopping, like core's paths, at the deepest ancestor
 * that fits in `maxPathBytes`.
 * @param {string[]} tokens
 * @param {number} maxPathBytes
 */
function pointerTo(tokens, maxPathBytes) {
  let pointer = '';
  for (const token of tokens) {
    const longer = `${pointer}/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (longer.length > maxPathBytes || utf8Length(longer) > maxPathBytes) break;
    pointer = longer;
  }
  return pointer;
}

/**
 * What a thrown value says, read without trusting it (its message may be a throwing getter, it
 * may be a revoked Proxy), for input.unreadable's detail.
 * @param {unknown} thrown
 */
function describeThrown(thrown) {
  try {
    if (thrown !== null && typeof thrown === 'object') {
      const message = /** @type {{message?: unknown}} */ (thrown).message;
      if (typeof message === 'string') return message;
    }
    return typeof thrown === 'symbol' ? thrown.toString() : String(thrown);
  } catch {
    return 'an exception that cannot be read either';
  }
}

/**
 * A boxed primitive (new Number(1), Object('x')) as JSON.stringify unboxes it, found by its
 * internal slot (the valueOf of its own class accepts it), not by its prototype; else `value`.
 * @param {object} value
 * @returns {unknown}
 */
function unbox(value) {
  const has = (/** @type {(this: unknown) => unknown} */ valueOf) => {
    try {
      valueOf.call(value);
      return true;
    } catch {
      return false;
    }
  };
  if (has(Number.prototype.valueOf)) return Number(value);
  if (has(String.prototype.valueOf)) return String(value);
  if (has(Boolean.prototype.valueOf)) return Boolean.prototype.valueOf.call(value);
  if (has(BigInt.prototype.valueOf)) return BigInt.prototype.valueOf.call(value);
  return value;
}

/**
 * @typedef {{value: any, keys: string[] | null, length: number, next: number}} Frame
 * An array or object being read: its keys (null for an array), how many of its entries have
 * been read.
 */

/**
 * `root` as JSON text, or a thrown SimError made by `ruleError(id, path, params)`.
 * @param {unknown} root
 * @param {string} what the argument's name in messages ("config")
 * @param {{maxInputBytes: number, maxPathBytes: number, maxDepth: number, summaryBytes: number}} limits
 * @param {(id: string, path: string, params: Record<string, string | number>) => Error} ruleError
 * @param {(text: string, maxBytes: number) => string} summary
 * @returns {string}
 */
export function encodeRequest(root, what, limits, ruleError, summary) {
  const { maxInputBytes, maxPathBytes, maxDepth, summaryBytes } = limits;
  /** @type {Frame[]} */
  const frames = [];
  /** @type {unknown} */
  let own = null; // the SimError this walk threw, told apart from anything the caller's code throws
  let bytes = 0; // a lower bound of the text's length so far (UTF-16 units, at most its UTF-8 bytes)

  // The keys down to what is being read: each open frame's current entry.
  const tokens = () => frames.map((f) => (f.keys ? f.keys[f.next - 1] : String(f.next - 1)));
  const name = () => summary(tokens().join('.'), summaryBytes) || what;
  /** @returns {never} */
  const fail = (/** @type {string} */ id, /** @type {Record<string, string | number>} */ params) => {
    own = ruleError(id, id === 'input.too_large' ? '' : pointerTo(tokens(), maxPathBytes), params);
    throw own;
  };
  const count = (/** @type {number} */ more) => {
    bytes += more;
    if (bytes > maxInputBytes) fail('input.too_large', { limit: maxInputBytes });
  };
  /** @param {unknown} value */
  const omitted = (value) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

  /**
   * `value` as JSON.stringify's SerializeJSONProperty sees it, after toJSON and unboxing.
   * @param {unknown} value
   * @param {string | number} key its key in its holder (toJSON's argument, as a string)
   */
  const resolve = (value, key) => {
    if (typeof value !== 'object' && typeof value !== 'bigint') return value;
    if (value === null) return value;
    const toJSON = /** @type {any} */ (value).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, String(key));
    return value !== null && typeof value === 'object' ? unbox(value) : value;
  };

  /**
   * Counts a resolved value that JSON does not omit, or opens a frame for an array or object.
   * @param {unknown} value
   */
  const visit = (value) => {
    if (typeof value === 'string') count(value.length + 2);
    else if (typeof value === 'number') {
      if (!Number.isFinite(value)) fail('field.finite', { field: name(), got: String(value) });
      count(String(value).length);
    } else if (value === null || typeof value === 'boolean') count(value === false ? 5 : 4);
    else if (typeof value === 'bigint') fail('field.not_json', { field: name(), detail: 'a BigInt has no JSON form' });
    else {
      const object = /** @type {object} */ (value);
      if (frames.some((f) => f.value === object)) fail('field.not_json', { field: name(), detail: 'it contains itself (a cycle)' });
      if (frames.length >= maxDepth) fail('json.too_deep', { limit: maxDepth });
      if (Array.isArray(object)) {
        const length = Math.min(Math.max(Math.trunc(Number(object.length)) || 0, 0), Number.MAX_SAFE_INTEGER);
        // "[]" and n - 1 commas are counted as 1 and one comma an element (exact, and simpler);
        // each element is at least one byte: so 1 + 2n bytes, before any element is read.
        count(1);
        if (bytes + 2 * length > maxInputBytes) fail('input.too_large', { limit: maxInputBytes });
        frames.push({ value: object, keys: null, length, next: 0 });
      } else {
        const keys = Object.keys(object);
        count(1); // "{}" less the comma its first written member does not have
        frames.push({ value: object, keys, length: keys.length, next: 0 });
      }
    }
  };

  try {
    const value = resolve(root, '');
    if (omitted(value)) return 'null'; // a toJSON that returned undefined: core names the type
    visit(value);
    while (frames.length > 0) {
      const top = frames[frames.length - 1];
      if (top.next === top.length) {
        frames.pop();
        continue;
      }
      const index = top.next++;
      if (top.keys) {
        const key = top.keys[index];
        const child = resolve(top.value[key], key);
        if (omitted(child)) continue;
        count(key.length + 4); // "key": and a comma
        visit(child);
      } else {
        const read = top.value[index];
        // The common case inline, for speed: an element that is a string (an op label).
        if (typeof read === 'string') {
          bytes += read.length + 3;
          if (bytes > maxInputBytes) fail('input.too_large', { limit: maxInputBytes });
          continue;
        }
        const child = resolve(read, index);
        count(1); // the comma
        if (omitted(child)) count(4); // written as null
        else visit(child);
      }
    }
  } catch (error) {
    if (error === own) throw error;
    // The caller's getter, Proxy trap or toJSON threw (or a revoked Proxy was touched).
    throw ruleError('input.unreadable', pointerTo(tokens(), maxPathBytes),
      { field: name(), detail: summary(describeThrown(error), summaryBytes) });
  }
  try {
    return JSON.stringify(root);
  } catch (error) { // read a second time, the value threw where it had not (or ran out of room)
    throw ruleError('input.unreadable', '', { field: what, detail: summary(describeThrown(error), summaryBytes) });
  }
}
