// The schedules the simulator offers, read from core's catalogue (web/generated/catalogue.js,
// written by `make site` from `pipesim catalogue`), so a schedule added in core appears in every
// selector, sweep and legend without a change here. Their order is the catalogue's: it decides
// the order of options and legends and each schedule's colour, marker and dash. DOM-free.
import CATALOGUE from '../../generated/catalogue.js';

/** [{name, title, source, constraints, shape, layout, chunks, reference}], in the catalogue's order. */
export const SCHEDULES = CATALOGUE.schedules;

/** The schedule ids, in the catalogue's order. */
export const SCHEDULE_NAMES = Object.freeze(SCHEDULES.map((s) => s.name));

/** The catalogue entry of `name`, or null for a name core does not know. */
export function scheduleInfo(name) {
  return SCHEDULES.find((s) => s.name === name) || null;
}

/**
 * The name a learner reads for schedule `name`: the page's own string (`sched.<name>` in i18n)
 * when there is one, else core's title, else the id as written (an unknown name from the URL).
 */
export function scheduleTitle(name, t) {
  const key = `sched.${name}`;
  const text = t ? t(key) : key;
  if (text !== key) return text;
  return scheduleInfo(name)?.title ?? String(name);
}

/** The position of `name` in the catalogue (its colour, marker and dash), or -1. */
export function scheduleIndex(name) {
  return SCHEDULE_NAMES.indexOf(name);
}

/**
 * A timeline lane's title: "DualPipe · 8 ranks · 20 micro-batches", counted in the language's
 * plurals; without the shape ({shape: false}: "DualPipe") where the controls beside the chart
 * already say it (a lesson widget's), so it is said once. Then what runs it differently: a timing
 * other than the default, Megatron's combined 1F1B (a2aOverlap, delayWgrad).
 */
export function laneTitle(config, t, { shape = true } = {}) {
  const count = (key, n) => (typeof n === 'number' ? t.plural(key, n) : String(n));
  const title = shape
    ? t('lane.title', { schedule: scheduleTitle(config.schedule, t), ranks: count('lane.ranks', config.ranks), mb: count('lane.mb', config.microbatches) })
    : scheduleTitle(config.schedule, t);
  const notes = [];
  if (config.timing && config.timing !== CATALOGUE.timing.default) notes.push(t(`timing.lane.${config.timing}`));
  if (config.a2aOverlap) notes.push(t(config.delayWgrad ? 'a2a.lane.delayWgrad' : 'a2a.lane'));
  return [title, ...notes].join(' · ');
}

/**
 * The first of `names` whose catalogue entry takes a2aOverlap (Megatron-Core's combined 1F1B), or
 * null: the form offers the setting only then.
 */
export function overlappableSchedule(names) {
  return names.map(scheduleInfo).find((info) => info?.a2aOverlap) || null;
}

/**
 * The first of `names` whose catalogue entry runs under more than one timing (its `timings`), or
 * null: the form offers the timing control only then.
 */
export function timedSchedule(names) {
  return names.map(scheduleInfo).find((info) => info?.timings?.length > 1) || null;
}

/**
 * The first of `names` whose catalogue entry takes chunks (its `chunks`: range and default), or
 * null: whose range the form offers and whose default it shows when the state has none.
 */
export function chunkedSchedule(names) {
  return names.map(scheduleInfo).find((info) => info?.chunks) || null;
}
