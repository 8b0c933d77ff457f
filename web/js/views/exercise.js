// One lesson exercise, made interactive from its definition (lessons/exercises/<id>.json): the
// prompt, the inputs the definition lets the learner change, the exercise's own interactive part
// (overlap pair, parameter calculator, DualPipe-vs-Chimera chart), the answer
// fields, checking (right, too high, too low: never a figure the answer could be worked out from),
// retry, the hint after the second try, and the worked solution whenever the learner opens it.
// Every expected value is computed by the simulator (runs and calculators through deps.sim); this
// view only reads and compares.
// mount(element, deps) -> { update(state), destroy() }
//   deps.t  deps.lang  deps.sim (simulate, sweep, recover, params, traceGrid, overlapPair)
//   deps.definition  deps.number (1-based)  deps.saved (progress record of this exercise, or null)
//   deps.onResult({correct, answers, inputs})  after each check the learner makes
//   deps.mountRun(el, config, {streams?, link?}) -> {update(config), destroy()}   a timeline of one
//     simulation (wired by app.js); a run with costs.comm is shown at once, its streams expanded
//   deps.schedules  names the simulator offers (chimera may be absent)
//   deps.reducedMotion() -> boolean
//   deps.figures?: [number]  the lesson's figures that draw one of its runs (linked under the prompt)
//   deps.tables?: [{id, title}]  the lesson's tables it uses (element id, its section's title), linked too
// A definition's `recall` ({trace: calculator id, slots}) shows the trace the lesson worked, again,
// beside the question (from the calculator's grid, its first `slots` slots).
// state: {} (language changes remount the lesson)
import { h, uniqueId } from '../ui/dom.js';
import { buildRequests, defaultInputs, runRequests, expectedAnswer, answerKind } from '../lib/exercise-model.js';
import { numberField, choiceField, formatQuantity, toleranceText, sig } from '../ui/exercise-fields.js';
import { unitKind } from '../lib/answer-parse.js';
import { createPairView, hidingText } from '../ui/pair-view.js';
import { createParamsCalculator } from '../ui/params-calculator.js';
import { createGrowthChart } from '../ui/growth-chart.js';
import { createRecoveryByM } from '../ui/recovery-by-m.js';
import { scheduleTitle } from '../lib/schedules.js';
import { errorText } from '../lib/error-text.js';
import { showFieldError, withFieldNames } from '../ui/field-error.js';
import { labelCells } from '../ui/table-labels.js';
import { createTraceGrid } from '../ui/trace-grid.js';
import { traceFromGrid } from '../lib/trace-text.js';

const COSTS = ['forward', 'backward', 'weight', 'overlapped'];
/** Tries before the hint shows. */
const HINT_AFTER = 2;
const TYPING_DELAY_MS = 350;

