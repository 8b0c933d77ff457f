// Tables that reflow on a phone instead of scrolling sideways in their box: each body cell is
// labelled with its column's heading (data-label), and css/lesson.css lays a table of three or
// more columns out as one card per row below 600 px, each value under its heading's words.
/** Labels every body and footer cell of `table` with its column heading; returns the table. */
export function labelCells(table) {
  const head = table.tHead?.rows[table.tHead.rows.length - 1];
  if (!head) return table;
  const names = [...head.cells].map((c) => c.textContent.trim());
  for (const section of [...table.tBodies, table.tFoot].filter(Boolean)) {
    for (const row of section.rows) [...row.cells].forEach((cell, i) => { if (names[i]) cell.dataset.label = names[i]; });
  }
  return table;
}
