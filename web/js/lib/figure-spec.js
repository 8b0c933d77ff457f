// Reads a course figure's spec, the text of its fence (`dualpipe-schedule ...`), which the course
// page keeps in the host's data-figure attribute. The course writes that attribute without
// escaping double quotes, so a JSON config breaks the attribute and reaches the figure as {};
// the quote-free form survives it and is what lessons should write:
//   dualpipe-schedule schedule=dualpipev ranks=4 microbatches=10 overlapped=2.4
// JSON still works where a host escapes it: dualpipe-schedule {"ranks":4}. Values stay text; the
// widget's parameter table (state.js) reads them as it reads an embed's query string. DOM-free.

/**
 * Parses `text` into {name, config, ignored}: the figure name, the parameters as an object
 * (key=value pairs, or the JSON object), and the words that were neither (named in a notice).
 */
export function parseFigureSpec(text) {
  const spec = String(text ?? '').trim();
  const name = spec.split(/\s+/)[0] || '';
  const rest = spec.slice(name.length).trim();
  if (!rest) return { name, config: {}, ignored: [] };
  if (rest.startsWith('{')) {
    try {
      const config = JSON.parse(rest);
      if (config && typeof config === 'object' && !Array.isArray(config)) return { name, config, ignored: [] };
    } catch { /* a JSON config cut short by the host's unescaped quotes */ }
    return { name, config: {}, ignored: [rest] };
  }
  const config = {};
  const ignored = [];
  for (const word of rest.split(/\s+/)) {
    const match = /^([A-Za-z][\w.-]*)=(.+)$/.exec(word);
    if (match) config[match[1]] = match[2];
    else ignored.push(word);
  }
  return { name, config, ignored };
}

/**
 * The config a figure runs: the one the host parsed when it holds anything, else the host
 * element's own spec text (the course's JSON.parse of a quote-free spec yields {}).
 */
export function figureConfig(given, specText) {
  const hasGiven = given && typeof given === 'object' && Object.keys(given).length > 0;
  return hasGiven ? { config: given, ignored: [] } : parseFigureSpec(specText);
}
