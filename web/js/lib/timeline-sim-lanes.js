// The timeline model's adapter for the simulator (lib/timeline-model.js describes a lane): one
// lane per result of the JS API's simulate(), either timeline shape (typed columns or the JSON's
// op arrays). A row is a rank, an item one of its ops (look 'op'); with the communication model
// each row opens into its compute and communication streams (lib/stream-parts.js places the
// parts); the heading gives the run's step time, bubble, peak activations and training state,
// and, with a memory model, memory in GB; the idle column each rank's idle time. DOM-free.
import { opTracks, commKeyOf } from './timeline-lod.js';
import { opCount, opRecord, normalizeTimeline, describeOp, opDataset } from './timeline-data.js';
import { opParts, opExposed, commEntry } from './stream-parts.js';
import { memorySteps } from './timeline-memory.js';
import { formatNumber, formatPercent, formatFixedIn } from './format.js';
import { DEFAULT_LANG } from './locales.js';
import CATALOGUE from '../../generated/catalogue.js';

const DEFAULT_LAYERS = CATALOGUE.comm.layers;
const OP_COLUMNS = ['col.rank', 'col.seq', 'col.op', 'col.dir', 'col.mb', 'col.stage', 'col.start', 'col.end'];

/** The stream parts the stream view would draw for the ops of `tracks` under `comm`. */
function partCount(tracks, comm) {
  if (!comm?.ops) return 0;
  let n = 0;
  for (const tr of tracks) for (let i = 0; i < tr.cat.length; i++) n += comm.ops[commKeyOf(tr.cat[i])]?.parts.length || 0;
  return n;
}

/** The heading's numbers of a result, as language `lang` writes numbers. */
function statsOf(r, lang) {
  const stats = [
    { key: 'stat.makespan', vars: { v: formatNumber(r.makespan, 3, lang) } },
    // More stages than ranks (DualPipeV, ZB-V, interleaved 1F1B): each rank runs several stages at
    // the costs given, a deeper model than a one-stage-per-rank run beside it; said next to the step
    // time, which it explains (DualPipeV at 6 x 12: 82 against 1F1B's 51).
    ...(r.stages > r.ranks ? [{ key: 'stat.modelStages', vars: { stages: formatNumber(r.stages, 0, lang), k: formatNumber(r.stagesPerRank, 0, lang) } }] : []),
    { key: 'stat.bubbleMax', vars: { v: formatNumber(r.bubble.max, 3, lang) } },
    { key: 'stat.bubbleFraction', vars: { v: formatPercent(r.bubble.fraction, 1, lang) } },
    { key: 'stat.peak', vars: { v: formatNumber(r.maxPeakActivationMemory, 3, lang) } },
    // Weights, gradients and optimizer state: core's copies per GPU, one = a rank's share.
    { key: 'stat.trainingState', vars: { v: formatNumber(r.paramCopies, 3, lang) } },
  ];
  // With a memory model: what one GPU holds at the peak, in GB (core's result.memory).
  const m = r.memory;
  if (m) {
    const act = m.activations ? m.activations.peakBytes : 0;
    // GB with one decimal always ("12.0"), in the language's decimal sign.
    const gb = (bytes) => formatFixedIn(bytes / 1e9, 1, lang);
    stats.push({ key: 'stat.memoryGb', vars: { total: gb(m.totalBytes), states: gb(m.perGpu.bytes.total), act: gb(act) } });
  }
  if (r.comm) {
    stats.push({ key: 'stat.hidden', vars: { v: formatPercent(r.comm.hiddenFraction, 1, lang) } }, { key: 'stat.computeUtil', vars: { v: formatPercent(r.comm.computeUtilization, 1, lang) } });
  }
  return stats;
}

/** The data table's cells of one op (the stream view adds its parts under it: ui/timeline-parts.js). */
function opCells(o, t, fmt) {
  const both = (a, b) => `${a} / ${b}`;
  const fb = o.kind === 'FB';
  const kind = fb ? t('kind.FB') : o.kind === 'B' && o.zb ? t('kind.Bi') : t(`kind.${o.kind}`);
  return [
    o.rank, o.seq + 1, kind,
    fb ? both(o.fdir, o.bdir) : o.dir,
    fb ? both(o.fmb, o.bmb) : o.mb,
    fb ? both(o.fstage, o.bstage) : o.stage,
    fmt(o.start), fmt(o.end),
  ];
}

/** One simulated run as a lane titled `title`, its numbers as language `lang` writes them (English by default). */
export function simLane(result, title = result.schedule, lang = DEFAULT_LANG) {
  const { tracks, shortestOp } = opTracks(result);
  const comm = result.comm ?? null;
  let rows = null;
  const lane = {
    title,
    look: 'op',
    tracks,
    end: result.makespan,
    shortest: shortestOp,
    itemCount: opCount(result),
    records: () => (rows ??= normalizeTimeline(result)),
    itemAt: (rank, seq) => (rows ? rows[rank][seq] : opRecord(result, rank, seq, tracks[rank].index[seq])),
    describe: describeOp,
    dataset: opDataset,
    rowLabels: tracks.map((_, rank) => ({ key: 'axis.rank', vars: { rank } })),
    idle: tracks.map((_, r) => (typeof result.perRank?.[r]?.idle === 'number' ? result.perRank[r].idle : null)),
    hasIdle: result.bubble.max > 0,
    stats: statsOf(result, lang),
    table: { head: OP_COLUMNS, cells: opCells },
    streams: comm ? {
      partCount: partCount(tracks, comm),
      layers: result.costs?.comm?.layers ?? DEFAULT_LAYERS,
      partsOf: (o) => opParts(o, comm),
      exposedOf: (o, cache) => opExposed(o, comm, cache),
      exposedTotal: (r) => (typeof result.perRank?.[r]?.exposedComm === 'number' ? result.perRank[r].exposedComm : null),
      entryOf: (o) => commEntry(o, comm).entry,
    } : null,
    memory: null, // the steps, filled by memorySteps() when the memory lane is first drawn
    memorySteps: () => memorySteps(result, lang),
    memoryModel: result.memory ?? null,
    memoryUnit: result.memory?.activations ? 'GB' : 'units',
    result,
  };
  return lane;
}

/** Results (in lane order) with their titles as lanes, numbers in language `lang`. */
export function simLanes(results, titles = [], lang = DEFAULT_LANG) {
  return results.map((result, i) => simLane(result, titles[i] ?? result.schedule, lang));
}
