// Per-stage costs (core's stageCosts: one {forward, backward, weight, overlapped} per pipeline
// stage) as the address holds them, in the CLI's --stage-costs form: stages separated by commas,
// each F/B/W/F&B, an empty or missing field taking the costs' value, and xN repeating a stage N
// times ("0.75/1.5/0.75/2.25,1/2/1/3x14,1.5/3/1.5/4.5"). Values are passed through as written
// where they are not numbers, so core's message names the field (stageCosts.3.forward). Also the
// stage count a config's stageCosts must match, from the catalogue's layout. DOM-free.
import CATALOGUE from '../../generated/catalogue.js';

/** The four fields of a stage, in the text's order. */
export const STAGE_FIELDS = Object.freeze(['forward', 'backward', 'weight', 'overlapped']);

const numberOrRaw = (text) => (text !== '' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? Number(text) : text);

/**
 * The stages of `text`: objects holding the fields given. A repeat that would pass the
 * catalogue's maxStages stops one stage beyond it, so core refuses the list (stage_costs.size)
 * without the page building a huge one.
 */
export function parseStageCosts(text) {
  const stages = [];
  const limit = CATALOGUE.limits.maxStages + 1;
  for (const part of String(text).split(',')) {
    const repeat = /x(\d+)$/.exec(part.trim());
    const body = repeat ? part.trim().slice(0, repeat.index) : part.trim();
    const stage = {};
    body.split('/').forEach((field, i) => {
      if (i < STAGE_FIELDS.length && field.trim() !== '') stage[STAGE_FIELDS[i]] = numberOrRaw(field.trim());
    });
    for (let n = repeat ? Number(repeat[1]) : 1; n > 0 && stages.length < limit; n -= 1) stages.push({ ...stage });
  }
  return stages;
}

/** `stages` as text; runs of equal stages are written once with xN. */
export function formatStageCosts(stages) {
  const entry = (stage) => {
    const fields = STAGE_FIELDS.map((f) => (stage?.[f] === undefined ? '' : String(stage[f])));
    while (fields.length && fields[fields.length - 1] === '') fields.pop();
    return fields.join('/');
  };
  const out = [];
  for (let i = 0; i < stages.length;) {
    let j = i + 1;
    while (j < stages.length && entry(stages[j]) === entry(stages[i])) j += 1;
    out.push(j - i > 1 ? `${entry(stages[i])}x${j - i}` : entry(stages[i]));
    i = j;
  }
  return out.join(',');
}

/**
 * The pipeline stages per direction of `config` ({schedule, ranks, chunks}): what its stageCosts
 * must count (catalogue layout: ranks x chunks / directions, chunks being the config's, the
 * entry's default, or its fixed stages per rank); null when the schedule or ranks are not valid.
 */
export function stageCount(config) {
  const info = CATALOGUE.schedules.find((s) => s.name === config.schedule);
  if (!info || !Number.isInteger(config.ranks) || config.ranks < 1) return null;
  const chunks = info.chunks ? (config.chunks || info.chunks.default) : info.layout.stagesPerRank;
  return (config.ranks * chunks) / info.layout.directions;
}
