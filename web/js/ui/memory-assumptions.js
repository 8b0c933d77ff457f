// The memory model's assumptions beside its numbers (core's pipesim/memory.h): one line per topic
// (model, precision recipe, sharding, layout, parameter copies, activations), said in the page's
// language from the structured values core returns, each with core's source. Used by the lesson's
// memory tables, the parameter calculator, the planner and the timeline's memory lane. Core's
// words that are not names (sources, recipe labels, the labels of models that are not presets)
// come with their phrase (`sourceText`, `labelText`: id + params of core's pipesim/plan_texts.h
// memory.* rows), said from the page's catalogue like the planner's phrases.
import { h } from './dom.js';
import { formatCount } from '../lib/format.js';
import { plainNumber } from '../lib/plain-number.js';
import { planText } from '../lib/plan-text.js';

/** The topics in core's order. */
export const MEMORY_TOPICS = ['model', 'recipe', 'sharding', 'layout', 'copies', 'activations'];

/** What runs one sentence on to the next in the page's language (text.sentences: a space, none in Chinese), between elements. */
export const sentenceGap = (t) => t('text.sentences', { first: '', next: '' });

// Counts grouped and other values to 6 significant digits, as the page's language writes them (lib/format.js).
const grouped = (n, t) => formatCount(n, t.lang);
const num = (n, t) => plainNumber(n, 6, t.lang);

/** `x.labelText` (a phrase) in the page's language when core gave one, else `x.label` (a name). */
export const labelText = (x, t) => (x?.labelText && planText(x.labelText, t)) || x?.label || '';

/** `x.sourceText` (a phrase) in the page's language when core gave one, else `x.source` (a name). */
export const sourceText = (x, t) => (x?.sourceText && planText(x.sourceText, t)) || x?.source || '';

/**
 * One assumption of a memory result (`a` = result.assumptions[topic]) in words: whole sentences,
 * each a message of its own (a variant per case, never a clause glued on), run together by
 * t.sentences.
 */
export function assumptionText(topic, a, t) {
  switch (topic) {
    case 'model':
      return t(a.routedParams > 0 ? 'mem.a.modelRouted' : 'mem.a.model',
        { label: labelText(a, t), params: grouped(a.params, t), routed: grouped(a.routedParams, t) });
    case 'recipe':
      return t.sentences(t('mem.a.recipe', {
        label: labelText(a, t), w: num(a.weightBytes, t), wf: a.weightFormat, g: num(a.gradientBytes, t), gf: a.gradientFormat,
        m: num(a.masterBytes, t), mf: a.masterFormat, o: num(a.optimizerBytes, t), of: a.optimizerFormat,
      }),
      // What we read into the source where it is silent: said per recipe in the page's language.
      a.reading ? t('mem.a.reading', { text: t(`mem.reading.${a.id}`) }) : '');
    case 'sharding':
      if (a.zero === 0) return t('mem.a.sharding0');
      return t(a.routed ? 'mem.a.shardingRouted' : 'mem.a.sharding', { zero: a.zero, what: t(`mem.shards.${a.zero}`), dp: a.dp, expertDp: a.expertDp });
    case 'layout':
      return t.sentences(
        t(a.policy === 'gpus' ? 'mem.a.layoutFromGpus' : 'mem.a.layout', { tp: a.tp, pp: a.pp, dp: a.dp, gpus: grouped(a.gpus, t) }),
        a.ep > 1 ? t('mem.a.layoutEp', { ep: a.ep, expertDp: a.expertDp }) : '',
        a.sequenceParallel ? t('mem.a.layoutSp') : '');
    case 'copies':
      return t('mem.a.copies', { title: a.title, stages: a.stages, perRank: a.stagesPerRank, copies: num(a.paramCopies, t) });
    case 'activations':
      return t.sentences(t('mem.a.activations', {
        recompute: t(`mem.recompute.${a.recompute}`), formula: a.formula, s: a.seqLength, b: a.microBatchSize,
        layers: num(a.layersPerUnit, t), peak: num(a.peakUnits, t), schedule: a.schedule, pp: a.pp, m: a.microbatches,
      }), a.sequenceParallel ? t('mem.a.activationsSp') : '');
    default:
      return a.text;
  }
}

/**
 * A definition list of `assumptions` (a memory result's, or params' shared ones), the topics in
 * `topics` only, each with its source: <dl class="dpl-assumptions">.
 */
export function assumptionsList(assumptions, t, topics = MEMORY_TOPICS) {
  const items = [];
  for (const topic of topics) {
    const a = assumptions?.[topic];
    if (!a) continue;
    const text = assumptionText(topic, a, t);
    items.push(
      h('dt', { text: t(`mem.topic.${topic}`) }),
      // Each line its sentences, then its source.
      h('dd', {}, [h('span', { text }), sentenceGap(t), h('span', { class: 'dpl-assumption-source', text: t('mem.source', { source: sourceText(a, t) }) })]),
    );
  }
  return h('dl', { class: 'dpl-assumptions' }, items);
}
