// Timeline widget: simulates one schedule (or two, side by side on the same time axis) and draws
// it with a time cursor, transport controls, keyboard shortcuts, tooltips and a table view. With
// the communication model (costs.comm) a Streams toggle splits every rank into its compute and
// communication streams.
// mount(element, deps) -> { update(state), destroy() }
//   deps.sim.simulate(config) -> Promise<result>   deps.t(key, vars) -> string
//   deps.onChange?(patch)   reports settled cursor/table/speed/streams changes (the app puts them in the URL)
//   deps.onError?(error, index)   reports a rejected config (the app marks the offending field)
// state: { configs: [config, config?], titles?: [string], t: number|null, table, speed, streams,
//          autoplay? (play once these configs are drawn: the lesson's lead figure) }
import { h, clear, uniqueId, prefersReducedMotion, errorBox } from '../ui/dom.js';
import { localizedError } from '../lib/error-text.js';
import { drawDefs, drawLane, pixelsPerUnit, LAYOUT } from '../ui/timeline-draw.js';
import { buildLegend, buildLaneHeading, buildTransport, buildTables, cellTarget, streamsBlockerOf, showStreamsToggle } from '../ui/timeline-parts.js';
import { normalizeTimeline, opCount, eventTimes, nextEvent, prevEvent } from '../lib/timeline-data.js';
import { describePart, partLabel } from '../lib/stream-parts.js';
import { atTick } from '../lib/tick.js';
import { DEFAULT_COMM } from '../state.js';
import { formatNumber, formatPercent } from '../lib/format.js';
import { clamp } from '../lib/scale.js';
import { icon } from '../ui/icons.js';

