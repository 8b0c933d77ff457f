// Tiny DOM builders shared by the views. Text always goes in through textContent / text nodes,
// never innerHTML, so simulator output and URL values can never become markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * The direction of every plot (the timeline's lanes, axis and overview strip, the transport that
 * steps through its time, the sweep's and the exercises' charts): a chart is not text, its time
 * or x axis runs left to right in every language, so on a right-to-left page it keeps LTR geometry
 * (its gutter, cursor and labels are placed by physical offsets and anchored for LTR) while the
 * headings, legends, captions, controls and tables around it mirror. Numbers and op labels inside
 * it stay LTR with it. HTML containers take it as `dir`, SVG roots as `direction`.
 */
export const PLOT_DIR = 'ltr';

function apply(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key === 'dataset') Object.entries(value).forEach(([k, v]) => { node.dataset[k] = String(v); });
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of [].concat(children ?? [])) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  return node;
}

/** An HTML element: h('button', {class: 'x', onclick: fn}, ['Play']). */
export function h(tag, attrs, children) {
  return apply(document.createElement(tag), attrs, children);
}

/** An SVG element in the SVG namespace, same signature as h(). */
export function s(tag, attrs, children) {
  return apply(document.createElementNS(SVG_NS, tag), attrs, children);
}

/**
 * A whole message with elements inside it, as children for h(): `text` is the message as the
 * translator filled it, its `{name}` placeholders for elements left open (t leaves a placeholder
 * it has no value for), each replaced by `nodes[name]`. The language's word order places the
 * elements; code never glues a sentence around them.
 */
export function messageNodes(text, nodes) {
  return text.split(/\{(\w+)\}/).map((part, i) => (i % 2 ? nodes[part] ?? `{${part}}` : part)).filter((part) => part !== '');
}

/** Removes every child of a node. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

let idCounter = 0;
/** A document-unique id prefix, so several widgets' SVG patterns and labels never collide. */
export function uniqueId(prefix = 'dpl') {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

// One MediaQueryList, kept: its `matches` is live, while a matchMedia() call per animation frame
// (the timeline asks every frame while playing) made the browser evaluate the query each time.
let reducedMotionQuery;

/** True when the user asked for less motion; read live so a changed setting applies at once. */
export function prefersReducedMotion() {
  if (typeof matchMedia !== 'function') return false;
  reducedMotionQuery ??= matchMedia('(prefers-reduced-motion: reduce)');
  return reducedMotionQuery.matches;
}

/**
 * A message box shown in place of a widget when its config is rejected. With `plain` (the rule in
 * plain words, lib/error-fix.js), that leads and the error's own message follows as the detail;
 * `fix`, a one-click repair (a button), follows the plain words.
 */
export function errorBox(error, heading, plain = '', fix = null) {
  const code = error && error.code ? error.code : 'error';
  const message = error && error.message ? error.message : String(error);
  const lead = plain || message;
  return h('div', { class: 'dpl-error', role: 'alert', dataset: { code, path: (error && error.path) || '' } }, [
    h('strong', { text: heading }),
    h('p', { class: 'dpl-error-message' }, [lead, fix ? ' — ' : null, fix]),
    lead === message ? null : h('p', { class: 'dpl-error-detail', text: message }),
  ]);
}
