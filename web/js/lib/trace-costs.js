// The costs a profiler trace gives the explorer and the sweep, from core's trace-import report
// (docs/schema.md "Traces", `derived`): F, B, W and F&B of the measured chunk pair in ms, p2p
// latency 0 (the trace's pipeline sends are whatever it holds), and the communication model in
// the ratio form the page's settings take (costs.comm: ratio, attention share, layers per chunk;
// the explicit components, which also give the backward its own all-to-all time, are drawn in
// the pair beside the model's). Each with how core derived it, as a phrase (core's
// trace.derived.* ids) said in the page's language by lib/plan-text.js. DOM-free.
import { planText } from './plan-text.js';

/** The page's cost fields a trace fills, in the order they are listed, with where core derived each. */
const FIELDS = [
  ['forward', 'forward'], ['backward', 'backward'], ['weight', 'weight'], ['overlapped', 'overlapped'],
  ['commRatio', 'commRatio'], ['attnShare', 'attnShare'], ['commLayers', 'layers'],
];

/**
 * {costs, lines} from a trace-import report, or null when it derived none: `costs` as the page's
 * state holds them, `lines` [{field, value, derivation, phrase}] (field: the cost controls' name,
 * whose cost.<field>.sym is its symbol; derivation core's English, phrase its {id, params}).
 */
export function measuredCosts(report) {
  const d = report?.derived;
  if (!d) return null;
  const costs = {
    forward: d.forward.value, backward: d.backward.value, weight: d.weight.value, overlapped: d.overlapped.value,
    p2pLatency: d.costs.p2pLatency,
    comm: { ratio: d.commRatio.value, attnShare: d.attnShare.value, layers: d.layers.value },
  };
  const lines = FIELDS.map(([field, key]) => ({ field, value: d[key].value, derivation: d[key].derivation, phrase: d[key].derivationPhrase }));
  return { costs, lines };
}

/** How `line`'s cost was derived, in the language of translator `t` (core's English without a template). */
export const derivationText = (line, t) => planText(line.phrase, t) ?? line.derivation;
