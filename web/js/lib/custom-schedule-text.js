// A hand-written schedule as a learner types it, read into the request core's simulate takes
// ({"schedule":"custom","stages","directions","microbatches","rankOps"}, docs/schema.md), and
// back: a simulated timeline written as op labels to start editing from. Three forms are read:
//   - the JSON request itself (text starting with "{"), sent as written;
//   - torch.distributed.pipelining's schedule CSV (one row of actions such as 0F1, 1I0, 2W3, 3B0
//     per rank), told apart as the CLI's `simulate --input` tells it (it starts with a digit, "("
//     or ",") and holding no "@"; sent as {"schedule":"custom","csv":text} for core to read;
//   - one line of op labels per rank, as `pipesim simulate` prints them (F0.3@2, B0.3@2,
//     Bz0.3@2, W0.3@2, FB(F0.4@1,B1.0@1)). Stages, directions and micro-batches are the smallest
//     that hold every label; lines without a label (blank, "# notes", the CLI's headings) are
//     skipped, and so are leading columns that are not ops (the CLI's "0 24 2 4" before a
//     rank's ops), so a pasted CLI run reads as it printed.
// Core judges everything: a malformed label is passed on as written for core to reject, and
// `where` maps core's error paths (/rankOps/<rank>/<index>, /csv/<row>/<column>) back to the
// text. DOM-free.

// One op token: an FB pair (which holds a comma), or a run of text up to a space, comma or ';'.
const TOKEN = /FB\([^)]*\)|[^\s,;]+/g;
// The chunk coordinates inside a label: <dir>.<mb>@<stage> (an FB has two).
const CHUNK = /(\d+)\.(\d+)@(\d+)/g;
// A column before a rank's ops that is not an op: a number, "rank", "rank0:" or "0:".
const LEADER = /^(\d+(\.\d+)?|rank|(rank)?\d+:)$/i;

/**
 * Reads `text`. Returns one of
 *   {kind: 'empty'}                                 nothing to simulate
 *   {kind: 'json', request} | {kind: 'json', request: null}   (null: not valid JSON; core says why)
 *   {kind: 'lines', request, where, shape}
 *   {kind: 'csv', request, where, shape: {ranks, actions}}
 * where `where[rank][index]` = {line (from 1), start, end (offsets in text)} of each op and
 * `where[rank].line` its line; `shape` = {ranks, stages, directions, microbatches}. The request
 * has no costs: the caller adds the page's.
 */
export function readScheduleText(text) {
  const source = String(text ?? '');
  const trimmed = source.trim();
  if (trimmed.startsWith('{')) {
    try {
      return { kind: 'json', request: JSON.parse(trimmed) };
    } catch {
      return { kind: 'json', request: null };
    }
  }
  if (/^[\d(,]/.test(trimmed) && !trimmed.includes('@')) return readCsv(source);
  const rankOps = [];
  const where = [];
  let offset = 0;
  source.split('\n').forEach((line, i) => {
    const lineStart = offset;
    offset += line.length + 1;
    if (line.trimStart().startsWith('#')) return;
    const tokens = [...line.matchAll(TOKEN)];
    if (!tokens.some((m) => m[0].includes('@'))) return;
    let first = 0;
    while (first < tokens.length && LEADER.test(tokens[first][0])) first++;
    const ops = tokens.slice(first);
    const places = ops.map((m) => ({ line: i + 1, start: lineStart + m.index, end: lineStart + m.index + m[0].length }));
    places.line = i + 1;
    rankOps.push(ops.map((m) => m[0].replace(/\s+/g, '')));
    where.push(places);
  });
  if (!rankOps.length) return { kind: trimmed ? 'lines' : 'empty', request: null, where, shape: null };
  let stages = 1;
  let directions = 1;
  let perDirection = 1;
  for (const ops of rankOps) {
    for (const label of ops) {
      for (const [, dir, mb, stage] of label.matchAll(CHUNK)) {
        directions = Math.max(directions, Number(dir) + 1);
        perDirection = Math.max(perDirection, Number(mb) + 1);
        stages = Math.max(stages, Number(stage) + 1);
      }
    }
  }
  const shape = { ranks: rankOps.length, stages, directions, microbatches: perDirection * directions };
  const request = { schedule: 'custom', stages, directions, microbatches: shape.microbatches, rankOps };
  return { kind: 'lines', request, where, shape };
}

/**
 * A torch CSV as core reads it (core/src/pytorch_csv.cpp): every line a row (a rank), cells
 * split at commas, blank cells idle slots. `where[row][column]` = {line, start, end} of each
 * non-blank cell, `where[row].line` its line; the request carries the text exactly as given.
 */
function readCsv(source) {
  const where = [];
  let offset = 0;
  let actions = 0;
  source.split('\n').forEach((line, i) => {
    const places = [];
    places.line = i + 1;
    let start = 0;
    line.split(',').forEach((cell, column) => {
      const lead = cell.length - cell.trimStart().length;
      const text = cell.trim();
      if (text) {
        places[column] = { line: i + 1, start: offset + start + lead, end: offset + start + lead + text.length };
        actions++;
      }
      start += cell.length + 1;
    });
    offset += line.length + 1;
    where.push(places);
  });
  while (where.length && !where[where.length - 1].some(Boolean)) where.pop(); // trailing blank lines
  return { kind: 'csv', request: { schedule: 'custom', csv: source }, where, shape: { ranks: where.length, actions } };
}

/**
 * Where in the text core's error path points: {line, start, end, rank, index} for an op (for a
 * CSV: its cell, index = column), {line, rank} for a rank's line, or null (the whole schedule,
 * or a JSON request).
 */
export function locate(read, path) {
  if (typeof path !== 'string') return null;
  if (read.kind === 'csv') {
    const cell = /^\/csv\/(\d+)\/(\d+)$/.exec(path);
    const places = cell ? read.where[Number(cell[1])] : null;
    if (!places) return null;
    const index = Number(cell[2]);
    const rank = Number(cell[1]);
    return places[index] ? { ...places[index], rank, index } : { line: places.line, rank };
  }
  if (read.kind !== 'lines') return null;
  const match = /^\/rankOps\/(\d+)(?:\/(\d+))?/.exec(path);
  if (!match) return null;
  const rank = Number(match[1]);
  const places = read.where[rank];
  if (!places) return null;
  if (match[2] === undefined) return { line: places.line, rank };
  const index = Number(match[2]);
  return places[index] ? { ...places[index], rank, index } : { line: places.line, rank };
}

const chunk = (dir, mb, stage) => `${dir}.${mb}@${stage}`;

/** The label core prints for op record `o` (lib/timeline-data.js): F0.3@2, Bz0.3@2, FB(F..,B..). */
export function opLabel(o) {
  if (o.kind === 'FB') return `FB(F${chunk(o.fdir, o.fmb, o.fstage)},B${chunk(o.bdir, o.bmb, o.bstage)})`;
  const kind = o.kind === 'B' && o.zb ? 'Bz' : o.kind;
  return `${kind}${chunk(o.dir, o.mb, o.stage)}`;
}

/** A timeline (rows of op records per rank) as text: one line of labels per rank. */
export function scheduleText(rows) {
  return rows.map((ops) => ops.map(opLabel).join(' ')).join('\n');
}
