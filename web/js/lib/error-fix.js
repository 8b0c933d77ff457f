// What a learner reads when the simulator rejects a setting, and the one click that repairs it:
// from a SimError's rule id and params (never its English text), a sentence in plain words
// ("DualPipe needs an even number of ranks") and a fix ({field, value, patch}: "use 8") that
// passes every shape rule core publishes (catalogue schedules[].shape), so pressing it never
// lands on the next error. Rules without a plain sentence fall back to error-text.js; rules
// without a safe repair get no fix. DOM-free (tested under Node).
import CATALOGUE from '../../generated/catalogue.js';
import { errorText } from './error-text.js';
import { scheduleInfo, scheduleTitle } from './schedules.js';
import { formatNumber } from './format.js';

const LIMITS = CATALOGUE.limits;

/** The first shape rule (ranks, microbatches) of `info` that the pair breaks, as core orders them; or null. */
export function shapeBreak(info, ranks, microbatches) {
  const { shape } = info;
  if (ranks < shape.minRanks || ranks > LIMITS.maxRanks) return 'ranks';
  if (shape.evenRanks && ranks % 2) return 'ranks';
  if (microbatches < 1 || microbatches > LIMITS.maxMicrobatches) return 'microbatches';
  if (shape.evenMicrobatches && microbatches % 2) return 'microbatches';
  if (microbatches < shape.minMicrobatchesPerRank * ranks) return 'microbatches';
  if (shape.microbatchesMultipleOfRanks && microbatches % ranks) return 'microbatches';
  return null;
}

/** About how many ops a run makes (catalogue layout: microbatches x stages x opsPerChunk), as core's cap counts. */
function estimateOps(info, ranks, microbatches) {
  const { layout } = info;
  return microbatches * ((ranks * layout.stagesPerRank) / layout.directions) * layout.opsPerChunk;
}

/**
 * The whole number nearest `from` (ties upward) in [lo, hi] that `ok` accepts, searching outward;
 * null when none does.
 */
function nearest(from, lo, hi, ok) {
  const start = Math.min(hi, Math.max(lo, Math.round(from)));
  for (let d = 0; start + d <= hi || start - d >= lo; d += 1) {
    if (start + d <= hi && ok(start + d)) return start + d;
    if (d && start - d >= lo && ok(start - d)) return start - d;
  }
  return null;
}

const asNumber = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN);

/** A ranks value near `wanted` that runs with `microbatches` (or, failing that, passes the ranks rules alone). */
function fixRanks(info, wanted, microbatches) {
  const from = Number.isNaN(wanted) ? info.shape.minRanks : wanted;
  const fits = (r) => estimateOps(info, r, microbatches) <= LIMITS.maxOps;
  return nearest(from, 1, LIMITS.maxRanks, (r) => shapeBreak(info, r, microbatches) === null && fits(r))
    ?? nearest(from, 1, LIMITS.maxRanks, (r) => shapeBreak(info, r, 1) !== 'ranks');
}

/** A micro-batch count near `wanted` that runs on `ranks` within the op cap; null when none does. */
function fixMicrobatches(info, ranks, wanted) {
  if (shapeBreak(info, ranks, 1) === 'ranks') return null; // no count runs on these ranks
  const cap = Math.min(LIMITS.maxMicrobatches, Math.floor(LIMITS.maxOps / Math.max(1, estimateOps(info, ranks, 1))));
  const from = Number.isNaN(wanted) ? info.shape.minMicrobatchesPerRank * ranks : wanted;
  return nearest(from, 1, cap, (m) => shapeBreak(info, ranks, m) === null);
}

/** The value a cost field takes back: core's default for it (catalogue costs, comm). */
function defaultCost(field) {
  const [group, name, sub] = field.split('.');
  if (group !== 'costs') return null;
  if (name === 'comm') return CATALOGUE.comm[sub] ?? null;
  return CATALOGUE.costs[name] ?? null;
}

/** `config` with the dotted `field` set to `value`, as a patch of the top-level keys it changes. */
function patchFor(config, field, value) {
  const [first, ...rest] = field.split('.');
  if (!rest.length) return { [first]: value };
  const merge = (node, keys) => (keys.length === 1
    ? { ...node, [keys[0]]: value }
    : { ...node, [keys[0]]: merge(node?.[keys[0]] ?? {}, keys.slice(1)) });
  return { [first]: merge(config[first] ?? {}, rest) };
}

// The rules that blame a whole number of ranks or micro-batches, and those that blame a cost.
const COUNT_RULES = new Set(['ranks.even', 'ranks.min', 'microbatches.even', 'microbatches.min_multiple_of_ranks',
  'microbatches.multiple_of_ranks', 'range.integer', 'range.integers', 'field.integer', 'field.integer32', 'field.number', 'config.too_large']);