export function mount(element, deps) {
  const { t, lang, definition: def } = deps;
  const prefix = uniqueId('dpl-ex');
  const calculators = Object.values(def.config?.calculators || {});
  const editableCosts = calculators.some((c) => c.calculator === 'recover');
  let inputs = { ...defaultInputs(def), ...(deps.saved?.inputs?.values || {}) };
  let costs = deps.saved?.inputs?.costs || (editableCosts ? { ...calculators.find((c) => c.calculator === 'recover').input.costs } : null);
  let computed = null;
  let attempted = Boolean(deps.saved?.attempts);
  let token = 0;
  let timer = 0;
  const cleanups = [];
  const runViews = [];

  // ---- frame ----------------------------------------------------------------------------------
  const headingId = `${prefix}-h`;
  const status = h('span', { class: 'dpl-ex-status', dataset: { state: 'new' } });
  const heading = h('h3', { id: headingId, class: 'dpl-ex-title', tabindex: -1 }, [
    h('span', { class: 'dpl-ex-number', text: t('ex.number', { n: deps.number }) }), ' ', (def.title ?? ''),
    // Off the lesson's core path: completing the lesson does not need it (lesson-activities.js).
    def.optional ? h('span', { class: 'dpl-ex-tag', text: t('ex.optional') }) : null,
  ]);
  const permalink = h('a', { class: 'dpl-ex-link', href: `#exercise=${def.id}`, text: t('ex.link'), 'aria-label': t('ex.linkLabel', { n: deps.number }) });
  // The link keeps the rest of the page's state (language, costs): built when it is followed.
  permalink.addEventListener('click', () => { if (deps.linkFor) permalink.href = deps.linkFor(def.id); });
  const root = h('section', { class: 'dpl dpl-exercise', id: `exercise-${def.id}`, 'aria-labelledby': headingId, dataset: { exercise: def.id } }, [
    h('header', { class: 'dpl-ex-head' }, [heading, status, permalink]),
    h('p', { class: 'dpl-ex-prompt', text: (def.prompt ?? '') }),
  ]);
  element.append(root);
  // The figures it uses, linked back (the lesson reader scrolls to a .fig-ref's figure).
  if (deps.figures?.length) {
    root.append(h('p', { class: 'dpl-ex-figures' }, [t('ex.figures'), ' ', ...deps.figures.flatMap((n, i) => [
      i ? ', ' : '', h('a', { class: 'fig-ref', href: `#figure-${n}`, dataset: { figure: n }, text: t('lesson.figureRef', { n }) }),
    ])]));
  }
  // The lesson's tables it uses (a memory table counting its models), linked back by their section.
  if (deps.tables?.length) {
    root.append(h('p', { class: 'dpl-ex-tables' }, [t('ex.tables'), ' ', ...deps.tables.flatMap((table, i) => {
      const link = h('a', { class: 'dpl-ex-table-ref', href: `#${table.id}`, text: t('ex.tableRef', { title: table.title }) });
      // Scrolls to the table and focuses it; the address, which holds the page's state, stays.
      link.addEventListener('click', (event) => {
        const target = document.getElementById(table.id);
        if (!target) return;
        event.preventDefault();
        target.scrollIntoView({ block: 'start', behavior: deps.reducedMotion?.() ? 'auto' : 'smooth' });
        target.focus({ preventScroll: true });
      });
      return [i ? ', ' : '', link];
    })]));
  }
  // The trace the lesson worked, shown again beside the question (drawn once the grid is computed).
  const recall = def.recall?.trace ? h('div', { class: 'dpl-ex-recall' }, [h('p', { class: 'dpl-ex-recall-caption', text: t('ex.recall', { last: def.recall.slots - 1 }) })]) : null;
  let recallGrid = null;
  if (recall) root.append(recall);

  // ---- editable inputs (definition's config.inputs; costs for the recover calculator) ----------
  const inputFields = {}; // name -> {input, message}
  const costFields = {};
  const inputBox = h('fieldset', { class: 'dpl-ex-inputs', hidden: true }, [h('legend', { text: t('ex.inputs') })]);
  const numberInput = (id, label, value, hint) => {
    const input = h('input', { type: 'number', id, step: 'any', min: 0, value: String(value ?? ''), 'aria-describedby': `${id}-msg${hint ? ` ${id}-hint` : ''}` });
    const message = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
    const node = h('div', { class: `dpl-field${hint ? ' dpl-field-wide' : ''}` }, [h('label', { for: id }, label), input,
      hint ? h('p', { class: 'dpl-field-hint', id: `${id}-hint`, text: hint }) : '', message]);
    return { node, input, message };
  };
  for (const [name, spec] of Object.entries(def.config?.inputs || {})) {
    if (!spec.editable) continue;
    const f = numberInput(`${prefix}-in-${name}`, [h('span', { text: (spec.label ?? '') })], inputs[name], (spec.hint ?? ''));
    inputFields[name] = f;
    inputBox.append(f.node);
  }
  if (costs) {
    const grid = h('div', { class: 'dpl-ex-costs' });
    for (const field of COSTS) {
      const f = numberInput(`${prefix}-cost-${field}`, [h('span', { class: 'dpl-field-sym', text: t(`cost.${field}.sym`) }), h('span', { text: t(`cost.${field}`) })], costs[field]);
      costFields[field] = f;
      grid.append(f.node);
    }
    inputBox.append(h('p', { class: 'dpl-field-hint', text: t('ex.costsNote') }), grid);
  }
  if (Object.keys(inputFields).length || costs) {
    inputBox.hidden = false;
    root.append(inputBox);
  }
  const readNumber = (input) => {
    const raw = input.value.trim();
    return raw === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
  };
  const onInputs = () => {
    for (const [name, f] of Object.entries(inputFields)) inputs[name] = readNumber(f.input);
    if (costs) for (const [field, f] of Object.entries(costFields)) costs[field] = readNumber(f.input);
    compute();
  };
  const inputListener = () => { clearTimeout(timer); timer = setTimeout(onInputs, TYPING_DELAY_MS); };
  inputBox.addEventListener('input', inputListener);
  inputBox.addEventListener('change', () => { clearTimeout(timer); onInputs(); });
  const generalError = h('div', { class: 'dpl-ex-error' });
  root.append(generalError);

  // ---- the exercise's own interactive part -----------------------------------------------------
  let extra = null;
  if (def.id === 'overlap-window') {
    extra = { kind: 'pair', ui: createPairView({ t, sim: deps.sim, reducedMotion: deps.reducedMotion }) };
  } else if (calculators.some((c) => c.calculator === 'params')) {
    const presets = Object.entries(def.config.calculators).filter(([, c]) => c.calculator === 'params').map(([id, c]) => ({
      id, request: c.input, label: t(`ex.params.preset.${c.input.model}`, { pp: c.input.pp, tp: c.input.tp ?? 1, ep: c.input.ep ?? 1 }),
    }));
    extra = { kind: 'params', ui: createParamsCalculator({ t, sim: deps.sim, presets }) };
  } else if (Object.values(def.config?.runs || {}).some((r) => r.schedule === 'chimera')) {
    const names = deps.schedules || [];
    const both = names.includes('chimera');
    extra = { kind: 'growth', ui: createGrowthChart({ t, sim: deps.sim, schedules: both ? ['dualpipe', 'chimera'] : ['dualpipe'] }) };
    if (!both) root.append(h('div', { class: 'dpl-notice', role: 'note' }, [h('p', { text: t('ex.noChimera') })]));
  }
  if (extra?.ui) {
    root.append(h('div', { class: 'dpl-ex-extra' }, [extra.ui.element]));
  }

  // ---- a run with the communication model: shown at once, split into compute and comm streams ----
  const allRuns = Object.entries(def.config?.runs || {});
  const streamRuns = allRuns.filter(([, run]) => run.costs?.comm);
  if (streamRuns.length) {
    const box = h('div', { class: 'dpl-ex-streams' }, [h('p', { class: 'dpl-ex-streams-caption', text: t('ex.streams.caption') })]);
    root.append(box);
    const configs = buildRequests(def, inputs, { costs }).runs;
    for (const [id] of streamRuns) {
      const slot = h('div', { class: 'dpl-ex-run', dataset: { run: id } });
      box.append(slot);
      runViews.push({ id, view: deps.mountRun(slot, configs[id], { streams: true, link: t('ex.streams.open') }) });
    }
  }

  // ---- simulations the learner reads from (mounted when opened) --------------------------------
  const runs = allRuns.filter(([, run]) => !run.costs?.comm);
  const runsBox = h('details', { class: 'dpl-ex-runs' }, [h('summary', { text: t('ex.runs', { n: runs.length }) })]);
  const mountRuns = (box) => {
    if (box.dataset.mounted) return;
    box.dataset.mounted = '1';
    const configs = buildRequests(def, inputs, { costs }).runs;
    for (const [id] of runs) {
      const slot = h('div', { class: 'dpl-ex-run', dataset: { run: id } });
      box.append(slot);
      runViews.push({ id, view: deps.mountRun(slot, configs[id]) });
    }
  };
  if (runs.length) {
    runsBox.addEventListener('toggle', () => { if (runsBox.open) mountRuns(runsBox); });
    root.append(runsBox);
  }

  // ---- answers --------------------------------------------------------------------------------
  const fields = def.answers.map((answer) => {
    const kind = answerKind(answer);
    if (kind === 'choice') return { answer, kind, field: choiceField(answer, { t, lang }) };
    const field = numberField(answer, { t, lang });
    field.setHint(answer.tolerance);
    return { answer, kind, field };
  });
  const checkButton = h('button', { type: 'submit', class: 'dpl-btn dpl-btn-primary', dataset: { action: 'check' } }, [t('ex.check')]);
  // The hint comes after the second try that is not all right (HINT_AFTER).
  const hintBox = h('p', { class: 'dpl-ex-hint', id: `${prefix}-hint`, 'aria-live': 'polite', hidden: true }, [h('strong', { text: t('ex.hint') }), ' ', (def.hint ?? '')]);
  const summary = h('div', { class: 'dpl-ex-summary', role: 'status', 'aria-live': 'polite' });
  const form = h('form', { class: 'dpl-ex-answers', novalidate: true, 'aria-label': t('ex.answers', { n: deps.number }) }, [
    h('div', { class: 'dpl-ex-fields' }, fields.filter((f) => f.field).map((f) => f.field.element)),
    h('div', { class: 'dpl-ex-actions' }, [checkButton]),
    summary, hintBox,
  ]);
  root.append(form);

  // ---- worked solution: there whenever the learner opens it ----------------------------------------
  const solution = h('details', { class: 'dpl-ex-solution' }, [h('summary', { text: t('ex.solution') })]);
  const solutionBody = h('div', { class: 'dpl-ex-solution-body' });
  solution.append(solutionBody);
  root.append(solution);
  solution.addEventListener('toggle', () => {
    if (!solution.open) return;
    renderSolution();
    // Opening the solution shows what an attempt shows.
    if (extra?.kind === 'pair') extra.ui.reveal({ animate: false });
    if (extra?.kind === 'params') extra.ui.reveal();
  });

  async function renderSolution() {
    if (!computed || !solution.open) return;
    const rows = fields.map(({ answer, kind }) => {
      const expected = expectedAnswer(answer, computed.results);
      let value = t('ex.unavailable');
      if (expected.kind === 'number') value = formatQuantity(expected.value, unitKind(answer.unit), t);
      if (expected.kind === 'choice') value = (answer.choices[expected.correct] ?? '');
      const tol = kind === 'number' ? toleranceText(answer.tolerance, unitKind(answer.unit), t) : '';
      return h('tr', {}, [h('th', { scope: 'row', text: (answer.label ?? '') }), h('td', { text: value }), h('td', { text: tol })]);
    });
    const parts = [
      h('p', { text: (def.solution ?? '') }),
      h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': t('ex.simValues') }, [labelCells(h('table', { class: 'dpl-table dpl-ex-values dpl-ex-table' }, [
        h('caption', { text: t('ex.simValues') }),
        h('thead', {}, [h('tr', {}, ['ex.col.answer', 'ex.col.value', 'ex.col.accepted'].map((k) => h('th', { scope: 'col', text: t(k) })))]),
        h('tbody', {}, rows),
      ]))]),
    ];
    if (extra?.kind === 'params') parts.push(await extra.ui.solution());
    // A recover calculator that names a training run also shows its saving against M: the
    // whole-run figure holds only at its own M and costs (issue 26).
    for (const [id, calc] of Object.entries(def.config?.calculators || {})) {
      const result = computed.results[id];
      if (calc.calculator === 'recover' && calc.input.trainingTokens && result?.byMicrobatches?.length > 1)
        parts.push(createRecoveryByM(result, { t, lang, title: (name) => scheduleTitle(name, t) }));
    }
    if (extra?.kind === 'pair' && extra.ui.pair) {
      for (const label of ['DISPATCH(F)', 'COMBINE(F)']) {
        const hd = hidingText(extra.ui.pair, label, t.lang);
        if (hd) parts.push(h('p', { class: 'dpl-ex-evidence', text: t('ex.pair.evidence', { comm: label, by: t.list(hd.by), exposed: sig(hd.exposed, 4, t.lang) }) }));
      }
    }
    solutionBody.replaceChildren(...parts);
  }

  function evidenceFor(answer) {
    if (extra?.kind === 'pair' && extra.ui.pair) {
      const label = /dispatch/.test(answer.id) ? 'DISPATCH(F)' : /combine/.test(answer.id) ? 'COMBINE(F)' : null;
      const hd = label && hidingText(extra.ui.pair, label, t.lang);
      return hd ? t('ex.pair.evidence', { comm: label, by: t.list(hd.by), exposed: sig(hd.exposed, 4, t.lang) }) : '';
    }
    if (extra?.kind === 'growth') return extra.ui.evidence(answer.id);
    return '';
  }

  function setStatus(state, attempts) {
    status.dataset.state = state;
    status.textContent = state === 'solved' ? `✓ ${t('ex.status.solved')}` : state === 'tried' ? t('ex.status.tried', { n: attempts }) : '';
  }

  /** Checks every answer given; `record` counts the attempt in progress (a restore does not). */
  function check({ record }) {
    if (!computed) return;
    const results = [];
    const answers = {};
    for (const { answer, field } of fields) {
      const expected = expectedAnswer(answer, computed.results);
      if (expected.kind === 'missing') {
        results.push('missing');
        continue;
      }
      const outcome = field.check(expected, answer.tolerance, evidenceFor(answer));
      results.push(outcome);
      if (outcome !== 'empty') answers[answer.id] = { text: String(field.read()), correct: outcome === 'correct' };
    }
    if (results.includes('missing')) {
      // A simulation the answers need failed (its message is shown above): nothing to compare.
      summary.textContent = t('ex.cannotCheck');
      return;
    }
    const given = results.filter((r) => r !== 'empty').length;
    if (!given) {
      summary.textContent = t('ex.nothing');
      return;
    }
    const right = results.filter((r) => r === 'correct').length;
    const empty = results.filter((r) => r === 'empty').length;
    const total = results.length;
    const allRight = right === total;
    const wrongOnes = given - right;
    summary.replaceChildren(h('p', { class: allRight ? 'is-correct' : wrongOnes ? 'is-wrong' : 'is-partial' }, [
      h('span', { class: 'dpl-ex-mark', 'aria-hidden': 'true', text: allRight ? '✓' : wrongOnes ? '✗' : '…' }), ' ',
      t.sentences(allRight ? t('ex.allRight', { n: total }) : t('ex.someRight', { right, total: given }),
        empty ? t('ex.unanswered', { n: empty }) : ''),
    ]));
    if (wrongOnes) summary.append(h('p', { class: 'dpl-ex-retry', text: t('ex.retry') }));
    attempted = true;
    renderSolution();
    if (extra?.kind === 'pair') extra.ui.reveal({ animate: record });
    if (extra?.kind === 'params') extra.ui.reveal();
    let attempts = deps.saved?.attempts || 0;
    if (record) {
      const saved = deps.onResult?.({ correct: allRight, answers, inputs: { values: { ...inputs }, costs: costs ? { ...costs } : undefined } });
      attempts = saved?.attempts ?? attempts + 1;
      deps.saved = saved || deps.saved;
    }
    // The hint after the second try that is not all right (and from then on).
    if (!allRight && attempts >= HINT_AFTER) hintBox.hidden = false;
    setStatus(deps.saved?.correct || allRight ? 'solved' : 'tried', Math.max(1, attempts));
    root.dataset.checked = allRight ? 'correct' : 'wrong';
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    check({ record: true });
  });

  // ---- computing the expected values ------------------------------------------------------------
  // A cost field's error reads as the explorer's do (ui/field-error.js): plain words and, where
  // one value is safe, a button that puts it in the field and runs again.
  const fixCost = (patch) => {
    for (const [field, value] of Object.entries(patch.costs || {})) {
      if (costFields[field]) costFields[field].input.value = String(value);
    }
    clearTimeout(timer);
    onInputs();
  };
  function showInputErrors(errors) {
    const placed = new Map(); // field -> the error shown under it
    const names = {}; // pf.<request field> -> the exercise's label of the input bound to it
    const unplaced = [];
    for (const error of Object.values(errors)) {
      const path = error.path || '';
      const bound = Object.entries(def.config?.calculators || {}).flatMap(([, c]) => Object.entries(c.inputBindings || {}))
        .find(([pointer]) => pointer === path);
      const target = bound ? inputFields[bound[1]] : costFields[path.replace(/^(\/config)?\/costs\//, '')];
      if (bound) names[`pf.${path.slice(1).replaceAll('/', '.')}`] = (def.config.inputs[bound[1]].label ?? '');
      if (target) {
        if (!placed.has(target)) placed.set(target, error);
      } else {
        const said = errorText(error, lang);
        if (!unplaced.includes(said)) unplaced.push(said);
      }
    }
    // A calculator's field is named in the sentence by its input's label, not its request key.
    const named = withFieldNames(t, names);
    for (const f of [...Object.values(inputFields), ...Object.values(costFields)]) {
      showFieldError(f.message, f.input, placed.get(f) ?? null, { config: { costs }, t: named, onFix: fixCost });
    }
    generalError.replaceChildren(...unplaced.map((m) => h('div', { class: 'dpl-error', role: 'alert' }, [h('strong', { text: t('error.heading') }), h('p', { text: m })])));
  }

  async function compute() {
    const mine = ++token;
    root.setAttribute('aria-busy', 'true');
    const result = await runRequests(deps.sim, buildRequests(def, inputs, { costs }));
    if (mine !== token) return;
    root.setAttribute('aria-busy', 'false');
    computed = result;
    showInputErrors(result.errors);
    const grid = recall && result.results[def.recall.trace];
    if (grid && !recallGrid) {
      recallGrid = createTraceGrid(traceFromGrid(grid, def.recall.slots), { t, label: t('ex.recall', { last: def.recall.slots - 1 }) });
      recall.append(recallGrid.element);
    }
    const configs = buildRequests(def, inputs, { costs }).runs;
    for (const { id, view } of runViews) view.update?.(configs[id]);
    if (attempted) {
      if (extra?.kind === 'growth') await extra.ui.ready;
      check({ record: false });
    }
    root.dataset.ready = '1';
  }

  // ---- restore what the learner entered before ----------------------------------------------------
  for (const { answer, field } of fields) {
    const saved = deps.saved?.answers?.[answer.id];
    if (field && saved && saved.text !== undefined) field.write(saved.text);
  }
  if (deps.saved?.attempts) setStatus(deps.saved.correct ? 'solved' : 'tried', deps.saved.attempts);
  compute();
  if (extra?.kind === 'pair') extra.ui.onUpdate = () => renderSolution();

  cleanups.push(() => clearTimeout(timer));
  return {
    update() {},
    /** Scrolls the exercise into view and moves focus to its heading (for #exercise=<id>). */
    focus() {
      heading.focus({ preventScroll: true });
      // Widgets above may still be drawing and push the exercise down: keep it at the top while
      // the page settles, until the learner scrolls or presses a key (or after a few seconds).
      const pin = () => root.scrollIntoView({ block: 'start' });
      pin();
      const article = root.closest('.lesson') || document.body;
      const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(pin) : null;
      observer?.observe(article);
      const events = ['wheel', 'keydown', 'pointerdown', 'touchstart'];
      const release = () => {
        observer?.disconnect();
        events.forEach((type) => window.removeEventListener(type, release, true));
        clearTimeout(releaseTimer);
      };
      const releaseTimer = setTimeout(release, 6000);
      events.forEach((type) => window.addEventListener(type, release, true));
      cleanups.push(release);
    },
    destroy() {
      token += 1;
      cleanups.forEach((fn) => fn());
      extra?.ui?.destroy?.();
      recallGrid?.destroy();
      runViews.forEach(({ view }) => view.destroy?.());
      root.remove();
    },
  };
}
