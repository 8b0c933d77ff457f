// The timeline model's adapter for profiler traces (lib/timeline-model.js describes a lane), from
// the report core's trace-import writes (docs/schema.md "Traces"; the JS API's traceImport), and
// for the overlapped pair core's analyse_pair times (the JS API's overlapPair, `pipesim overlap`).
// A row is a GPU stream (by device, then stream), an item one annotated range's GPU work on it
// (the report's spans: first kernel's start to last one's end, with its busy time), drawn in the
// stream view's look ('part'): ranges named as DeepSeek names the parts of a chunk pair (attn(F),
// dispatch(B), ...; DeepSeek-V3 report Fig. 4) take their pass's colour and the label the
// simulator's parts have (ATTN(F), DISPATCH(B)), so a measured pair and the model's pair read
// alike; other names are drawn grey with their own name. A range that overlaps the one before it
// on its stream (kernels of two ranges interleaved) goes to a row of its own under the stream, so
// nothing on a row overlaps. Times in ms from the trace's first GPU event. DOM-free.
import { tracksOf } from './timeline-model.js';
import { partCategory } from './timeline-lod.js';
import { partLabel } from './stream-parts.js';
import { formatNumber, formatPercent } from './format.js';
import { DEFAULT_LANG } from './locales.js';
import { atTick } from './tick.js';

/** DeepSeek's part names: attn, dispatch, mlp or combine, then (F), (B) or (W). */
const PART_NAME = /^(attn|dispatch|mlp|combine)\(([FBW])\)$/;
const COMM_PARTS = new Set(['dispatch', 'combine']);
const SPAN_COLUMNS = ['col.stream', 'col.part', 'col.start', 'col.end', 'col.busy'];

/** A range's part and pass when it is named as one of DeepSeek's parts, and its label. */
export function partOfName(name) {
  const m = PART_NAME.exec(name);
  return m ? { part: m[1], pass: m[2], label: partLabel(m[1], m[2]) } : { part: null, pass: 'X', label: name };
}

/** Where a record ran, in words: its stream's row name and kind. */
function whereOf(r, t) {
  const stream = t(`part.stream.${r.kind}`);
  return r.device === null ? stream : t('trace.where', { device: r.device, stream: r.stream, kind: stream });
}

const describe = (r, t, fmt) => t('trace.span', { name: r.label, where: whereOf(r, t), start: fmt(r.start), end: fmt(r.end), busy: fmt(r.busy) });

const dataset = (r) => ({
  row: r.row, seq: r.seq, name: r.name, part: r.part ?? '', pass: r.pass, stream: r.stream, kind: r.kind,
  ...(r.device === null ? {} : { device: r.device }), start: r.start, end: r.end, busy: r.busy,
});

const cells = (r, t, fmt) => [whereOf(r, t), r.label, fmt(r.start), fmt(r.end), fmt(r.busy)];

/**
 * A lane of `rows` ({label: {key, vars}, items: records sorted by start}): items that overlap the
 * one before them on their row move to a further row of the same stream.
 */
function partLane(title, rows, { stats = [], end = null } = {}) {
  const laid = [];
  for (const row of rows) {
    const levels = []; // each: {label, items}, the first the stream's own row
    for (const item of row.items) {
      let level = levels.find((l) => l.items[l.items.length - 1].end <= item.start);
      if (!level) {
        const vars = levels.length ? { ...row.label.vars, stream: `${row.label.vars.stream}+${levels.length}` } : row.label.vars;
        level = { label: { key: row.label.key, vars }, items: [] };
        levels.push(level);
      }
      level.items.push(item);
    }
    laid.push(...(levels.length ? levels : [{ label: row.label, items: [] }]));
  }
  laid.forEach((row, r) => row.items.forEach((item, seq) => {
    item.row = r;
    item.seq = seq;
  }));
  const records = laid.map((row) => row.items);
  const { tracks, shortest } = tracksOf(records, (item) => partCategory(item.pass, item.comm));
  return {
    title,
    look: 'part',
    tracks,
    end: end ?? lastEnd(records),
    shortest,
    itemCount: records.reduce((n, items) => n + items.length, 0),
    records: () => records,
    itemAt: (row, i) => records[row][i],
    describe,
    dataset,
    rowLabels: laid.map((row) => row.label),
    idle: laid.map(() => null),
    hasIdle: false,
    stats,
    table: { head: SPAN_COLUMNS, cells },
    streams: null,
    memory: null,
    memorySteps: () => null,
    memoryModel: null,
    memoryUnit: 'units',
    result: null,
  };
}