/** Above this many ops the chart is not drawn (DOM size); the numbers are still shown. */
export const MAX_DRAWN_OPS = 15000;
/** Above this many stream parts the Streams toggle is refused (each part is one SVG rect). */
export const MAX_DRAWN_PARTS = 60000;
/** At 1x the cursor crosses the whole schedule in this many seconds, whatever its length. */
const SECONDS_PER_RUN = 12;
/** Under prefers-reduced-motion, play jumps op by op, one still frame per this many ms (at 1x). */
const REDUCED_STEP_MS = 900;

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
  const help = h('p', { class: 'dpl-help', id: `${prefix}-help`, text: t('tl.help') });
  const transport = buildTransport(t, prefix);
  const tooltip = h('div', { class: 'dpl-tooltip', role: 'tooltip', id: `${prefix}-tip`, hidden: true });
  const status = h('p', { class: 'dpl-status', 'aria-live': 'polite' });
  const body = h('div', { class: 'dpl-timeline-body' }, [legendSlot, scroll, tables, transport.bar, transport.streamsHint, help, status]);
  root.append(defs, body, tooltip);
  element.append(root);

  let lanes = []; // [{title, result, rows, svg, element, cells, setCursor}]
  let makespan = 0;
  let events = [0];
  let cursor = null; // null until a result is drawn
  let wantedT = null; // cursor requested by state before the result arrived
  let playing = false;
  let frame = 0;
  let lastFrameTime = 0;
  let reducedAccum = 0;
  let speed = 1;
  transport.speed.value = '1';
  let tableMode = false;
  let streamsWanted = false;
  let streamsBlocker = ''; // why the streams cannot be drawn for the current results, or ''
  let configKey = '';
  let token = 0;
  let lastReported = null;
  let resizeTimer = 0;
  let lastWidth = 0;
  let autoplay = false;

  const report = (patch) => { if (deps.onChange) deps.onChange(patch); };

  // ---- drawing -------------------------------------------------------------------------------
  /** Before the first result, hold the chart's likely height so text below does not jump. */
  function reserveHeight(configs) {
    const rows = configs.reduce((n, c) => n + (Number.isInteger(c.ranks) && c.ranks > 0 && c.ranks <= 64 ? c.ranks : 4), 0);
    scroll.style.minHeight = `${rows * (LAYOUT.rowHeight + LAYOUT.rowGap) + configs.length * 64}px`;
  }

  function showMessage(node) {
    scroll.style.minHeight = '';
    clear(legendSlot);
    clear(scroll).append(node);
    scroll.classList.add('is-message');
    scroll.hidden = false;
    clear(tables);
    lanes = [];
    transport.bar.hidden = true;
    transport.streamsHint.hidden = true;
    help.hidden = true;
  }

  function draw() {
    clear(scroll);
    scroll.classList.remove('is-message');
    scroll.style.minHeight = '';
    const available = scroll.clientWidth || element.clientWidth || 800;
    lastWidth = available;
    const streams = streamsWanted && !streamsBlocker;
    const perUnit = pixelsPerUnit(lanes, makespan, available, { streams });
    lanes.forEach((lane) => {
      const drawn = drawLane(lane, { makespan, perUnit, prefix, t, streams });
      Object.assign(lane, drawn);
      scroll.append(h('div', { class: 'dpl-lane' }, [buildLaneHeading(lane, t), drawn.element]));
    });
    clear(legendSlot).append(buildLegend(lanes, prefix, t));
    clear(tables); // built on first use: thousands of rows are wasted work if never shown
    // One cell per widget is in the tab order (roving tabindex); arrows move between cells.
    const first = lanes[0] && lanes[0].cells.find((row) => row.length);
    if (first) first[0].setAttribute('tabindex', '0');
    transport.bar.hidden = false;
    help.hidden = false;
    transport.scrub.max = String(makespan);
    setCursor(cursor ?? makespan, false);
    applyTableMode();
    applyStreams(false);
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
    if (lanes.length) draw();
    report({ streams: streamsWanted });
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
      root.classList.remove('is-loading');
      const { error, index } = tagged && 'index' in tagged ? tagged : { error: tagged, index: 0 };
      showMessage(errorBox(localizedError(error, t.lang), t('error.heading')));
      if (deps.onError) deps.onError(error, index);
      return;
    }
    if (mine !== token) return; // a newer config was asked for meanwhile
    root.classList.remove('is-loading');
    if (deps.onError) deps.onError(null);
    const total = results.reduce((n, r) => n + opCount(r), 0);
    if (total > MAX_DRAWN_OPS) {
      const r = results[0];
      showMessage(h('div', { class: 'dpl-notice', role: 'status' }, [
        h('p', { text: t('tl.tooMany', { n: total.toLocaleString('en'), max: MAX_DRAWN_OPS.toLocaleString('en') }) }),
        h('p', { text: `${t('stat.makespan', { v: formatNumber(r.makespan) })} · ${t('stat.bubbleMax', { v: formatNumber(r.bubble.max) })} · ${t('stat.bubbleFraction', { v: formatPercent(r.bubble.fraction) })}` }),
      ]));
      return;
    }
    lanes = results.map((result, i) => ({ result, rows: normalizeTimeline(result), title: titles[i] }));
    streamsBlocker = streamsBlockerOf(lanes, MAX_DRAWN_PARTS, t);
    makespan = Math.max(...results.map((r) => r.makespan));
    events = eventTimes(lanes.flatMap((l) => l.rows));
    cursor = wantedT === null ? makespan : clamp(wantedT, 0, makespan);
    draw();
    if (autoplay) { autoplay = false; play(); }
  }

  // ---- the time cursor -----------------------------------------------------------------------
  function setCursor(time, settled = true) {
    cursor = clamp(time, 0, makespan);
    for (const lane of lanes) lane.setCursor(cursor);
    transport.scrub.value = String(cursor);
    const text = t('tl.readout', { t: formatNumber(cursor, 2), end: formatNumber(makespan) });
    transport.readout.value = text;
    transport.scrub.setAttribute('aria-valuetext', text);
    if (settled) {
      const value = cursor >= makespan ? null : atTick(cursor);
      lastReported = value;
      report({ t: value });
    }
  }

  function announce() {
    status.textContent = t('tl.readout', { t: formatNumber(cursor, 2), end: formatNumber(makespan) });
  }

  function step(kind, sign) {
    if (!lanes.length) return;
    pause();
    let target = cursor;
    if (kind === 'op') target = sign > 0 ? nextEvent(events, cursor) : prevEvent(events, cursor);
    else if (kind === 'unit') target = sign > 0 ? Math.floor(cursor + 1 + 1e-9) : Math.ceil(cursor - 1 - 1e-9);
    else if (kind === 'edge') target = sign > 0 ? makespan : 0;
    setCursor(target);
    announce();
  }

  function tick(now) {
    const dt = Math.min(0.1, (now - lastFrameTime) / 1000); // a background tab must not jump ahead
    lastFrameTime = now;
    if (prefersReducedMotion()) {
      // Still frames: jump to the next op boundary at a calm, fixed pace instead of gliding.
      reducedAccum += dt * 1000 * speed;
      if (reducedAccum >= REDUCED_STEP_MS) {
        reducedAccum = 0;
        setCursor(nextEvent(events, cursor), false);
      }
    } else {
      setCursor(cursor + dt * speed * (makespan / SECONDS_PER_RUN), false);
    }
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
    if (tableMode && lanes.length && !tables.firstChild) tables.append(...buildTables(lanes, t));
    scroll.hidden = tableMode && lanes.length > 0; // a message stays visible in table mode
    tables.hidden = !tableMode;
    legendSlot.hidden = tableMode;
    transport.table.setAttribute('aria-pressed', String(tableMode));
  }

  // ---- tooltips: hover and keyboard focus show the same details --------------------------------
  const TIP_TARGETS = '.dpl-op, .dpl-part, .dpl-exposed';
  function tipText(g) {
    if (g.classList.contains('dpl-op')) return g.getAttribute('aria-label');
    // Parts carry data only (thousands of them): their text is written when hovered.
    const d = g.dataset;
    const lane = lanes.find((l) => l.svg.contains(g));
    const layers = lane?.result.costs?.comm?.layers ?? DEFAULT_COMM.layers;
    const part = d.part ? { ...d, label: partLabel(d.part, d.pass) } : { ...d };
    return describePart(part, t, (v) => formatNumber(Number(v)), layers);
  }
  function showTip(g) {
    tooltip.textContent = tipText(g);
    tooltip.hidden = false;
    const box = g.getBoundingClientRect();
    const host = root.getBoundingClientRect();
    const tipWidth = tooltip.offsetWidth;
    const left = clamp(box.left - host.left + box.width / 2 - tipWidth / 2, 0, Math.max(0, host.width - tipWidth));
    tooltip.style.left = `${left}px`;
    tooltip.style.top = `${box.top - host.top - tooltip.offsetHeight - 6}px`;
  }
  function hideTip() { tooltip.hidden = true; }

  // ---- keyboard --------------------------------------------------------------------------------
  /** Arrow keys inside the chart move between op cells (roving tabindex), like a grid. */
  function onCellKey(event, g) {
    const target = cellTarget(lanes.find((l) => l.svg.contains(g)).cells, g, event.key);
    if (target !== undefined) {
      event.preventDefault();
      if (!target) return;
      g.setAttribute('tabindex', '-1');
      target.setAttribute('tabindex', '0');
      target.focus();
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

  function onKey(event) {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (target.classList && target.classList.contains('dpl-op')) {
      onCellKey(event, target);
      if (event.defaultPrevented || event.key !== ' ') return;
    }
    const inScrub = target === transport.scrub;
    const formField = !inScrub && /^(SELECT|INPUT|TEXTAREA)$/.test(target.tagName);
    if (formField) return;
    const key = event.key;
    if (key === ' ' || key === 'k') {
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
    table: () => {
      tableMode = !tableMode;
      applyTableMode();
      report({ table: tableMode });
    },
    streams: toggleStreams,
  };

  root.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action]');
    if (button && root.contains(button)) actions[button.dataset.action]();
  });
  root.addEventListener('keydown', onKey);
  transport.scrub.addEventListener('input', () => { pause(); setCursor(Number(transport.scrub.value)); });
  transport.scrub.addEventListener('change', announce);
  transport.speed.addEventListener('change', () => {
    speed = Number(transport.speed.value);
    report({ speed });
  });
  scroll.addEventListener('pointerover', (e) => { const g = e.target.closest(TIP_TARGETS); if (g) showTip(g); });
  scroll.addEventListener('pointerout', (e) => { if (e.target.closest(TIP_TARGETS)) hideTip(); });
  scroll.addEventListener('focusin', (e) => {
    const g = e.target.closest('.dpl-op');
    if (g) {
      showTip(g);
      // Bring a focused cell into view inside the horizontally scrolling chart.
      g.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  });
  scroll.addEventListener('focusout', hideTip);

  // Redraw when the available width changes (rotate, resize), not on every pixel.
  const resize = new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (lanes.length && !tableMode && Math.abs(scroll.clientWidth - lastWidth) > 24) draw();
    }, 120);
  });
  resize.observe(element);

  return {
    update(state) {
      const key = JSON.stringify(state.configs);
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
      const wanted = state.t === undefined ? null : state.t;
      if (state.autoplay) autoplay = true;
      if (key !== configKey) {
        configKey = key;
        wantedT = wanted;
        lastReported = wanted;
        const titles = state.titles || state.configs.map((c) => c.schedule);
        if (!lanes.length) reserveHeight(state.configs);
        simulate(state.configs, titles);
      } else if (streamsChanged && lanes.length) {
        draw();
      }
      if (wanted !== lastReported && lanes.length && !playing) {
        // Only a cursor the widget did not report itself (a pasted URL, back/forward) moves it.
        lastReported = wanted;
        setCursor(wanted === null ? makespan : wanted, false);
      }
    },
    destroy() {
      token += 1;
      cancelAnimationFrame(frame);
      resize.disconnect();
      clearTimeout(resizeTimer);
      root.remove();
    },
    // For tests and the lesson reader: the results currently drawn.
    get results() { return lanes.map((l) => l.result); },
  };
}
