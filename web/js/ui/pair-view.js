// Exercise 3's chunk-pair view: one overlapped forward/backward pair as core's analyse_pair lays it
// out (DeepSeek-V3 Fig. 4): a compute stream and a communication stream, every part labelled
// ATTN(F), DISPATCH(F), MLP(B)... in the timeline's colours of their pass (forward, backward,
// weight part), all-to-alls outlined, drawn at the width it is given (on a phone part labels
// shorten to their letter: nothing scrolls sideways). After a check
// it marks which computation runs under the forward chunk's dispatch and combine, and animates the
// pair on a time cursor (requestAnimationFrame; under prefers-reduced-motion, still frames and
// step buttons). The comm model (ratio, attention share) is editable; core rejects bad values
// and the message appears under the field.
import { h, s, uniqueId, PLOT_DIR } from './dom.js';
import { icon } from './icons.js';
import { sig as sigIn } from './exercise-fields.js';
import { partClass, partText } from '../lib/stream-parts.js';
import { ticks } from '../lib/scale.js';
import { errorText } from '../lib/error-text.js';
import { showFieldError } from './field-error.js';
import { setStale } from './stale.js';
import { DEFAULT_COMM } from '../state.js';

/** The widest the diagram is drawn; narrower frames draw it at their own width. */
const MAX_W = 720;
const RIGHT = 16;
const LANE_H = 38;
const TOP = 12;
const GAP = 14;
const SECONDS = 7; // one pass of the cursor over the pair


/** The compute parts under one comm part, each as text in language `lang` ["MLP(B) 0.5", "MLP(W) 0.5"] (Spanish "MLP(B) 0,5"; a list for t.list). */
export function hidingText(pair, label, lang = undefined) {
  const entry = pair.hiding.find((x) => x.label === label && x.layer === 0) || pair.hiding.find((x) => x.label === label);
  if (!entry) return null;
  return { by: entry.hiddenBy.map((b) => `${b.label} ${sigIn(b.overlap, 4, lang)}`), exposed: entry.exposed, entry };
}