/** The latest end of any record (a loop: a report may list 100,000 ranges on each stream). */
function lastEnd(records) {
  let last = 0;
  for (const items of records) for (const item of items) last = Math.max(last, item.end);
  return last;
}

/** A span of the report as a record, moved `shift` ms earlier; `names` caches partOfName (names repeat). */
function spanRecord(span, kind, shift, names) {
  let named = names.get(span.name);
  if (!named) names.set(span.name, (named = partOfName(span.name)));
  return {
    name: span.name, ...named, device: span.device, stream: span.stream, kind,
    comm: named.part ? COMM_PARTS.has(named.part) : kind === 'comm',
    start: atTick(span.startMs - shift), end: atTick(span.endMs - shift), busy: span.busyMs,
  };
}

/** Each stream of `streams` as a row holding the records `pick(span)` keeps (one pass over the spans). */
function streamRows(report, streams, pick, shift = 0) {
  const rows = new Map(streams.map((s) => [`${s.device}:${s.stream}`, { label: { key: 'axis.stream', vars: { device: s.device, stream: s.stream } }, kind: s.kind, items: [] }]));
  const names = new Map();
  for (const span of report.spans) {
    const row = rows.get(`${span.device}:${span.stream}`);
    if (row && pick(span)) row.items.push(spanRecord(span, row.kind, shift, names));
  }
  return [...rows.values()].map(({ label, items }) => ({ label, items: items.sort((a, b) => a.start - b.start || a.end - b.end) }));
}

/** The heading's numbers of a trace, as language `lang` writes numbers: busy time per kind (summed over devices) and HTA's overlap. */
function traceStats(report, lang) {
  const sum = (key) => report.devices.reduce((n, d) => n + d[key], 0);
  const stats = [{ key: 'stat.traceBusy', vars: { compute: formatNumber(sum('computeMs'), 3, lang), comm: formatNumber(sum('commMs'), 3, lang) } }];
  if (report.overlap !== null) stats.push({ key: 'stat.overlap', vars: { v: formatPercent(report.overlap, 1, lang) } });
  return stats;
}

/** The whole trace: every GPU stream of every device, with its annotated ranges; its numbers in language `lang`. */
export function traceLane(report, title, lang = DEFAULT_LANG) {
  return partLane(title, streamRows(report, report.streams, () => true), { stats: traceStats(report, lang) });
}

/**
 * The first measured chunk pair (report.derived.firstPair: its device, from its first part
 * kernel to its last) on that device's streams, from time 0; null without derived costs.
 */
export function measuredPairLane(report, title, lang = DEFAULT_LANG) {
  const pair = report.derived?.firstPair;
  if (!pair) return null;
  const eps = 1e-9;
  const inside = (span) => span.startMs >= pair.startMs - eps && span.endMs <= pair.endMs + eps && partOfName(span.name).part !== null;
  const streams = report.streams.filter((s) => s.device === pair.device);
  const rows = streamRows(report, streams, inside, pair.startMs).filter((row) => row.items.length);
  const end = atTick(pair.endMs - pair.startMs);
  return partLane(title, rows, { end, stats: [{ key: 'stat.pair', vars: { v: formatNumber(end, 3, lang) } }] });
}

/** The pair core's analyse_pair times (overlapPair's result): a compute and a communication row. */
export function modelPairLane(pair, title, lang = DEFAULT_LANG) {
  const rows = ['compute', 'comm'].map((stream) => ({
    label: { key: `stream.${stream}.short`, vars: {} },
    items: pair.parts.filter((p) => p.stream === stream).map((p) => ({
      name: p.label, part: p.part, pass: p.pass, label: p.label, device: null, stream, kind: stream,
      comm: stream === 'comm', start: p.start, end: p.end, busy: atTick(p.end - p.start),
    })),
  }));
  const stats = [
    { key: 'stat.pair', vars: { v: formatNumber(pair.duration, 3, lang) } },
    { key: 'stat.hidden', vars: { v: formatPercent(pair.comm > 0 ? pair.hidden / pair.comm : 1, 1, lang) } },
  ];
  return partLane(title, rows, { end: pair.duration, stats });
}
