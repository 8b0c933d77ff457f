// What a schedule asks of the ranks and micro-batch fields, in the page's language, from the
// shape rules core publishes as data (catalogue schedules[].shape and .layout): a schedule added
// in core gets its hint with no string of its own. DOM-free.
import { scheduleInfo, scheduleTitle } from './schedules.js';

/**
 * Model chunks per rank of a schedule that takes them (catalogue `chunks`): the config's when it
 * is a whole number in the entry's range, else the entry's default (core then says what is wrong
 * with the value beside its field).
 */
export function chunksOf(info, chunks) {
  const range = info.chunks;
  return Number.isInteger(chunks) && chunks >= range.min && chunks <= range.max ? chunks : range.default;
}

/** The rules of one schedule as words: {ranks, microbatches}, at the config's `chunks`. */
export function shapeRules(info, t, chunks = null) {
  const { shape, layout } = info;
  const ranks = [t(shape.evenRanks ? 'shape.ranks.even' : 'shape.ranks.min', { min: shape.minRanks })];
  // Stages per rank beyond one pipeline stage per rank (DualPipeV: 2R stages on R ranks). With
  // chunks the layout's stagesPerRank is only the default: the config's chunks take its place.
  const stagesPerRank = (info.chunks ? chunksOf(info, chunks) : layout.stagesPerRank) / layout.directions;
  if (stagesPerRank !== 1) ranks.push(t('shape.stages', { k: stagesPerRank }));
  const microbatches = [];
  if (shape.evenMicrobatches) microbatches.push(t('shape.mb.even'));
  microbatches.push(shape.minMicrobatchesPerRank > 0 ? t('shape.mb.perRank', { k: shape.minMicrobatchesPerRank }) : t('shape.mb.min'));
  if (shape.microbatchesMultipleOfRanks) microbatches.push(t('shape.mb.multiple'));
  // Every rule holds: a list as the language writes one ("even and ≥ 2", "偶数和≥ 2").
  return { ranks: t.list(ranks), microbatches: t.list(microbatches) };
}

/**
 * The hint for `field` ('ranks' or 'microbatches') when `names` (the schedule and the compared
 * one) run with `chunks`: "Needs: even, ≥ 2" for one schedule, one line per schedule when two
 * differ. Names core does not know are left out (core's message says which names exist).
 */
export function shapeHint(names, field, t, chunks = null) {
  const infos = [...new Set(names.filter(Boolean))].map(scheduleInfo).filter(Boolean);
  const lines = infos.map((info) => ({ name: info.name, rules: shapeRules(info, t, chunks)[field] }));
  if (!lines.length) return '';
  if (new Set(lines.map((l) => l.rules)).size === 1) return t('shape.needs', { rules: lines[0].rules });
  return lines.map((l) => t('shape.line', { schedule: scheduleTitle(l.name, t), rules: l.rules })).join('\n');
}
