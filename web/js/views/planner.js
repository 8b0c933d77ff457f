// Planner: a form for the planner spec (docs/schema.md "Planner"), three presets, and the plan
// pipesim.plan returns, drawn beside the form as structured HTML. A reject or refusal is shown
// first, headed in words (a sensible "data parallelism only" as a recommendation, not an error);
// a SimError is shown under the field its path names, in plain words with the preset's value
// one click away, while the last good plan stays on screen, dimmed and marked out of date. Offers the plan as
// Markdown (pipesim.planMarkdown) for download. The spec lives in the address too, so a plan is
// shared by copying it: the preset it starts from (`plan=`) and every field changed from that
// preset, under the field's dotted name (`cluster.gpus=512`). Number fields show and read counts
// in plain words ("671.026 billion", "14.8 trillion"; the address keeps digits), never e-notation;
// text that is not a number goes to the simulator as written, so it gets its message beside the field.
// Core's prose (reasoning, reject and refusal, kernel advice, rollback trigger) comes with the
// phrase it was made from, which another language says with its own templates (lib/plan-text.js);
// the downloaded Markdown is core's, in English.
// mount(element, deps) -> { update(state), destroy() }
//   deps.sim.plan(spec) / deps.sim.planMarkdown(spec) -> Promise   deps.t
//   deps.onChange?({plan})   the plan's URL text after each change (state.js serialises it)
// state: { lang, plan: {plan?: presetId, 'cluster.gpus'?: text, ...} }
import { parseAnswer, usesDecimalComma } from '../lib/answer-parse.js';
import { countWords, scaleWords } from '../lib/plain-number.js';
import { h, clear, uniqueId, errorBox } from '../ui/dom.js';
import { showFieldError } from '../ui/field-error.js';
import { setStale } from '../ui/stale.js';
import { explainError } from '../lib/error-fix.js';
import { formatPercent, formatFixedIn, formatCount, formatNumber } from '../lib/format.js';
import { DEFAULT_COSTS, quoteValue } from '../state.js';
import { localizedError } from '../lib/error-text.js';
import { planText as phraseText } from '../lib/plan-text.js';
import { SCHEDULE_NAMES, scheduleTitle, scheduleInfo } from '../lib/schedules.js';
import { PLANNER_PRESETS, presetSpec, PLAN_FIELDS as FIELDS, PLAN_URL_KEYS, planKey as key } from '../lib/planner-presets.js';
import { assumptionsList, labelText } from '../ui/memory-assumptions.js';
import CATALOGUE from '../../generated/catalogue.js';

const TYPING_DELAY_MS = 350;
const DEFAULT_PRESET = PLANNER_PRESETS[0].id;
const TRUE_TEXT = ['true', '1'];
const FALSE_TEXT = ['false', '0'];

/** A plan's URL text in a fixed order, to tell whether two plan states differ. */
const planText = (plan) => PLAN_URL_KEYS.filter((k) => typeof plan?.[k] === 'string').map((k) => `${k}=${plan[k]}`).join('&');

// Fields chosen from a list ("" leaves the choice to the planner): the requested schedule from
// core's catalogue, and the memory model's precision recipe and ZeRO stage (catalogue().memory).
const CHOICES = {
  schedule: { values: SCHEDULE_NAMES, label: (v, t) => scheduleTitle(v, t), none: 'plan.requested.choose' },
  recipe: { values: CATALOGUE.memory.recipes.map((r) => r.id), label: (v, t) => labelText(CATALOGUE.memory.recipes.find((r) => r.id === v), t), none: 'plan.training.default' },
  zero: { values: CATALOGUE.memory.zeroStages.map(String), label: (v) => `ZeRO-${v}`, none: 'plan.training.default' },
};
const MOE_ONLY = new Set(['/model/activeParams', '/model/routedParams', '/model/experts', '/model/expertParallel']);
const REQUESTED_SCHEDULE = '/requested/schedule';
const REQUESTED_CHUNKS = '/requested/chunks';
/** The form's field groups in order: a legend and the prefix of its fields' pointers ("/": the rest). */
const GROUPS = [['plan.cluster', '/cluster/'], ['plan.model', '/model/'], ['plan.training', '/'], ['plan.requested', '/requested/']];
// The memory model's accounting sits with the training fields (its pointers start with /training/).
/** The legend of `path`'s group: the one with the longest prefix it starts with. */
const groupOf = (path) => GROUPS.filter(([, prefix]) => path.startsWith(prefix)).sort((a, b) => b[1].length - a[1].length)[0][0];
// Outcomes that are advice, not failure: the planner recommends something simpler than a pipeline.
const RECOMMENDATIONS = new Set(['fits-one-gpu', 'under-1b-tokens']);

