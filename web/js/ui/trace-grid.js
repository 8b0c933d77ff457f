// The hand-trace grid of exercise 2: one text cell per rank and time slot, where the learner marks
// the micro-batch and direction of the op running there ("3" or "3'", a pair "3 1'"). One tab stop
// for the whole grid (roving tabindex); arrow keys, Home and End move; D flips the direction of
// the cell's last mark. After a check every cell is marked right or wrong by colour, a hatch and
// a ✓/✗ glyph, and its accessible name says so. Also draws core's grid read-only as the solution.
import { h, uniqueId } from './dom.js';
import { parseCell, formatMarks, cellMarks } from '../lib/exercise-model.js';

function flipLast(text) {
  const parsed = parseCell(text);
  if (!parsed.ok || !parsed.marks.length) return text;
  const marks = parsed.marks.map((m) => ({ ...m }));
  const last = marks[marks.length - 1];
  last.dir = 1 - last.dir;
  return formatMarks(marks);
}

/**
 * createTraceGrid({t, ranks, slots, caption}) -> {element, read(), write(entries), showResult(cmp),
 * clearResult(), solution(trace) -> Node}.
 */
export function createTraceGrid({ t, ranks, slots, caption }) {
  const prefix = uniqueId('dpl-trace');
  const inputs = [];
  const head = h('tr', {}, [h('th', { scope: 'col', class: 'dpl-trace-corner', text: t('ex.grid.rankSlot') }),
    ...Array.from({ length: slots }, (_, s) => h('th', { scope: 'col', text: String(s) }))]);
  const rows = Array.from({ length: ranks }, (_, r) => {
    inputs[r] = [];
    const cells = Array.from({ length: slots }, (_, s) => {
      const input = h('input', {
        type: 'text', class: 'dpl-trace-input', autocomplete: 'off', spellcheck: 'false', tabindex: r === 0 && s === 0 ? 0 : -1,
        'aria-label': t('ex.grid.cell', { rank: r, slot: s }), dataset: { rank: r, slot: s },
      });
      inputs[r][s] = input;
      return h('td', { class: 'dpl-trace-td' }, [input]);
    });
    return h('tr', {}, [h('th', { scope: 'row', text: t('op.rank', { rank: r }) }), ...cells]);
  });
  const table = h('table', { class: 'dpl-trace-table', id: `${prefix}-table` }, [
    h('caption', { class: 'visually-hidden', text: caption }), h('thead', {}, [head]), h('tbody', {}, rows),
  ]);
  const summary = h('p', { class: 'dpl-trace-summary', 'aria-live': 'polite' });
  const clearButton = h('button', { type: 'button', class: 'dpl-btn', dataset: { action: 'clear-grid' } }, [t('ex.grid.clear')]);
  const element = h('div', { class: 'dpl-trace' }, [
    h('div', { class: 'dpl-trace-scroll' }, [table]),
    h('div', { class: 'dpl-trace-foot' }, [clearButton, summary]),
  ]);

  let active = inputs[0][0];
  const focusCell = (r, s) => {
    const next = inputs[Math.max(0, Math.min(ranks - 1, r))][Math.max(0, Math.min(slots - 1, s))];
    active.tabIndex = -1;
    next.tabIndex = 0;
    active = next;
    next.focus();
    next.select();
  };

  table.addEventListener('focusin', (event) => {
    const input = event.target.closest('input');
    if (!input || input === active) return;
    active.tabIndex = -1;
    input.tabIndex = 0;
    active = input;
  });
  table.addEventListener('focusout', (event) => {
    const input = event.target.closest('input');
    if (!input) return;
    const parsed = parseCell(input.value);
    if (parsed.ok && parsed.marks.length) input.value = formatMarks(parsed.marks); // show how it was read
  });
  table.addEventListener('input', (event) => {
    const td = event.target.closest('td');
    if (td?.dataset.status) {
      delete td.dataset.status; // a changed cell is no longer judged
      event.target.setAttribute('aria-label', t('ex.grid.cell', { rank: event.target.dataset.rank, slot: event.target.dataset.slot }));
      event.target.removeAttribute('aria-invalid');
    }
  });
  table.addEventListener('keydown', (event) => {
    const input = event.target.closest('input');
    if (!input) return;
    const r = Number(input.dataset.rank);
    const s = Number(input.dataset.slot);
    const moves = {
      ArrowLeft: [r, s - 1], ArrowRight: [r, s + 1], ArrowUp: [r - 1, s], ArrowDown: [r + 1, s],
      Home: [r, 0], End: [r, slots - 1], Enter: [r, s + 1],
    };
    if (moves[event.key] && !event.altKey && !event.metaKey) {
      event.preventDefault();
      focusCell(...moves[event.key]);
    } else if ((event.key === 'd' || event.key === 'D') && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      input.value = flipLast(input.value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
  clearButton.addEventListener('click', () => {
    inputs.flat().forEach((i) => { i.value = ''; });
    api.clearResult();
  });

  const api = {
    element,
    focus: () => focusCell(0, 0),
    read: () => inputs.map((row) => row.map((i) => i.value)),
    write(entries) {
      inputs.forEach((row, r) => row.forEach((input, s) => { input.value = entries?.[r]?.[s] ?? ''; }));
    },
    clearResult() {
      summary.textContent = '';
      inputs.forEach((row, r) => row.forEach((input, s) => {
        delete input.parentElement.dataset.status;
        input.removeAttribute('aria-invalid');
        input.setAttribute('aria-label', t('ex.grid.cell', { rank: r, slot: s }));
      }));
    },
    /** Marks every cell from compareGrid()'s result and says how many differ. */
    showResult(cmp) {
      inputs.forEach((row, r) => row.forEach((input, s) => {
        const status = cmp.cells[r][s];
        input.parentElement.dataset.status = status;
        if (status === 'ok') input.removeAttribute('aria-invalid');
        else input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-label', `${t('ex.grid.cell', { rank: r, slot: s })}: ${t(`ex.grid.${status}`)}`);
      }));
      if (!cmp.wrong && !cmp.invalid) {
        summary.textContent = t('ex.grid.allRight', { total: cmp.total });
        return;
      }
      const parts = [t('ex.grid.wrongCount', { n: cmp.wrong + cmp.invalid, total: cmp.total })];
      if (cmp.firstWrong) parts.push(t('ex.grid.first', { rank: cmp.firstWrong.rank, slot: cmp.firstWrong.slot }));
      if (cmp.empty) parts.push(t('ex.grid.emptyCount', { n: cmp.empty }));
      if (cmp.invalid) parts.push(t('ex.grid.unreadable', { n: cmp.invalid }));
      summary.textContent = parts.join(' ');
    },
    /** Core's grid, read-only, coloured like the timeline (direction hue, op-kind lightness). */
    solution(trace) {
      const body = trace.grid.map((row, r) => h('tr', {}, [
        h('th', { scope: 'row', text: t('op.rank', { rank: r }) }),
        ...row.map((cell) => {
          if (!cell) return h('td', { class: 'dpl-trace-idle', text: '·' });
          const kind = cell.op === 'B' && cell.zb ? 'Bi' : cell.op;
          const dir = cell.op === 'FB' ? cell.fdir : cell.dir;
          return h('td', { class: `dpl-trace-sol d-${dir} k-${kind === 'FB' ? 'F' : kind}`, title: cell.op },
            [h('span', { class: 'dpl-trace-op', text: cell.op === 'B' && cell.zb ? 'b' : cell.op }), ' ', formatMarks(cellMarks(cell))]);
        }),
      ]));
      return h('div', { class: 'dpl-trace-scroll' }, [h('table', { class: 'dpl-trace-table is-solution' }, [
        h('caption', { text: t('ex.grid.solutionCaption', { schedule: trace.schedule, ranks: trace.ranks, mb: trace.microbatches }) }),
        h('thead', {}, [h('tr', {}, [h('th', { scope: 'col', text: t('ex.grid.rankSlot') }),
          ...trace.grid[0].map((_, s) => h('th', { scope: 'col', text: String(s) }))])]),
        h('tbody', {}, body),
      ])]);
    },
  };
  return api;
}
