// Timeline widget: simulates one schedule (or several, on the same time axis), or takes a model
// built elsewhere (a profiler trace: lib/timeline-trace-lanes.js), and draws the whole
// run fitted to its width, with zoom and pan (buttons, ctrl+wheel and pinch, drag, keys) and an
// overview strip showing where the view is, a time cursor with transport controls above the chart
// (they and the zoom bar under it stay on screen while a tall chart scrolls by), tooltips, a
// table view, its keyboard help behind a toggle, and optionally each rank's in-flight activations over time (memory) and, with the
// communication model (costs.comm), its compute and communication streams. Small runs are drawn
// as SVG, large ones (up to core's op cap) on canvas with level of detail (lib/timeline-lod.js
// chooses). The widget's state is DOM-free where it can be: the view's window is
// lib/timeline-viewport.js's, each frame of playback lib/timeline-playback.js's; the tooltip and
// the autoplay watch are ui/timeline-tooltip.js and ui/timeline-autoplay.js.
// mount(element, deps) -> { update(state), destroy() }
//   deps.sim.simulate(config) -> Promise<result>   deps.t(key, vars) -> string
//   deps.onChange?(patch)   reports settled cursor/table/speed/streams/memory changes (the app puts them in the URL)
//   deps.onError?(error, index)   reports a rejected config (the app marks the offending field)
//   deps.dense?   rows of lib/timeline-layout.js's DENSE_ROWS (the course's figure frame)
// state: { configs: [config, ...], titles?: [string], t: number|null, table, speed, streams, memory,
//          autoplay? (play once, when these configs are drawn and the chart is on screen, never
//          under reduced motion: the lesson's lead figure) }
//        or { model (lib/timeline-model.js laneSet), modelKey (a new key draws a new model), t, ... }
// Whichever the source, the lanes are the model's (lib/timeline-model.js): the simulator's results
// go through lib/timeline-sim-lanes.js, and nothing below reads a result.
import { h, clear, uniqueId, prefersReducedMotion, errorBox } from '../ui/dom.js';
import { localizedError } from '../lib/error-text.js';
import { explain } from '../ui/field-error.js';
import { drawDefs } from '../ui/timeline-draw.js';
import { buildLegend, buildLaneHeading, buildTransport, buildViewBar, buildTables, cellTarget, streamsBlockerOf, showStreamsToggle } from '../ui/timeline-parts.js';
import { mountLane, loadCanvas, canvasReady } from '../ui/timeline-lane.js';
import { createOverview } from '../ui/timeline-overview.js';
import { bindGestures } from '../ui/timeline-gestures.js';
import { readPalette } from '../ui/timeline-palette.js';
import { nextEvent, prevEvent } from '../lib/timeline-data.js';
import { rendererFor } from '../lib/timeline-lod.js';
import { laneSet } from '../lib/timeline-model.js';
import { simLanes } from '../lib/timeline-sim-lanes.js';
import { playStep, REDUCED_STEP_MS } from '../lib/timeline-playback.js';
import { assumptionsList } from '../ui/memory-assumptions.js';
import { laneLayout } from '../lib/timeline-layout.js';
import { viewLimits, fitView, clampView, zoomView, panView, followView, revealSpan, isFit, magnification, xToTime, viewKeyAction, applyViewAction, ZOOM_STEP } from '../lib/timeline-viewport.js';
import { createTooltip, tipTextOf, TIP_TARGETS } from '../ui/timeline-tooltip.js';
import { createAutoplay } from '../ui/timeline-autoplay.js';
import { atTick } from '../lib/tick.js';
import { formatNumber, numberFormat } from '../lib/format.js';
import { clamp } from '../lib/scale.js';
import { icon } from '../ui/icons.js';

/** A gesture has stopped once its view has not moved for this long: then ids are painted. */
const SETTLE_MS = 150;