/**
 * A number as an input shows it: a count in words from a million up ("671.026 billion", in the
 * page's language), else as typed; never in e-notation (issue 29: inputs read "671.026e9").
 */
function numberText(n, t) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return n === undefined || n === null ? '' : String(n);
  return countWords(n, t, 15); // every digit: the form sends what it shows ("671.0264192 billion")
}

/**
 * An input's text as a number: plain digits, "671 billion", "671B", "14.8 trillion", "2,048",
 * Hindi scale words and the page's own (as countWords writes them; lib/answer-parse.js reads
 * them all); anything else is left as text, for the simulator to reject with its own message
 * beside the field. The address keeps the digits, the same in every language.
 */
function parseNumber(text, t) {
  const parsed = parseAnswer(text, 'params', { scales: scaleWords(t), decimalComma: usesDecimalComma(t.lang) });
  // 15 significant digits: "671.0264192 billion" is 671026419200, not its float product's ...0.00006.
  return parsed.ok ? Number(parsed.value.toPrecision(15)) : text.trim();
}

/** The address's text for a number field: its value in plain digits ("671026000000"), or the text as typed. */
const addressNumber = (text, t) => {
  const value = parseNumber(text, t);
  return typeof value === 'number' ? String(value) : value;
};

export function mount(element, deps) {
  const t = deps.t;
  const prefix = uniqueId('dpl-plan');
  const controls = {};
  const messages = {};
  const wraps = {};

  const field = (path, kind) => {
    const id = `${prefix}-${key(path).replace('.', '-')}`;
    let control;
    if (kind === 'type') {
      control = h('select', {}, ['dense', 'moe'].map((v) => h('option', { value: v, text: t(`plan.type.${v}`) })));
    } else if (kind in CHOICES) {
      // core's catalogue, in its order; "" leaves the choice to the planner's rules
      const choice = CHOICES[kind];
      control = h('select', {}, [
        h('option', { value: '', text: t(choice.none) }),
        ...choice.values.map((v) => h('option', { value: v, text: choice.label(v, t) })),
      ]);
    } else if (kind === 'check') {
      control = h('input', { type: 'checkbox' });
    } else {
      control = h('input', { type: 'text', inputmode: kind === 'number' ? 'decimal' : 'text', autocomplete: 'off', spellcheck: 'false' });
    }
    control.id = id;
    control.name = key(path);
    control.dataset.path = path;
    const msg = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite', dataset: { path } });
    control.setAttribute('aria-describedby', `${id}-msg`);
    const label = h('label', { for: id, text: t(`plan.f.${key(path)}`) });
    const wrap = kind === 'check'
      ? h('div', { class: 'dpl-field dpl-field-check' }, [h('div', { class: 'dpl-check' }, [control, label]), msg])
      : h('div', { class: 'dpl-field' }, [label, control, msg]);
    controls[path] = control;
    messages[path] = msg;
    wraps[path] = wrap;
    return wrap;
  };

  const presetId = `${prefix}-preset`;
  const preset = h('select', { id: presetId, name: 'preset', 'aria-describedby': `${presetId}-msg` }, [
    h('option', { value: '', text: t('plan.preset.custom') }),
    ...PLANNER_PRESETS.map((p) => h('option', { value: p.id, text: t(`plan.preset.${p.id}`) })),
  ]);
  const presetMsg = h('p', { class: 'dpl-field-msg', id: `${presetId}-msg`, 'aria-live': 'polite', dataset: { path: 'plan' } });
  const planButton = h('button', { type: 'submit', class: 'dpl-btn dpl-btn-primary' }, [t('plan.run')]);
  const mdLink = h('a', { class: 'dpl-btn dpl-link-btn', download: 'dualpipe-plan.md', href: '#', 'aria-disabled': 'true' }, [t('plan.download')]);
  const formError = h('div', { class: 'dpl-planner-formerror' });

  const group = (legend, paths) => h('fieldset', { class: 'dpl-planner-group' }, [
    h('legend', { text: t(legend) }),
    h('div', { class: 'dpl-planner-grid' }, paths.map((p) => field(p, FIELDS.find((f) => f[0] === p)[1]))),
  ]);
  const form = h('form', { class: 'dpl-planner-form', novalidate: true }, [
    h('div', { class: 'dpl-field dpl-field-preset' }, [h('label', { for: presetId, text: t('plan.preset') }), preset, presetMsg]),
    ...GROUPS.map(([legend]) => group(legend, FIELDS.filter(([p]) => groupOf(p) === legend).map(([p]) => p))),
    formError,
    h('div', { class: 'dpl-planner-actions' }, [planButton, mdLink]),
  ]);
  const output = h('section', { class: 'dpl-planner-output', 'aria-live': 'polite', 'aria-label': t('plan.output') });
  const root = h('div', { class: 'dpl dpl-planner' }, [form, output]);
  element.append(root);

  let title = '';
  let token = 0;
  let timer = 0;
  let mdUrl = '';
  let started = false;
  let base = DEFAULT_PRESET; // the preset the form started from: the address lists changes from it
  let badBase = ''; // an unknown preset from the address: kept there (and named) until one is picked
  let raw = {}; // path -> address text a select or checkbox cannot show ("hybrid"): sent as written
  let reported = ''; // planText of the plan state last applied or reported

  function fill(spec) {
    title = spec.title || '';
    for (const [path, kind] of FIELDS) {
      const [, group, name] = path.split('/');
      const value = name ? (spec[group] || {})[name] : spec[group];
      if (kind === 'check') controls[path].checked = Boolean(value);
      else if (kind === 'type') controls[path].value = value === 'moe' ? 'moe' : 'dense';
      else if (kind in CHOICES) controls[path].value = CHOICES[kind].values.includes(String(value)) ? String(value) : '';
      else controls[path].value = numberText(value, t);
    }
    applyType();
    applySchedule();
  }

  /**
   * Chunks are offered where the requested schedule takes them (its catalogue `chunks`), with its
   * default as the placeholder. A value that is there anyway (from the address) stays editable and
   * is sent, so the simulator's message about it appears beside it.
   */
  function applySchedule() {
    const chunks = controls[REQUESTED_CHUNKS];
    const info = scheduleInfo(REQUESTED_SCHEDULE in raw ? raw[REQUESTED_SCHEDULE] : controls[REQUESTED_SCHEDULE].value);
    chunks.placeholder = info?.chunks ? String(info.chunks.default) : '';
    chunks.disabled = !info?.chunks && chunks.value.trim() === '';
    wraps[REQUESTED_CHUNKS].classList.toggle('is-disabled', chunks.disabled);
  }

  function applyType() {
    const moe = controls['/model/type'].value === 'moe';
    for (const path of MOE_ONLY) {
      controls[path].disabled = !moe;
      wraps[path].classList.toggle('is-disabled', !moe);
    }
  }

  // ---- the plan in the address -------------------------------------------------------------------
  /** A field's value as address text: as typed, "moe", "true"; or the raw text it came with. */
  function fieldText(path, kind) {
    if (path in raw) return raw[path];
    const c = controls[path];
    if (kind === 'number') return addressNumber(c.value, t);
    return kind === 'check' ? String(c.checked) : c.value.trim();
  }

  /** The same for the base preset's value of a field. */
  function baseText(path, kind) {
    const [, group, name] = path.split('/');
    const spec = presetSpec(base);
    const value = name ? (spec[group] || {})[name] : spec[group];
    if (kind === 'check') return String(Boolean(value));
    if (kind === 'type') return value === 'moe' ? 'moe' : 'dense';
    if (kind in CHOICES) return value === undefined || value === null ? '' : String(value);
    return typeof value === 'number' ? String(value) : value === undefined || value === null ? '' : String(value);
  }

  /** {plan?, <field key>: text} for the fields that differ from the base preset. */
  function planState() {
    const plan = {};
    if (badBase || base !== DEFAULT_PRESET) plan.plan = badBase || base;
    for (const [path, kind] of FIELDS) {
      const text = fieldText(path, kind);
      if (text !== baseText(path, kind)) plan[key(path)] = text;
    }
    return plan;
  }

  /** Fills the form from a plan state (the address); an unknown preset is named beside the picker. */
  function applyPlan(plan) {
    const wanted = plan.plan ?? DEFAULT_PRESET;
    const known = PLANNER_PRESETS.some((p) => p.id === wanted);
    presetMsg.textContent = known ? '' : t('plan.badPreset', { list: t.list(PLANNER_PRESETS.map((p) => p.id), 'disjunction'), v: quoteValue(wanted) });
    if (known) preset.removeAttribute('aria-invalid');
    else preset.setAttribute('aria-invalid', 'true');
    base = known ? wanted : DEFAULT_PRESET;
    badBase = known ? '' : wanted;
    raw = {};
    fill(presetSpec(base));
    let changed = false;
    for (const [path, kind] of FIELDS) {
      const text = plan[key(path)];
      if (typeof text !== 'string') continue;
      changed = true;
      const c = controls[path];
      if (kind === 'type' && (text === 'dense' || text === 'moe')) c.value = text;
      else if (kind === 'check' && (TRUE_TEXT.includes(text) || FALSE_TEXT.includes(text))) c.checked = TRUE_TEXT.includes(text);
      else if (kind in CHOICES && (text === '' || CHOICES[kind].values.includes(text))) c.value = text;
      else if (kind === 'type' || kind === 'check' || kind in CHOICES) raw[path] = text; // the simulator names what is wrong with it
      else c.value = numberText(parseNumber(text, t), t);
    }
    preset.value = changed || !known ? '' : base;
    applyType();
    applySchedule();
  }

  /** The learner picked a schedule: chunks left from one that took them go with it. */
  function pickSchedule() {
    if (!scheduleInfo(controls[REQUESTED_SCHEDULE].value)?.chunks) {
      controls[REQUESTED_CHUNKS].value = '';
      delete raw[REQUESTED_CHUNKS];
    }
    applySchedule();
  }

  function readSpec() {
    const spec = { cluster: {}, model: {} };
    if (title) spec.title = title;
    const moe = controls['/model/type'].value === 'moe';
    for (const [path, kind] of FIELDS) {
      if (!moe && MOE_ONLY.has(path)) continue;
      const [, group, name] = path.split('/');
      const c = controls[path];
      const value = path in raw ? raw[path] : kind === 'check' ? c.checked : kind === 'number' || kind === 'zero' ? parseNumber(c.value, t) : c.value.trim();
      if (value === '') continue; // left out: the simulator names the missing field
      if (name) (spec[group] ??= {})[name] = value; // "requested" only when something is
      else spec[group] = value;
    }
    return spec;
  }

  // Field names in plain sentences: the planner's own labels.
  const tField = Object.assign((k, vars) => {
    const label = k.startsWith('pf.') ? `plan.f.${k.slice(3)}` : '';
    return label && t(label) !== label ? t(label) : t(k, vars);
  }, { lang: t.lang, plural: t.plural });

  /** The repair for an error at `path`: the base preset's value, when it differs from what is there. */
  function presetFix(path, error) {
    const kind = FIELDS.find((f) => f[0] === path)?.[1];
    if (!kind || kind === 'check' || kind === 'type' || kind in CHOICES) return null;
    const value = baseText(path, kind);
    if (value === '' || value === fieldText(path, kind)) return null;
    const info = explainError(error, null, tField);
    return { ...info, fix: { field: key(path), value, patch: { [path]: value } }, fixLabel: t('fix.use', { value }) };
  }

  function showErrors(error) {
    for (const path of Object.keys(messages)) showFieldError(messages[path], controls[path], null, { t });
    clear(formError);
    if (!error) return;
    const path = Object.keys(messages).find((p) => error.path === p || (error.path || '').startsWith(`${p}/`));
    if (path && !controls[path].disabled) {
      showFieldError(messages[path], controls[path], error, {
        t, explained: presetFix(path, error) ?? explainError(error, null, tField),
        onFix: (patch) => {
          for (const [p, value] of Object.entries(patch)) controls[p].value = value;
          preset.value = '';
          run();
          controls[path].focus();
        },
      });
    } else {
      formError.append(errorBox(localizedError(error, t.lang), t('plan.error')));
    }
  }

  /** A row of the plan's table; `value` a text, or a list of them said one per line. */
  const row = (label, value, cls) => h('tr', { class: cls || null }, [h('th', { scope: 'row', text: label }),
    Array.isArray(value) ? h('td', {}, value.map((text) => h('div', { text }))) : h('td', { text: value })]);
  const gb = (v) => `${formatFixedIn(v, 1, t.lang)} GB`;
  const hours = (v) => formatCount(v, t.lang);
  const pct = (v, decimals) => formatPercent(v, decimals, t.lang);
  const fixed1 = (v) => formatFixedIn(v, 1, t.lang);

  function verdict(kind, heading, message, extra) {
    // A recommendation is news, not an alarm: announced politely.
    return h('div', { class: `dpl-planner-verdict is-${kind}`, role: kind === 'recommend' ? 'status' : 'alert', dataset: { kind } }, [
      h('strong', { text: heading }),
      h('p', { text: message }),
      extra ? h('p', { class: 'dpl-planner-verdict-extra', text: extra }) : null,
    ]);
  }

  /** Core's English `text`, or in another language the phrase ({id, params}) it was made from. */
  const say = (phrase, text) => (t.lang === 'en' ? text : phraseText(phrase, t) ?? text);

  function render(plan) {
    // A preset's title is English in its spec file; another language names the preset its own way.
    const presetTitle = t.lang !== 'en' && plan.title && plan.title === presetSpec(base)?.title ? t(`plan.preset.${base}`) : '';
    const parts = [h('h2', { class: 'dpl-planner-title', text: presetTitle || plan.title || t('plan.untitled') })];
    const outcome = (rule, fallback) => (t(`plan.outcome.${rule}`) !== `plan.outcome.${rule}` ? t(`plan.outcome.${rule}`) : t(fallback));
    if (plan.reject) {
      const kind = RECOMMENDATIONS.has(plan.reject.rule) ? 'recommend' : 'reject';
      const { message, messagePhrase, recommend, recommendPhrase } = plan.reject;
      parts.push(verdict(kind, outcome(plan.reject.rule, 'plan.outcome.reject'), say(messagePhrase, message),
        recommend && kind === 'reject' ? t('plan.recommend', { what: say(recommendPhrase, recommend) }) : ''));
    }
    if (plan.refusal) {
      const kind = RECOMMENDATIONS.has(plan.refusal.rule) ? 'recommend' : 'refusal';
      const title = (name) => SCHEDULE_NAMES.includes(name) ? scheduleTitle(name, t) : name;
      parts.push(verdict(kind, outcome(plan.refusal.rule, 'plan.outcome.refusal'), say(plan.refusal.messagePhrase, plan.refusal.message),
        kind === 'refusal' && (plan.refusal.refused || plan.refusal.instead) ? t('plan.instead', { refused: title(plan.refusal.refused) || '—', instead: title(plan.refusal.instead) || '—' }) : ''));
    }
    if (plan.schedule) {
      const rows = [
        row(t('plan.r.schedule'), scheduleTitle(plan.schedule, t), 'is-key'),
        row(t('plan.r.rule'), t(`plan.why.${plan.rule}`) !== `plan.why.${plan.rule}` ? t(`plan.why.${plan.rule}`) : plan.rule),
        row(t('plan.r.ranks'), t('plan.v.ranks', { p: plan.ranks, s: plan.stages })),
        row(t('plan.r.microbatches'), t('plan.v.microbatches', { m: plan.microbatches, ratio: fixed1(plan.microbatches / plan.ranks) })),
        row(t('plan.r.bubble'), t('plan.v.bubble', { b: pct(plan.bubbleFraction, 2), b1: pct(plan.bubbleFraction1f1b, 2) }), 'is-key'),
        row(t('plan.r.saved'), t('plan.v.saved', { saved: hours(plan.gpuHoursSavedVs1f1b), total: hours(plan.gpuHours), source: t(`plan.source.${plan.gpuHoursSource}`) }), 'is-key'),
        row(t('plan.r.params'), t('plan.v.params', { n: countWords(plan.paramsPerGpu, t, 3), copies: t.plural('plan.copies', plan.paramCopies) })),
        row(t('plan.r.memory'), t('plan.v.memory', { used: gb(plan.memoryPerGpuGb), usable: gb(plan.usableMemoryGb) })),
        row(t('plan.r.fits'), plan.fits ? t('plan.yes') : t('plan.no'), plan.fits ? 'is-ok' : 'is-bad'),
      ];
      if (plan.chunks) rows.splice(3, 0, row(t('plan.r.chunks'), t('plan.v.chunks', { v: plan.chunks })));
      if (typeof plan.peakActivationMemory === 'number') {
        rows.push(row(t('plan.r.activations'), t('plan.v.activations', { a: fixed1(plan.peakActivationMemory), a1: fixed1(plan.peakActivationMemory1f1b) })));
      }
      // Schedules core found would beat this one at the same P and M (its decision table does
      // not pick them), with the activation memory they cost.
      if (plan.alternatives?.length) {
        // One whole line per schedule (its name, with V in symbols when it takes chunks).
        rows.push(row(t('plan.r.alternatives'), plan.alternatives.map((a) => {
          const schedule = a.chunks ? `${scheduleTitle(a.schedule, t)} (V = ${a.chunks})` : scheduleTitle(a.schedule, t);
          const a1 = fixed1(a.peakActivationMemory);
          return a.computeUtilization === null ? t('plan.v.alternativeBubble', { schedule, b: pct(a.bubbleFraction, 2), a: a1 })
            : t('plan.v.alternativeCompute', { schedule, u: pct(a.computeUtilization, 1), a: a1 });
        })));
      }
      if (plan.comm) {
        rows.push(row(t('plan.r.comm'), t('plan.v.comm', {
          u: pct(plan.comm.computeUtilization, 1), u1: pct(plan.comm.computeUtilization1f1b, 1),
          saved: hours(plan.comm.gpuHoursSavedVs1f1b), ratio: formatNumber(plan.comm.ratio, 6, t.lang),
        })));
      }
      parts.push(h('table', { class: 'dpl-table dpl-planner-table', dataset: { schedule: plan.schedule, ranks: plan.ranks } }, [
        // The planner simulates at core's default costs (docs/schema.md, plan).
        h('caption', { text: t('plan.tableCaption', { f: formatNumber(DEFAULT_COSTS.forward, 6, t.lang), b: formatNumber(DEFAULT_COSTS.backward, 6, t.lang), w: formatNumber(DEFAULT_COSTS.weight, 6, t.lang), fb: formatNumber(DEFAULT_COSTS.overlapped, 6, t.lang) }) }),
        h('tbody', {}, rows),
      ]));
      // What the memory numbers above assume, each with its source (core's memory model).
      if (plan.memoryAssumptions) {
        parts.push(h('p', { class: 'dpl-planner-assumptions', text: t('plan.memoryAssumptions') }),
          assumptionsList(plan.memoryAssumptions, t, ['recipe', 'sharding', 'layout', 'copies']));
      }
    }
    if (Array.isArray(plan.reasoning) && plan.reasoning.length) {
      parts.push(h('h3', { text: t('plan.reasoning') }), h('ol', { class: 'dpl-planner-reasoning' },
        plan.reasoning.map((r) => h('li', { dataset: { topic: r.topic } }, [
          h('span', { class: 'dpl-planner-topic', text: t(`plan.topic.${r.topic}`) !== `plan.topic.${r.topic}` ? t(`plan.topic.${r.topic}`) : r.topic }), ' ', say(r, r.text)]))));
    }
    parts.push(h('h3', { text: t('plan.kernel') }), h('p', { class: 'dpl-planner-kernel', text: say(plan.allToAllPhrase, plan.allToAll) }));
    if (plan.rollback) parts.push(h('h3', { text: t('plan.rollback') }), h('p', { class: 'dpl-planner-rollback', text: say(plan.rollback.textPhrase, plan.rollback.text) }));
    clear(output).append(...parts);
    output.dataset.schedule = plan.schedule || '';
    output.dataset.state = plan.reject ? 'reject' : plan.refusal ? 'refusal' : 'plan';
  }

  function setMarkdown(text) {
    if (mdUrl) URL.revokeObjectURL(mdUrl);
    mdUrl = text === null ? '' : URL.createObjectURL(new Blob([text], { type: 'text/markdown' }));
    mdLink.href = mdUrl || '#';
    if (mdUrl) mdLink.removeAttribute('aria-disabled');
    else mdLink.setAttribute('aria-disabled', 'true');
  }

  async function run() {
    clearTimeout(timer);
    const mine = ++token;
    const spec = readSpec();
    const plan = planState();
    if (planText(plan) !== reported) {
      reported = planText(plan);
      deps.onChange?.({ plan });
    }
    root.classList.add('is-loading');
    try {
      const [plan, md] = await Promise.all([deps.sim.plan(spec), deps.sim.planMarkdown(spec)]);
      if (mine !== token) return;
      showErrors(null);
      setStale(output, null, t);
      render(plan);
      setMarkdown(md);
    } catch (error) {
      if (mine !== token) return;
      showErrors(error);
      setMarkdown(null);
      // The last good plan stays, marked out of date; with none yet, the field's message is all.
      if (output.dataset.state && output.dataset.state !== 'error' && output.dataset.state !== 'stale') setStale(output, t('stale.plan'), t);
      output.dataset.state = output.classList.contains('dpl-is-stale') ? 'stale' : 'error';
    } finally {
      if (mine === token) root.classList.remove('is-loading');
    }
  }

  preset.addEventListener('change', () => {
    const spec = presetSpec(preset.value);
    if (!spec) return;
    base = preset.value;
    badBase = '';
    raw = {};
    presetMsg.textContent = '';
    preset.removeAttribute('aria-invalid');
    fill(spec);
    run();
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run();
  });
  form.addEventListener('input', (e) => {
    if (e.target === preset) return;
    delete raw[e.target.dataset.path]; // the learner's own choice replaces the address's text
    if (e.target === controls['/model/type']) applyType();
    if (e.target === controls[REQUESTED_SCHEDULE]) pickSchedule();
    preset.value = '';
    clearTimeout(timer);
    timer = setTimeout(run, TYPING_DELAY_MS);
  });
  form.addEventListener('change', (e) => {
    if (e.target === preset) return;
    delete raw[e.target.dataset.path];
    if (e.target === controls[REQUESTED_SCHEDULE]) pickSchedule();
    run();
  });
  mdLink.addEventListener('click', (e) => {
    if (!mdUrl) e.preventDefault();
  });

  preset.value = DEFAULT_PRESET;
  fill(presetSpec(DEFAULT_PRESET));

  return {
    update(state = {}) {
      const text = planText(state.plan || {});
      if (text === reported && started) return;
      if (text !== reported || !started) applyPlan(state.plan || {});
      reported = text;
      started = true;
      run();
    },
    destroy() {
      token += 1;
      clearTimeout(timer);
      if (mdUrl) URL.revokeObjectURL(mdUrl);
      root.remove();
    },
  };
}
