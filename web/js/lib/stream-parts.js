// The communication model's op parts (docs/schema.md "Communication model") placed on the
// timeline: every op of a kind has the same parts (of a kind and stage, under per-stage costs),
// listed once in result.comm.ops[key] (comm.stageOps) with times relative to the op's start, so a rank's compute and communication streams are its ops'
// parts shifted by each op's start. Also the stretches inside an op where the compute stream
// waits for an all-to-all (exposed communication), the CSS classes and short labels the stream
// view and exercise 3's pair view share, and text for tooltips and tables. DOM-free.
import { atTick } from './tick.js';

/** The four parts of a chunk (DeepSeek-V3 §3.2.1), in the order a forward runs them. */
export const PART_NAMES = Object.freeze(['attn', 'dispatch', 'mlp', 'combine']);
const LETTERS = { attn: 'A', dispatch: 'D', mlp: 'M', combine: 'C' };


/** The key of an op's entry in result.comm.ops: "Bz" for a zero-bubble B, else its kind. */
export function commKey(o) {
  return o.kind === 'B' && o.zb ? 'Bz' : o.kind;
}

/**
 * An op's entry: result.comm.ops[commKey], or under per-stage costs (where parts depend on the
 * stage) result.comm.stageOps["<stage>:<key>"], a pair's "<fstage>:<bstage>:FB". Also its key,
 * for caches of per-entry values.
 */
export function commEntry(o, comm) {
  if (!comm) return { key: '', entry: null };
  if (!comm.stageOps) return { key: commKey(o), entry: comm.ops?.[commKey(o)] ?? null };
  const key = o.kind === 'FB' ? `${o.fstage}:${o.bstage}:FB` : `${o.stage}:${commKey(o)}`;
  return { key, entry: comm.stageOps[key] ?? null };
}

/** The chunk a part belongs to: an FB pair's forward parts are its forward chunk's, the rest its backward's. */
function chunkOf(o, pass) {
  if (o.kind !== 'FB') return { dir: o.dir, mb: o.mb };
  return pass === 'F' ? { dir: o.fdir, mb: o.fmb } : { dir: o.bdir, mb: o.bmb };
}

/**
 * The parts of op `o` (a timeline-data.js record) at absolute times:
 * [{rank, op (index on its rank), kind, stream, part, pass, layer, label, dir, mb, start, end}].
 */
export function opParts(o, comm) {
  const { entry } = commEntry(o, comm);
  if (!entry) return [];
  return entry.parts.map((p) => ({
    rank: o.rank, op: o.seq, kind: o.kind, stream: p.stream, part: p.part, pass: p.pass, layer: p.layer,
    label: p.label, ...chunkOf(o, p.pass), start: atTick(o.start + p.start), end: atTick(o.start + p.end),
  }));
}

/**
 * Where the compute stream waits inside one op of this entry (relative times, merged, in order):
 * [0, duration] minus every compute part.
 */
export function computeGaps(entry) {
  const busy = entry.parts.filter((p) => p.stream === 'compute').map((p) => [p.start, p.end]).sort((a, b) => a[0] - b[0]);
  const gaps = [];
  let at = 0;
  for (const [start, end] of busy) {
    if (start > at + 1e-9) gaps.push({ start: at, end: start });
    at = Math.max(at, end);
  }
  if (entry.duration > at + 1e-9) gaps.push({ start: at, end: entry.duration });
  return gaps;
}

/** The exposed stretches of op `o` at absolute times: [{rank, op, start, end}]. */
export function opExposed(o, comm, gapsByKey) {
  const { key, entry } = commEntry(o, comm);
  if (!entry) return [];
  if (!gapsByKey.has(key)) gapsByKey.set(key, computeGaps(entry));
  return gapsByKey.get(key).map((g) => ({ rank: o.rank, op: o.seq, start: atTick(o.start + g.start), end: atTick(o.start + g.end) }));
}

/** The CSS classes of a part (and its label): kind by pass (F, B, W), hue by direction, comm outlined. */
export function partClass(part, dir) {
  return `k-${part.pass === 'W' ? 'W' : part.pass === 'F' ? 'F' : 'B'} d-${dir}${part.stream === 'comm' ? ' is-comm' : ''}`;
}

/** A part's label as core writes it: partLabel('dispatch', 'F') = "DISPATCH(F)". */
export function partLabel(part, pass) {
  return `${String(part).toUpperCase()}(${pass})`;
}

/** What fits inside a part `width` pixels wide: its label (DISPATCH(F)), its letter (D), or ''. */
export function partText(part, width, charPx = 6) {
  if (width >= part.label.length * charPx + 6) return part.label;
  return width >= charPx + 4 ? LETTERS[part.part] || '' : '';
}

/** The data-* attributes of a drawn part (tests and the table read them). */
export function partDataset(p) {
  return { rank: p.rank, op: p.op, stream: p.stream, part: p.part, pass: p.pass, layer: p.layer, dir: p.dir, mb: p.mb, start: p.start, end: p.end };
}

/**
 * One line describing a part (or an exposed wait, which has no `part`) for tooltips and tables;
 * `layers` is the comm model's layers per chunk (the layer is named only when there are several).
 */
export function describePart(p, t, fmt = (v) => String(v), layers = 1) {
  const where = { rank: p.rank, op: Number(p.op) + 1, start: fmt(p.start), end: fmt(p.end) };
  if (!p.part) return t('part.describeExposed', where);
  const vars = { ...where, part: p.label, stream: t(`part.stream.${p.stream}`), dir: p.dir, mb: p.mb };
  return layers > 1 ? t('part.describeLayer', { ...vars, layer: Number(p.layer) + 1, layers }) : t('part.describe', vars);
}