export function mount(element, deps) {
  const t = deps.t;
  const prefix = uniqueId('dpl-tl');
  const root = h('div', { class: 'dpl dpl-timeline' });
  const defs = drawDefs(prefix);
  const legendSlot = h('div', { class: 'dpl-legend-slot' });
  const scroll = h('div', {
    class: 'dpl-scroll',
    tabindex: 0,
    role: 'group',
    'aria-roledescription': t('tl.roledesc'),
    'aria-label': t('tl.label'),
    'aria-describedby': `${prefix}-help`,
  });
  const tables = h('div', { class: 'dpl-tables', hidden: true });
  // The keys, for whoever asks (the toggle in the transport bar); the chart's description either way.
  const help = h('p', { class: 'dpl-help', id: `${prefix}-help`, text: t('tl.help'), hidden: true });
  const transport = buildTransport(t, prefix);
  const overview = createOverview({ t, onView: (v) => requestView(v), onKey: (e) => onKey(e, true) });
  const viewBar = buildViewBar(t, overview.element, transport.toggles);
  const tip = createTooltip(root, `${prefix}-tip`);
  const status = h('p', { class: 'dpl-status', 'aria-live': 'polite' });
  // Under the lanes: what a memory lane in GB assumes (core's memory model), when a run has one.
  const memoryNote = h('div', { class: 'dpl-memory-note' });
  const body = h('div', { class: 'dpl-timeline-body' }, [legendSlot, transport.bar, help, transport.streamsHint, scroll, memoryNote, viewBar.bar, tables, status]);
  root.append(defs, body, tip.element);
  element.append(root);

  let lanes = []; // lanes of lib/timeline-model.js, each with its drawn renderer and layout
  let unit = ''; // the lanes' time unit ('ms' for a trace)
  let kind = 'svg';
  let makespan = 0;
  let limits = viewLimits(1, 1);
  let view = fitView(limits);
  let events = new Float64Array(1);
  let cursor = null; // null until a result is drawn
  let wantedT = null; // cursor requested by state before the result arrived
  let playing = false;
  let frame = 0;
  let viewFrame = 0;
  let lastFrameTime = 0;
  let reducedAccum = 0;
  let speed = 1;
  transport.speed.value = '1';
  let tableMode = false;
  let streamsWanted = false;
  let memoryWanted = false;
  let streamsBlocker = ''; // why the streams cannot be drawn for the current results, or ''
  let focusOp = null; // {lane, rank, seq}: the op cell in the tab order
  let palette = null;
  let configKey = '';
  let token = 0;
  let lastReported = null;
  let resizeTimer = 0;
  let lastWidth = 0;
  let settleTimer = 0; // the whole paint after a gesture's drafts
  let plotBox = null; // the first lane's box on the page, until a scroll, resize or draw moves it

  const report = (patch) => { if (deps.onChange) deps.onChange(patch); };
  // Plays by itself once on screen, when asked (ui/timeline-autoplay.js).
  const autoplay = createAutoplay(scroll, {
    canStart: () => lanes.length > 0 && !playing,
    play: () => play(),
    rewind: () => {
      pause();
      setCursor(0, false);
    },
  });

  // ---- drawing -------------------------------------------------------------------------------
  /** Before the first result, hold the chart's likely height so text below does not jump. */
  function reserveHeight(configs) {
    const rows = configs.reduce((n, c) => n + (Number.isInteger(c.ranks) && c.ranks > 0 ? Math.min(c.ranks, 28) : 4), 0);
    scroll.style.minHeight = `${rows * 32 + configs.length * 64}px`;
  }

  function showMessage(node) {
    scroll.style.minHeight = '';
    clear(legendSlot);
    clear(memoryNote);
    clear(scroll).append(node);
    scroll.classList.add('is-message');
    scroll.hidden = false;
    clear(tables);
    lanes = [];
    transport.bar.hidden = true;
    viewBar.bar.hidden = true;
    transport.streamsHint.hidden = true;
    help.hidden = true;
    transport.help.setAttribute('aria-expanded', 'false');
  }

  /** Builds every lane for the current width and toggles, then paints the current view. */
  function draw() {
    if (kind === 'canvas' && !canvasReady()) return; // redraw() draws once it is fetched
    clear(scroll);
    scroll.classList.remove('is-message');
    scroll.classList.toggle('is-canvas', kind === 'canvas');
    scroll.style.minHeight = '';
    const available = scroll.clientWidth || element.clientWidth || 800;
    lastWidth = available;
    plotBox = null;
    const streams = streamsWanted && !streamsBlocker;
    if (memoryWanted) for (const lane of lanes) lane.memory ??= lane.memorySteps();
    const memoryMax = memoryWanted ? Math.max(1, ...lanes.flatMap((l) => (l.memory ?? []).map((m) => m.peak))) : 0;
    const parts = lanes.some((l) => l.look === 'part');
    if (kind === 'canvas' || !palette || (parts && !palette.part.length)) palette = readPalette(root, { parts });
    lanes.forEach((lane, index) => {
      const layout = laneLayout({ ranks: lane.tracks.length, width: available, streams: streams && Boolean(lane.streams), memory: memoryWanted && Boolean(lane.memory), dense: Boolean(deps.dense) });
      const focus = { get: () => (focusOp && focusOp.lane === index ? focusOp : null), fallback: index === 0 && !focusOp };
      lane.drawn = mountLane(kind, lane, { layout, makespan, prefix, id: index, t, streams, memoryMax, palette, unit }, focus);
      lane.layout = layout;
      scroll.append(h('div', { class: 'dpl-lane' }, [buildLaneHeading(lane, t), lane.drawn.element]));
    });
    clear(legendSlot).append(buildLegend(lanes, prefix, t, { streams, memory: memoryWanted }));
    // What the GB numbers assume, each with its source (core's memory model, the first run's:
    // a compared run is counted the same way, from the same memoryModel).
    const memory = memoryWanted ? lanes.find((l) => l.memoryModel)?.memoryModel : null;
    clear(memoryNote);
    if (memory) memoryNote.append(h('p', { class: 'dpl-legend-note', text: t('tl.memoryAssumptions') }), assumptionsList(memory.assumptions, t));
    clear(tables); // built on first use: thousands of rows are wasted work if never shown
    transport.bar.hidden = false;
    viewBar.bar.hidden = false;
    transport.scrub.max = String(makespan);
    overview.paint(lanes, limits, palette);
    render();
    setCursor(cursor ?? makespan, false);
    applyTableMode();
    applyStreams(false);
    transport.memory.setAttribute('aria-pressed', String(memoryWanted));
    markTall();
  }

  /** A chart taller than most of the screen keeps its controls and axis on screen (widgets.css). */
  function markTall() {
    const tall = !scroll.hidden && scroll.offsetHeight > innerHeight * 0.75;
    root.classList.toggle('is-tall', tall);
    // The axis sticks just under the transport bar.
    if (tall) root.style.setProperty('--dpl-sticky-top', `${transport.bar.offsetHeight}px`);
  }

  /**
   * Paints the current view in every lane and on the overview strip. During a gesture (`draft`)
   * a canvas lane leaves out micro-batch ids, and paints them once the gesture has stopped for
   * SETTLE_MS: a frame of a pan or a zoom then stays within its budget.
   */
  function render({ draft = false } = {}) {
    cancelAnimationFrame(viewFrame);
    viewFrame = 0;
    clearTimeout(settleTimer);
    if (draft) settleTimer = setTimeout(() => render(), SETTLE_MS);
    for (const lane of lanes) {
      lane.drawn.render(view, { draft });
      lane.drawn.setCursor(cursor ?? makespan);
    }
    overview.setView(view);
    const fit = isFit(view, limits);
    viewBar.zoomOut.disabled = fit;
    viewBar.fit.disabled = fit;
    viewBar.zoomIn.disabled = view.end - view.start <= limits.minSpan * (1 + 1e-9);
    // Only what changed: a pan or playback calls this every frame, and each text write is a layout.
    const level = fit ? t('zoom.whole') : t('zoom.level', { x: formatNumber(magnification(view, limits), 1, t.lang) });
    if (viewBar.level.textContent !== level) viewBar.level.textContent = level;
    scroll.classList.toggle('is-zoomed', !fit);
  }

  /** Moves the view; gestures call this many times a frame, so painting waits for the next one. */
  function requestView(next, { now = false } = {}) {
    const clamped = clampView(next, limits);
    if (clamped.start === view.start && clamped.end === view.end) return;
    view = clamped;
    if (now) render();
    else if (!viewFrame) viewFrame = requestAnimationFrame(() => render({ draft: true }));
  }

  /** Zoom around the cursor when it is in view, else around the view's middle. */
  function zoomBy(factor) {
    const c = cursor ?? makespan;
    const anchor = c >= view.start && c <= view.end ? c : (view.start + view.end) / 2;
    requestView(zoomView(view, factor, anchor, limits), { now: true });
    status.textContent = viewBar.level.textContent;
  }

  // ---- the stream view -------------------------------------------------------------------------
  const applyStreams = (pressed) => showStreamsToggle(transport, { wanted: streamsWanted, blocker: streamsBlocker, pressed }, t);

  function toggleStreams() {
    if (streamsBlocker) {
      applyStreams(true);
      status.textContent = streamsBlocker;
      return;
    }
    streamsWanted = !streamsWanted;
    if (lanes.length) redraw();
    else chooseRenderer();
    report({ streams: streamsWanted });
  }

  function toggleMemory() {
    memoryWanted = !memoryWanted;
    if (lanes.length) draw();
    report({ memory: memoryWanted });
  }

  /** Chooses the renderer again and draws, once the canvas renderer is fetched if it is the one. */
  async function redraw() {
    chooseRenderer();
    if (kind === 'canvas') {
      const mine = token;
      try {
        await loadCanvas();
      } catch (error) {
        if (mine === token) showMessage(errorBox(error, t('page.viewLoadError')));
        return;
      }
      if (mine !== token || !lanes.length) return; // a newer run took over meanwhile
    }
    draw();
  }

  /** SVG or canvas, from the items the chart would draw (the choice itself is rendererFor's). */
  function chooseRenderer() {
    const ops = lanes.reduce((n, l) => n + l.itemCount, 0);
    const parts = lanes.reduce((n, l) => n + (l.streams?.partCount ?? 0), 0);
    streamsBlocker = streamsBlockerOf(lanes, rendererFor({ ops, parts }) === 'svg', t);
    const streams = streamsWanted && !streamsBlocker;
    kind = rendererFor({ ops, parts: streams ? parts : 0 });
    // The SVG renderer and the table work on item records; a canvas lane builds them one at a time.
    if (kind === 'svg') for (const lane of lanes) lane.records();
    // A lane of simulated ops is what the streams and memory toggles open up.
    const simulated = lanes.some((l) => l.look === 'op');
    transport.streams.hidden = !simulated;
    transport.memory.hidden = !simulated;
  }

  async function simulate(configs, titles) {
    const mine = ++token;
    pause();
    root.classList.add('is-loading');
    let results;
    try {
      // Tag a rejection with the config it belongs to, so the app can mark the right field.
      results = await Promise.all(configs.map((c, index) => deps.sim.simulate(c).catch((error) => {
        throw { error, index };
      })));
    } catch (tagged) {
      if (mine !== token) return;
      const { error, index } = tagged && 'index' in tagged ? tagged : { error: tagged, index: 0 };
      // The rule in plain words leads, as beside the field and in the out-of-date note; core's
      // exact message follows for whoever wrote the config (an embed's author, a shared link).
      const plain = await explain(error, configs[index], t).then((info) => info.text, () => '');
      if (mine !== token) return;
      root.classList.remove('is-loading');
      showMessage(errorBox(localizedError(error, t.lang), t('error.heading'), plain));
      if (deps.onError) deps.onError(error, index);
      return;
    }
    if (mine !== token) return; // a newer config was asked for meanwhile
    root.classList.remove('is-loading');
    if (deps.onError) deps.onError(null);
    // Any number of runs on one axis (lib/timeline-model.js), each by the simulator's adapter.
    await show(laneSet(simLanes(results, titles, t.lang)), mine);
  }

  /** Draws a model (lib/timeline-model.js laneSet): its lanes on one axis, fitted, cursor at the end. */
  async function show(model, mine = ++token) {
    pause();
    root.classList.remove('is-loading');
    ({ lanes, makespan, limits, events, unit } = model);
    scroll.setAttribute('aria-label', t(lanes.some((l) => l.look === 'op') ? 'tl.label' : 'tl.traceLabel'));
    view = fitView(limits);
    focusOp = null;
    cursor = wantedT === null ? makespan : clamp(wantedT, 0, makespan);
    await redraw();
    if (mine !== token || !lanes.length) return;
    autoplay.arm();
  }

  // ---- the time cursor -----------------------------------------------------------------------
  function setCursor(time, settled = true) {
    cursor = clamp(time, 0, makespan);
    for (const lane of lanes) lane.drawn.setCursor(cursor);
    transport.scrub.value = String(cursor);
    const text = t('tl.readout', { t: formatNumber(cursor, 2, t.lang), end: formatNumber(makespan, 3, t.lang) });
    transport.readout.value = text;
    transport.scrub.setAttribute('aria-valuetext', text);
    if (settled) {
      const value = cursor >= makespan ? null : atTick(cursor);
      lastReported = value;
      report({ t: value });
    }
  }

  /** After the cursor was moved on purpose (keys, buttons, scrubber), bring it into view. */
  function revealCursor() {
    if (cursor < view.start || cursor > view.end) requestView(revealSpan(view, cursor, cursor, limits), { now: true });
  }

  function announce() {
    status.textContent = t('tl.readout', { t: formatNumber(cursor, 2, t.lang), end: formatNumber(makespan, 3, t.lang) });
  }

  function step(which, sign) {
    if (!lanes.length) return;
    pause();
    let target = cursor;
    if (which === 'op') target = sign > 0 ? nextEvent(events, cursor) : prevEvent(events, cursor);
    else if (which === 'unit') target = sign > 0 ? Math.floor(cursor + 1 + 1e-9) : Math.ceil(cursor - 1 - 1e-9);
    else if (which === 'edge') target = sign > 0 ? makespan : 0;
    setCursor(target);
    revealCursor();
    announce();
  }

  function tick(now) {
    const dt = Math.min(0.1, (now - lastFrameTime) / 1000); // a background tab must not jump ahead
    lastFrameTime = now;
    const reduced = prefersReducedMotion();
    // Gliding, or under reduced motion still frames at a calm, fixed pace (lib/timeline-playback.js).
    const next = playStep({ cursor, makespan, events, speed, dt, reduced, waited: reducedAccum });
    reducedAccum = next.waited;
    if (next.cursor !== cursor) setCursor(next.cursor, false);
    // Zoomed in, the view travels with the cursor (by pages under reduced motion).
    if (!isFit(view, limits)) requestView(followView(view, cursor, limits, { paged: reduced }), { now: true });
    if (cursor >= makespan) {
      pause();
      return;
    }
    frame = requestAnimationFrame(tick);
  }

  function play() {
    if (!lanes.length || playing) return;
    if (cursor >= makespan) setCursor(0, false);
    playing = true;
    root.classList.add('is-playing');
    lastFrameTime = performance.now();
    reducedAccum = REDUCED_STEP_MS; // the first still frame comes at once
    setPlayButton();
    frame = requestAnimationFrame(tick);
  }

  function pause() {
    if (!playing) return;
    playing = false;
    autoplay.stopped();
    cancelAnimationFrame(frame);
    root.classList.remove('is-playing');
    setPlayButton();
    setCursor(cursor); // settled: report it
    announce();
  }

  function setPlayButton() {
    const label = playing ? t('ctl.pause') : t('ctl.play');
    transport.play.replaceChildren(icon(playing ? 'pause' : 'play'));
    transport.play.setAttribute('aria-label', label);
    transport.play.title = `${label} (${t('key.space')})`;
    transport.play.setAttribute('aria-pressed', String(playing));
  }

  function applyTableMode() {
    if (tableMode && lanes.length && !tables.firstChild) tables.append(...buildTables(lanes, t, { view, streams: streamsWanted && !streamsBlocker, all: kind === 'svg' }));
    scroll.hidden = tableMode && lanes.length > 0; // a message stays visible in table mode
    if (!scroll.hidden) revealRows(); // the chart may come back where other rows are on screen
    viewBar.bar.hidden = !lanes.length;
    viewBar.zoom.hidden = tableMode && kind === 'svg'; // the table lists every op: nothing to zoom
    tables.hidden = !tableMode;
    legendSlot.hidden = tableMode;
    transport.table.setAttribute('aria-pressed', String(tableMode));
  }

  // ---- tooltips: hover and keyboard focus show the same details (ui/timeline-tooltip.js) ----------
  const showTip = (text, box) => tip.show(text, box);
  const hideTip = () => tip.hide();
  const tipText = (g) => tipTextOf(g, lanes, t);

  // ---- keyboard --------------------------------------------------------------------------------
  /** Arrow keys inside the chart move between op cells (roving tabindex), like a grid. */
  function onCellKey(event, g) {
    const index = lanes.findIndex((l) => l.drawn.svg && l.drawn.svg.contains(g));
    const lane = lanes[index];
    const from = lane.drawn.where.get(g);
    const target = cellTarget(lane.records(), from, event.key);
    if (target !== undefined) {
      event.preventDefault();
      if (!target) return;
      focusCell(index, target);
    } else if (event.key === 'Enter') {
      event.preventDefault(); // move the time cursor to the end of this op
      pause();
      setCursor(Number(g.dataset.end));
      announce();
    } else if (event.key === 'Escape') {
      hideTip();
      scroll.focus();
    }
  }

  /** Focuses an op cell, panning the view to it first when it is outside. */
  function focusCell(index, { rank, seq }) {
    const o = lanes[index].records()[rank][seq];
    focusOp = { lane: index, rank, seq };
    for (const lane of lanes) lane.drawn.element.querySelectorAll('.dpl-op[tabindex="0"]').forEach((g) => g.setAttribute('tabindex', '-1'));
    const next = revealSpan(view, o.start, o.end, limits);
    if (next !== view) requestView(next, { now: true });
    const g = lanes[index].drawn.cells[rank]?.get(seq);
    if (g) {
      g.setAttribute('tabindex', '0');
      g.focus();
    }
  }

  /** `strip`: the key came from the overview strip, where arrows pan instead of moving the cursor. */
  function onKey(event, strip = false) {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (!strip && target.classList && target.classList.contains('dpl-op')) {
      onCellKey(event, target);
      if (event.defaultPrevented || event.key !== ' ') return;
    }
    const inScrub = target === transport.scrub;
    const formField = !inScrub && /^(SELECT|INPUT|TEXTAREA)$/.test(target.tagName);
    if (formField) return;
    const key = event.key;
    const viewAction = lanes.length && !inScrub ? viewKeyAction(key, { pan: strip }) : null;
    if (viewAction) {
      event.preventDefault();
      event.stopPropagation();
      const c = cursor ?? makespan;
      const anchor = c >= view.start && c <= view.end ? c : (view.start + view.end) / 2;
      requestView(applyViewAction(view, viewAction, anchor, limits), { now: true });
      status.textContent = viewBar.level.textContent;
    } else if (key === ' ' || key === 'k') {
      if (target.tagName === 'BUTTON') return; // the button's own click handles it
      event.preventDefault();
      if (playing) pause(); else play();
    } else if (key === 'ArrowRight' || key === 'ArrowLeft') {
      event.preventDefault();
      const sign = key === 'ArrowRight' ? 1 : -1;
      // On the scrubber plain arrows move one time unit (its native step would be 1% of range).
      step(event.shiftKey || inScrub ? 'unit' : 'op', sign);
    } else if (key === 'Home' || key === 'End') {
      event.preventDefault();
      step('edge', key === 'End' ? 1 : -1);
    } else if (key === 'Escape') {
      hideTip();
    }
  }

  const actions = {
    play: () => (playing ? pause() : play()),
    start: () => step('edge', -1),
    end: () => step('edge', 1),
    prevOp: () => step('op', -1),
    nextOp: () => step('op', 1),
    prevUnit: () => step('unit', -1),
    nextUnit: () => step('unit', 1),
    zoomIn: () => zoomBy(ZOOM_STEP),
    zoomOut: () => zoomBy(1 / ZOOM_STEP),
    fit: () => requestView(fitView(limits), { now: true }),
    table: () => {
      tableMode = !tableMode;
      clear(tables); // rebuilt for the current view (a canvas run lists the ops in view)
      applyTableMode();
      report({ table: tableMode });
    },
    streams: toggleStreams,
    memory: toggleMemory,
    help: () => {
      help.hidden = !help.hidden;
      transport.help.setAttribute('aria-expanded', String(!help.hidden));
    },
  };

  root.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action]');
    if (button && root.contains(button) && !button.disabled) actions[button.dataset.action]();
  });
  root.addEventListener('keydown', (event) => { if (!overview.element.contains(event.target)) onKey(event); });
  transport.scrub.addEventListener('input', () => {
    pause();
    setCursor(Number(transport.scrub.value));
    revealCursor();
  });
  transport.scrub.addEventListener('change', announce);
  transport.speed.addEventListener('change', () => {
    speed = Number(transport.speed.value);
    report({ speed });
  });

  // A gesture's anchor, from the lane's box read once per scroll, resize or draw: reading it on
  // every wheel event laid the page out in the middle of each zoom frame.
  const laneAt = (clientX) => {
    const lane = lanes[0];
    if (!lane) return null;
    plotBox ??= lane.drawn.element.getBoundingClientRect();
    const box = plotBox;
    const x = clientX - box.left - lane.layout.left;
    return x >= 0 && x <= lane.layout.plotWidth ? xToTime(view, lane.layout.plotWidth, x) : null;
  };
  const unbindGestures = bindGestures(scroll, {
    at: laneAt,
    pxToTime: (dx) => (lanes[0] ? (dx / lanes[0].layout.plotWidth) * (view.end - view.start) : 0),
    onZoom: (factor, anchor) => requestView(zoomView(view, factor, anchor, limits)),
    onPan: (dt) => requestView(panView(view, dt, limits)),
    canPan: () => lanes.length > 0 && !isFit(view, limits),
  });

  // A finger has no hover: a tap shows the op's tooltip and it stays until the next tap (a touch
  // ends with pointerout and pointerleave, which for a mouse hide it).
  const tipAt = (e) => {
    const lane = lanes.find((l) => l.drawn.canvas && l.drawn.canvas.contains(e.target));
    const found = lane && lane.drawn.hit(e.clientX, e.clientY);
    if (found) showTip(lane.describe(found.op, t, numberFormat(t.lang)), found.box);
    else hideTip();
  };
  scroll.addEventListener('pointerover', (e) => { const g = e.target.closest(TIP_TARGETS); if (g) showTip(tipText(g), g.getBoundingClientRect()); });
  scroll.addEventListener('pointerout', (e) => { if (e.pointerType !== 'touch' && e.target.closest(TIP_TARGETS)) hideTip(); });
  scroll.addEventListener('pointermove', (e) => {
    if (kind !== 'canvas' || e.pointerType === 'touch' || scroll.classList.contains('is-panning')) return;
    tipAt(e);
  });
  scroll.addEventListener('pointerleave', (e) => { if (e.pointerType !== 'touch') hideTip(); });
  scroll.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch') return;
    const g = e.target.closest(TIP_TARGETS);
    if (g) showTip(tipText(g), g.getBoundingClientRect());
    else if (kind === 'canvas') tipAt(e);
    else hideTip();
  });
  scroll.addEventListener('focusin', (e) => {
    const g = e.target.closest('.dpl-op');
    if (!g) return;
    const index = lanes.findIndex((l) => l.drawn.svg && l.drawn.svg.contains(g));
    focusOp = { lane: index, ...lanes[index].drawn.where.get(g) };
    showTip(tipText(g), g.getBoundingClientRect());
  });
  scroll.addEventListener('focusout', hideTip);

  // Redraw when the available width changes (rotate, resize), not on every pixel.
  const resize = new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (lanes.length && !tableMode && Math.abs(scroll.clientWidth - lastWidth) > 8) draw();
    }, 120);
  });
  resize.observe(element);
  // A canvas lane holds only the rows on screen: whatever scrolls (the page, a container of the
  // widget: scroll events do not bubble, so capture them) or resizes may bring others in.
  const revealRows = () => {
    plotBox = null;
    for (const lane of lanes) lane.drawn?.reveal();
  };
  const scrollWatch = { capture: true, passive: true };
  document.addEventListener('scroll', revealRows, scrollWatch);
  globalThis.addEventListener('resize', revealRows, { passive: true });
  // A theme switch changes the colours a canvas took from CSS (a large run's lanes, and every
  // run's overview strip): the page's theme choice or a host's class on <html>, or the system's
  // light/dark scheme changing under the "System" choice.
  const repaintForTheme = () => {
    if (!lanes.length) return;
    palette = null;
    draw();
  };
  const themeWatch = new MutationObserver(repaintForTheme);
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
  const schemeQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  schemeQuery?.addEventListener('change', repaintForTheme);

  return {
    update(state) {
      // Simulated runs are keyed by their configs; a model given whole by the caller's own key.
      const key = state.model ? `model:${state.modelKey}` : JSON.stringify(state.configs);
      if (state.speed && state.speed !== speed) {
        speed = state.speed;
        transport.speed.value = String(speed);
      }
      if (typeof state.table === 'boolean' && state.table !== tableMode) {
        tableMode = state.table;
        applyTableMode();
      }
      const streamsChanged = typeof state.streams === 'boolean' && state.streams !== streamsWanted;
      if (streamsChanged) streamsWanted = state.streams;
      const memoryChanged = typeof state.memory === 'boolean' && state.memory !== memoryWanted;
      if (memoryChanged) memoryWanted = state.memory;
      const wanted = state.t === undefined ? null : state.t;
      if (state.autoplay) autoplay.want();
      if (key !== configKey) {
        configKey = key;
        wantedT = wanted;
        lastReported = wanted;
        if (state.model) {
          show(state.model);
        } else {
          const titles = state.titles || state.configs.map((c) => c.schedule);
          if (!lanes.length) reserveHeight(state.configs);
          simulate(state.configs, titles);
        }
      } else if ((streamsChanged || memoryChanged) && lanes.length) {
        redraw();
      }
      if (wanted !== lastReported && lanes.length && !playing) {
        // Only a cursor the widget did not report itself (a pasted URL, back/forward) moves it.
        lastReported = wanted;
        setCursor(wanted === null ? makespan : wanted, false);
        revealCursor();
      }
    },
    destroy() {
      token += 1;
      clearTimeout(settleTimer);
      autoplay.disconnect();
      cancelAnimationFrame(frame);
      cancelAnimationFrame(viewFrame);
      resize.disconnect();
      document.removeEventListener('scroll', revealRows, scrollWatch);
      globalThis.removeEventListener('resize', revealRows);
      themeWatch.disconnect();
      overview.destroy();
      schemeQuery?.removeEventListener('change', repaintForTheme);
      unbindGestures();
      clearTimeout(resizeTimer);
      root.remove();
    },
    // For tests and the lesson reader: the results currently drawn.
    get results() { return lanes.map((l) => l.result); },
  };
}