export function createPairView({ t, sim, reducedMotion = () => false, defaults = { ratio: DEFAULT_COMM.ratio, attnShare: DEFAULT_COMM.attnShare } }) {
  const prefix = uniqueId('dpl-pair');
  const sig = (v, digits = 4) => sigIn(v, digits, t.lang);
  const fields = {};
  const messages = {};
  const form = h('fieldset', { class: 'dpl-ex-inputs dpl-pair-form' }, [h('legend', { text: t('ex.pair.model') }), ...['ratio', 'attnShare'].map((name) => {
    const id = `${prefix}-${name}`;
    fields[name] = h('input', { type: 'number', id, name, step: 'any', min: 0, value: String(defaults[name]), 'aria-describedby': `${id}-msg ${id}-hint` });
    messages[name] = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
    return h('div', { class: 'dpl-field' }, [
      h('label', { for: id, text: t(`ex.pair.${name}`) }), fields[name],
      h('p', { class: 'dpl-field-hint', id: `${id}-hint`, text: t(`ex.pair.${name}.hint`) }), messages[name],
    ]);
  })]);
  const HEIGHT = TOP + 2 * LANE_H + GAP + 34;
  const svg = s('svg', { class: 'dpl-pair-svg', direction: PLOT_DIR, viewBox: `0 0 ${MAX_W} ${HEIGHT}`, role: 'img' });
  const stats = h('p', { class: 'dpl-pair-stats' });
  const readout = h('p', { class: 'dpl-pair-readout', 'aria-live': 'polite' });
  const play = h('button', { type: 'button', class: 'dpl-btn dpl-icon-btn', dataset: { action: 'pair-play' }, 'aria-label': t('ctl.play') }, [icon('play')]);
  const prev = h('button', { type: 'button', class: 'dpl-btn dpl-icon-btn', dataset: { action: 'pair-prev' }, 'aria-label': t('ex.pair.prev') }, [icon('prevOp')]);
  const next = h('button', { type: 'button', class: 'dpl-btn dpl-icon-btn', dataset: { action: 'pair-next' }, 'aria-label': t('ex.pair.next') }, [icon('nextOp')]);
  const controls = h('div', { class: 'dpl-pair-controls', hidden: true }, [h('div', { class: 'dpl-transport-buttons', dir: PLOT_DIR }, [prev, play, next]), readout]);
  const error = h('div', { class: 'dpl-pair-error' });
  // The last good pair, dimmed under a note while the form holds a value core rejects (ui/stale.js).
  const frameBox = h('div', { class: 'dpl-pair-frame' }, [svg]);
  const resultBox = h('div', { class: 'dpl-pair-result' }, [
    h('p', { class: 'dpl-pair-legend', text: t('ex.pair.legend') }), frameBox, stats, controls,
  ]);
  const element = h('div', { class: 'dpl-pair' }, [form, resultBox, error]);

  let pair = null;
  let cursor = null; // null: everything drawn, no cursor
  let highlighted = false;
  let raf = 0;
  let stepTimer = 0;
  let token = 0;
  let timer = 0;
  let listeners = [];
  let frameW = MAX_W; // the width drawn at: the frame's, up to MAX_W
  let gutter = 92; // the stream labels' column

  const scaleX = (v) => gutter + (v / (pair?.duration || 1)) * (frameW - gutter - RIGHT);
  const boundaries = () => [...new Set(pair.parts.flatMap((p) => [p.start, p.end]))].sort((a, b) => a - b);

  function draw() {
    svg.replaceChildren();
    frameW = Math.min(MAX_W, Math.max(200, Math.floor(frameBox.clientWidth - 8) || MAX_W));
    gutter = frameW < 480 ? 60 : 92;
    svg.setAttribute('viewBox', `0 0 ${frameW} ${HEIGHT}`);
    svg.setAttribute('width', frameW);
    svg.setAttribute('height', HEIGHT);
    if (!pair) return;
    const laneY = { compute: TOP, comm: TOP + LANE_H + GAP };
    for (const [stream, y] of Object.entries(laneY)) {
      svg.append(s('text', { x: 4, y: y + LANE_H / 2 + 4, class: 'dpl-rank-label', text: t(`ex.pair.${stream}`) }));
      svg.append(s('line', { x1: gutter, x2: frameW - RIGHT, y1: y + LANE_H + 0.5, y2: y + LANE_H + 0.5, class: 'dpl-grid' }));
    }
    if (highlighted) {
      for (const label of ['DISPATCH(F)', 'COMBINE(F)']) {
        for (const part of pair.parts.filter((p) => p.label === label)) {
          svg.append(s('rect', { x: scaleX(part.start), y: TOP - 6, width: scaleX(part.end) - scaleX(part.start), height: 2 * LANE_H + GAP + 12, class: `dpl-pair-band is-${part.part}` }));
        }
      }
    }
    pair.parts.forEach((part, index) => {
      const x = scaleX(part.start);
      const w = Math.max(1, scaleX(part.end) - x);
      const y = laneY[part.stream];
      const marked = highlighted && (part.label === 'DISPATCH(F)' || part.label === 'COMBINE(F)'
        || pair.hiding.some((hd) => (hd.label === 'DISPATCH(F)' || hd.label === 'COMBINE(F)') && hd.hiddenBy.some((b) => b.part === index)));
      // Right of the cursor, what has not run yet shows in grey, as on the timeline (css).
      const ahead = cursor !== null && part.start >= cursor;
      const g = s('g', { class: `dpl-pair-part ${partClass(part, 0)}${marked ? ' is-marked' : ''}${ahead ? ' is-ahead' : ''}`,
        dataset: { label: part.label, stream: part.stream, start: part.start, end: part.end, layer: part.layer } }, [
        s('rect', { x: x + 0.5, y: y + 2, width: w - 1, height: LANE_H - 4, rx: 3, class: 'dpl-cell' }),
        s('title', { text: `${part.label}${pair.costs?.comm?.layers > 1 ? ` · layer ${part.layer}` : ''}: ${sig(part.start)}–${sig(part.end)}` }),
      ]);
      if (cursor !== null && part.start < cursor && cursor < part.end) {
        const cx = scaleX(cursor);
        g.append(s('rect', { x: cx, y: y + 2, width: Math.max(0, x + w - 0.5 - cx), height: LANE_H - 4, rx: 3, class: 'dpl-cell dpl-pair-ahead' }));
      }
      const label = partText(part, w, 6.6);
      if (label) g.append(s('text', { x: x + w / 2, y: y + LANE_H / 2 + 4, 'text-anchor': 'middle', class: 'dpl-cell-label', text: label }));
      svg.append(g);
    });
    const axisY = TOP + 2 * LANE_H + GAP + 16;
    // As many ticks as the width holds (about one per 48 px), at round values.
    for (const v of ticks(0, pair.duration, Math.max(2, Math.floor((frameW - gutter - RIGHT) / 48)))) {
      svg.append(s('text', { x: scaleX(v), y: axisY, 'text-anchor': 'middle', class: 'dpl-tick', text: sig(v) }));
    }
    if (cursor !== null) {
      const x = scaleX(cursor);
      svg.append(s('line', { x1: x, x2: x, y1: TOP - 4, y2: TOP + 2 * LANE_H + GAP + 4, class: 'dpl-pair-cursor' }));
    }
    svg.setAttribute('aria-label', t('ex.pair.label', { parts: t.series(pair.parts.map((p) => `${p.label} ${sig(p.start)}–${sig(p.end)}`)) }));
  }

  function describeAt(time) {
    const running = pair.parts.filter((p) => p.start <= time && time < p.end).map((p) => p.label);
    return t('ex.pair.readout', { t: sig(time), end: sig(pair.duration), running: running.join(' | ') || '—' });
  }

  function setCursor(time, announce = true) {
    cursor = time;
    draw();
    if (announce) readout.textContent = describeAt(Math.min(time, pair.duration - 1e-9));
  }

  function stop() {
    cancelAnimationFrame(raf);
    clearTimeout(stepTimer);
    raf = 0;
    stepTimer = 0;
    play.replaceChildren(icon('play'));
    play.setAttribute('aria-label', t('ctl.play'));
  }

  function start() {
    if (!pair) return;
    if (cursor === null || cursor >= pair.duration) setCursor(0);
    play.replaceChildren(icon('pause'));
    play.setAttribute('aria-label', t('ctl.pause'));
    if (reducedMotion()) {
      const tick = () => {
        const nextTime = boundaries().find((b) => b > cursor + 1e-9);
        if (nextTime === undefined) { stop(); return; }
        setCursor(nextTime);
        stepTimer = setTimeout(tick, 900);
      };
      stepTimer = setTimeout(tick, 900);
      return;
    }
    let last = performance.now();
    const frame = (now) => {
      const dt = (now - last) / 1000;
      last = now;
      const nextTime = Math.min(pair.duration, cursor + (dt * pair.duration) / SECONDS);
      setCursor(nextTime, false);
      if (nextTime >= pair.duration) {
        readout.textContent = describeAt(pair.duration - 1e-9);
        stop();
        return;
      }
      raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
  }

  const on = (el, type, fn) => { el.addEventListener(type, fn); listeners.push([el, type, fn]); };
  on(play, 'click', () => (raf || stepTimer ? stop() : start()));
  on(prev, 'click', () => {
    stop();
    const b = boundaries().filter((x) => x < (cursor ?? pair.duration) - 1e-9);
    setCursor(b.length ? b[b.length - 1] : 0);
  });
  on(next, 'click', () => {
    stop();
    const b = boundaries().find((x) => x > (cursor ?? -1) + 1e-9);
    setCursor(b ?? pair.duration);
  });

  async function load() {
    const mine = ++token;
    const comm = {};
    for (const name of ['ratio', 'attnShare']) {
      const raw = fields[name].value.trim();
      comm[name] = raw === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
      showFieldError(messages[name], fields[name], null, { t });
    }
    error.replaceChildren();
    try {
      const value = await sim.overlapPair({ comm });
      if (mine !== token) return;
      setStale(resultBox, null, t);
      pair = value;
      stats.textContent = t('ex.pair.stats', {
        duration: sig(pair.duration), compute: sig(pair.compute), comm: sig(pair.comm),
        hidden: sig(pair.hidden), exposed: sig(pair.exposed), sequential: sig(pair.sequential),
      });
      if (cursor !== null) cursor = Math.min(cursor, pair.duration);
      draw();
      api.onUpdate?.(pair);
    } catch (err) {
      if (mine !== token) return;
      const field = Object.keys(fields).find((n) => err.path === `/costs/comm/${n}`);
      if (pair) setStale(resultBox, t('stale.pair'), t);
      if (field) {
        showFieldError(messages[field], fields[field], err, { config: { costs: { comm } }, t, onFix: fixComm });
      } else {
        error.replaceChildren(h('div', { class: 'dpl-error', role: 'alert' }, [h('p', { text: errorText(err, t.lang) })]));
      }
    }
  }
  // A one-click fix (ui/field-error.js) puts core's accepted value in the field and runs again.
  function fixComm(patch) {
    for (const [name, value] of Object.entries(patch.costs?.comm || {})) if (fields[name]) fields[name].value = String(value);
    clearTimeout(timer);
    load();
  }
  on(form, 'input', () => { clearTimeout(timer); timer = setTimeout(load, 350); });
  on(form, 'change', () => { clearTimeout(timer); load(); });
  load();
  // Drawn again at a new width (a phone turned, a window resized).
  let drawnWidth = 0;
  const resize = new ResizeObserver(() => {
    if (Math.abs(frameBox.clientWidth - drawnWidth) < 8) return;
    drawnWidth = frameBox.clientWidth;
    draw();
  });
  resize.observe(frameBox);

  const api = {
    element,
    onUpdate: null,
    get pair() { return pair; },
    /** After a check: mark what hides the forward chunk's all-to-alls and animate the pair. */
    reveal({ animate = true } = {}) {
      highlighted = true;
      controls.hidden = false;
      if (!pair) return;
      if (animate && !reducedMotion()) start();
      else setCursor(boundaries()[1] ?? pair.duration);
    },
    destroy() {
      stop();
      resize.disconnect();
      clearTimeout(timer);
      token += 1;
      for (const [el, type, fn] of listeners) el.removeEventListener(type, fn);
      listeners = [];
    },
  };
  return api;
}