/**
 * The repair for `error` (a SimError: rule, params, path) of `config` ({schedule, ranks,
 * microbatches, costs}): {field: 'ranks' | 'microbatches' | 'costs.forward' ..., value, patch},
 * where patch holds the config's top-level keys to set; or null when no single value is safe.
 */
export function fixFor(error, config) {
  if (!error || typeof error !== 'object' || !error.rule || !config) return null;
  const params = error.params || {};
  const field = params.field ?? (error.path || '').replace(/^\//, '').replaceAll('/', '.');
  const info = scheduleInfo(config.schedule);
  const got = asNumber(params.got);
  let value = null;
  let target = field;
  if (error.rule === 'config.too_large') {
    target = 'microbatches';
    value = info && fixMicrobatches(info, config.ranks, Math.min(asNumber(config.microbatches), LIMITS.maxMicrobatches));
  } else if (COUNT_RULES.has(error.rule) && (field === 'ranks' || field === 'microbatches')) {
    if (!info) return null;
    const ranks = asNumber(config.ranks);
    const microbatches = asNumber(config.microbatches);
    value = field === 'ranks'
      ? fixRanks(info, Number.isNaN(got) ? ranks : got, Number.isNaN(microbatches) ? Number.MAX_SAFE_INTEGER : microbatches)
      : Number.isInteger(ranks) ? fixMicrobatches(info, ranks, Number.isNaN(got) ? microbatches : got) : null;
  } else if (field.startsWith('costs.')) {
    if (error.rule === 'range.at_most' || error.rule === 'range.positive_at_most') value = asNumber(params.max);
    else if (error.rule === 'range.resolution') value = asNumber(params.min);
    else if (error.rule === 'field.at_most_field') value = asNumber(params.value);
    else if (error.rule === 'range.number' && !Number.isNaN(got)) value = Math.min(asNumber(params.max), Math.max(asNumber(params.min), got));
    else if (error.rule === 'range.integer' && !Number.isNaN(got)) value = Math.min(asNumber(params.max), Math.max(asNumber(params.min), Math.round(got)));
    else if (['range.positive', 'range.non_negative', 'field.number', 'field.finite'].includes(error.rule)) value = defaultCost(field);
  } else if (error.rule === 'a2a_overlap.chunks' && field === 'chunks' && info?.chunks) {
    value = Math.max(2, info.chunks.min); // core: the overlap on more than one rank needs 2 or more
  } else if (error.rule === 'schedule.unknown' && field === 'schedule') {
    return null; // no guess at which schedule was meant: the message lists them
  }
  if (value === null || value === undefined || Number.isNaN(value)) return null;
  return { field: target, value, patch: patchFor(config, target, value) };
}

/** A field's name in plain words (`pf.<field>` in i18n), or the dotted name when the page has none. */
export function fieldName(field, t) {
  const key = `pf.${field}`;
  const text = t(key);
  return text === key ? field : text;
}

/** The params of `error` as a sentence shows them: numbers short (in the page's decimal sign), schedules by title, fields by name. */
function plainParams(params, t) {
  const out = {};
  for (const [name, value] of Object.entries(params || {})) {
    if (typeof value === 'number') out[name] = formatNumber(value, 6, t.lang);
    else if (name === 'schedule') out[name] = scheduleTitle(String(value), t);
    else if (name === 'field' || name === 'target') out[name] = fieldName(String(value), t);
    else out[name] = String(value);
  }
  // "at least 2 micro-batches per rank: 16 for 8 ranks" needs the ranks the minimum came from.
  if (typeof params?.min === 'number' && typeof params?.k === 'number' && params.k > 0) out.ranks ??= formatNumber(params.min / params.k, 3, t.lang);
  return out;
}

/**
 * What to show for `error`: {text, fix, fixLabel}. text is the plain sentence (`plain.<rule>` in
 * i18n) or core's message in the page's language; fix as fixFor; fixLabel "use 8" / "use F = 1".
 */
export function explainError(error, config, t) {
  if (!error) return { text: '', fix: null, fixLabel: '' };
  const key = error.rule ? `plain.${error.rule}` : '';
  const plain = key ? t(key, plainParams(error.params, t)) : key;
  const text = key && plain !== key ? plain : errorText(error, t.lang);
  const fix = fixFor(error, config);
  const fixLabel = fix ? t('fix.use', { value: formatNumber(fix.value, 6, t.lang), field: fieldName(fix.field, t) }) : '';
  return { text, fix, fixLabel };
}
