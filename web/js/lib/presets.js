// Named starting points for the timeline explorer. DOM-free.
import { DEFAULT_COSTS } from '../state.js';

/** Each preset sets the schedule(s) and shape; costs stay DeepSeek's unless stated. */
export const PRESETS = [
  { id: 'deepseek', schedule: 'dualpipe', compare: '', ranks: 8, microbatches: 20, costs: DEFAULT_COSTS },
  { id: 'dualpipe-vs-1f1b', schedule: 'dualpipe', compare: '1f1b', ranks: 8, microbatches: 20, costs: DEFAULT_COSTS },
  { id: 'dualpipe-vs-zb', schedule: 'dualpipe', compare: 'zb-h1', ranks: 8, microbatches: 20, costs: DEFAULT_COSTS },
  { id: 'dualpipev', schedule: 'dualpipev', compare: '', ranks: 4, microbatches: 16, costs: DEFAULT_COSTS },
  { id: 'gpipe-vs-1f1b', schedule: 'gpipe', compare: '1f1b', ranks: 4, microbatches: 8, costs: DEFAULT_COSTS },
  { id: 'latency', schedule: 'dualpipe', compare: '1f1b', ranks: 4, microbatches: 8, costs: { ...DEFAULT_COSTS, p2pLatency: 0.5 } },
];

/** The preset the state matches exactly, or null (the communication model is not part of a preset). */
export function matchPreset(state) {
  const same = (a, b) => Object.keys(a).every((k) => a[k] === b[k]);
  return PRESETS.find((p) => p.schedule === state.schedule && p.compare === state.compare
    && p.ranks === state.ranks && p.microbatches === state.microbatches && same(p.costs, state.costs)) || null;
}
