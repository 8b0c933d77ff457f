// The Zero Bubble paper's published bubble rates beside ours (lessons/papers/zero-bubble-bubble-
// rates.json, shipped by the site build): for each of its rows (model size, stages p, micro-batches
// m and the profiled per-op times T_F, T_B, T_W, T_comm) and each schedule it publishes a rate
// for, the config that runs our schedule at those times, and the paper's measure of a result.
// tests/core/paper_rates_test.cpp makes the same runs natively; tests/browser/lib-paper-rates
// checks that this file's runs give the same 36 matches and 12 near-misses. DOM-free.

/** A rate printed to 4 decimals matches when within half a unit of its last place. */
export const PRINTED_TOLERANCE = 0.00005;

/** The per-rank work of one step: m (T_F + T_B + T_W), the paper's useful time (§5.3). */
export function workPerRank(row) {
  return row.microbatches * (row.tF + row.tB + row.tW);
}

/**
 * Chunks per rank for the paper's 1F1B-I: every layer a chunk, the first and last stages one
 * layer fewer (the JSON's `interleaved` note), so the middle stages' layers, (layers + 2) / p.
 * Equal chunks cannot give the outer stages fewer, which is the gap this file explains.
 */
export function interleavedChunks(row) {
  return (row.layers + 2) / row.stages;
}

/**
 * The simulator config for `schedule` at `row`'s times. Our B is the whole backward, the paper's
 * T_B its input-gradient part, so B = T_B + T_W; T_comm is the latency of every hop between
 * stages. Interleaved 1F1B gets V chunks of 1/V of a stage's times each. The overlapped cost is
 * not used by these schedules; it is set to a lone F plus B so every config is valid.
 */
export function paperConfig(row, schedule) {
  const v = schedule === 'interleaved-1f1b' ? interleavedChunks(row) : 1;
  const costs = {
    forward: row.tF / v,
    backward: (row.tB + row.tW) / v,
    weight: row.tW / v,
    overlapped: (row.tF + row.tB + row.tW) / v,
    p2pLatency: row.tComm,
  };
  const config = { schedule, ranks: row.stages, microbatches: row.microbatches, costs };
  if (v !== 1) config.chunks = v;
  return config;
}

/**
 * The paper's bubble rate of a result (§5.3): (cost - work) / cost, where cost is the longest
 * time any stage takes from its first op's start to its last op's end. `timeline` is the JS API's
 * typed columns (ops ordered by rank, then in the order the rank runs them).
 */
export function paperBubbleRate(result, work) {
  const { count, rank, start, end } = result.timeline;
  let cost = 0;
  for (let i = 0; i < count; ) {
    let j = i;
    while (j + 1 < count && rank[j + 1] === rank[i]) j++;
    cost = Math.max(cost, end[j] - start[i]);
    i = j + 1;
  }
  return (cost - work) / cost;
}

/**
 * How ours compares with the published rate: 'match' (within the printed precision),
 * 'above-uneven' (interleaved 1F1B above it: the outer stages' missing layer, see
 * interleavedChunks), or 'differs'.
 */
export function verdict(schedule, ours, published) {
  if (Math.abs(ours - published) <= PRINTED_TOLERANCE + 1e-12) return 'match';
  if (schedule === 'interleaved-1f1b' && ours > published) return 'above-uneven';
  return 'differs';
}

/** The table's rows grouped by model, in file order: [{model, layers, stages, rows: [row]}]. */
export function byModel(table) {
  const groups = [];
  for (const row of table.rows) {
    let group = groups.find((g) => g.model === row.model);
    if (!group) groups.push(group = { model: row.model, layers: row.layers, stages: row.stages, rows: [] });
    group.rows.push(row);
  }
  return groups;
}
