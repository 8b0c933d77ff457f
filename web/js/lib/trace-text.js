// The lesson's slot-by-slot trace of a schedule as data, so the page can lay it out in as many
// slots per row as a screen holds instead of a box that scrolls sideways (ui/trace-grid.js): read
// from the lesson's text block (a "slot" header, then a line per rank, whitespace-separated), or
// written from core's trace grid (pipesim traceGrid) in the same notation the lesson defines and
// `pipesim trace` prints (core/cli/exercise_commands.cpp, cell_text): F3> a forward of micro-batch
// 3 in direction 0, < direction 1, b an input-gradient-only backward, W a weight chunk, 3>1< a
// pair (forward chunk, then backward chunk), "." an idle slot. DOM-free.

/**
 * Reads a trace text block: {slots: [0, 1, ...], rows: [{rank, cells: [text]}]}, or null when the
 * text is not one (no "slot" header, or a row with a different number of cells).
 */
export function parseTraceText(text) {
  const lines = String(text).split('\n').map((l) => l.trim()).filter(Boolean);
  const head = lines[0]?.split(/\s+/) ?? [];
  if (head[0] !== 'slot' || head.length < 2) return null;
  const slots = head.slice(1).map(Number);
  if (slots.some((n) => !Number.isInteger(n))) return null;
  const rows = [];
  for (const line of lines.slice(1)) {
    const [rank, ...cells] = line.split(/\s+/);
    if (cells.length !== slots.length || !/^\d+$/.test(rank)) return null;
    rows.push({ rank: Number(rank), cells });
  }
  return rows.length ? { slots, rows } : null;
}

const chunk = (mb, dir) => `${mb}${dir === 0 ? '>' : '<'}`;

/** One cell of core's trace grid (an op record or null) in the trace notation. */
export function traceCellText(cell) {
  if (!cell) return '.';
  if (cell.op === 'FB') return `${chunk(cell.fmb, cell.fdir)}${chunk(cell.bmb, cell.bdir)}`;
  if (cell.op === 'B') return `${cell.zb ? 'b' : 'B'}${chunk(cell.mb, cell.dir)}`;
  return `${cell.op}${chunk(cell.mb, cell.dir)}`;
}

/** The first `count` slots of a trace grid result ({grid: [rank][slot]}) as parseTraceText gives a block. */
export function traceFromGrid(result, count = Infinity) {
  const slots = Array.from({ length: Math.min(count, result.slots) }, (_, i) => i);
  return { slots, rows: result.grid.map((cells, rank) => ({ rank, cells: slots.map((i) => traceCellText(cells[i])) })) };
}

/** The trace cut into runs of at most `perRow` slots: [{slots, rows}], in order. */
export function chunkTrace(trace, perRow) {
  const n = Math.max(1, Math.floor(perRow));
  const out = [];
  for (let from = 0; from < trace.slots.length; from += n) {
    out.push({ slots: trace.slots.slice(from, from + n), rows: trace.rows.map((r) => ({ rank: r.rank, cells: r.cells.slice(from, from + n) })) });
  }
  return out;
}
