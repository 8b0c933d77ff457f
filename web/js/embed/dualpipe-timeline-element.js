// <dualpipe-timeline schedule="dualpipe" ranks="8" microbatches="20"> for any page (light DOM,
// so the host page's CSS variables theme it). Load with
//   <script type="module" src="…/js/embed/dualpipe-timeline-element.js"></script>
// Attributes: widget (timeline|sweep) and every embed parameter of state.js's table (schedule
// compare ranks microbatches chunks timing (dependency|runtime) a2a-overlap delay-wgrad forward
// backward weight overlapped p2p (or p2p-latency) comm-ratio attn-share comm-layers t table
// streams memory speed axis theme (light|dark) lang (en|hi)).
import { mountWidget, ensureStylesheet } from './widget-kit.js';
import { EMBED_PARAMS } from '../state.js';
import { spokenLang } from '../lib/locales.js';
import { fontFor, addFontStylesheet } from './locale-fonts.js';

ensureStylesheet(import.meta.url);
const FONTS = new URL('../../generated/fonts/', import.meta.url);

const ATTRIBUTES = ['widget', ...EMBED_PARAMS];

export class DualpipeTimelineElement extends HTMLElement {
  static get observedAttributes() { return ATTRIBUTES; }

  params() {
    const out = {};
    for (const name of ATTRIBUTES) if (this.hasAttribute(name)) out[name] = this.getAttribute(name);
    return out;
  }

  connectedCallback() {
    if (this.widget) return;
    // The web font of its language's script, declared in the host document (widgets.css puts it
    // first in the widget's stack): without it, a machine with no such font draws boxes.
    const font = fontFor(spokenLang(this.getAttribute('lang')), FONTS);
    if (font) addFontStylesheet(font.href);
    this.widget = mountWidget(this, this.params());
  }

  attributeChangedCallback() {
    // Attributes set together (el.setAttribute ×3) coalesce into one re-simulation.
    if (!this.widget || this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.widget?.update(this.params());
    });
  }

  disconnectedCallback() {
    this.widget?.destroy();
    this.widget = null;
  }
}

if (!customElements.get('dualpipe-timeline')) customElements.define('dualpipe-timeline', DualpipeTimelineElement);
