// embed.html?widget=timeline|sweep&schedule=…&ranks=…&theme=light|dark&lang=<one of lib/locales.js's LANGS>
// Mounts one widget from the query string and tells the parent page its height with
// postMessage({type: 'dualpipe-lab:height', height}) so the iframe can fit it; at a fixed iframe
// height the page simply scrolls.
import { mountWidget } from './widget-kit.js';
import { LANGS } from '../lib/locales.js';
import { fontFor, addFontStylesheet } from './locale-fonts.js';

const params = new URLSearchParams(location.search);
const theme = params.get('theme');
if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
if (LANGS.includes(params.get('lang'))) document.documentElement.lang = params.get('lang');

// The web font of the language's script (lib/font-sets.js), which the widget puts first in its
// stack: embed.html's own stylesheets declare Devanagari alone (css/fonts.css), so an Arabic,
// Chinese or Russian widget would draw boxes on a machine without a system font for its script.
const font = fontFor(document.documentElement.lang, new URL('../../generated/fonts/', import.meta.url));
const declared = font && [...document.fonts].some((face) => face.family.replace(/^["']|["']$/g, '') === font.family);
if (font && !declared) addFontStylesheet(font.href);

mountWidget(document.getElementById('embed-root'), params);

let lastHeight = 0;
function postHeight() {
  if (window.parent === window) return;
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === lastHeight) return;
  lastHeight = height;
  window.parent.postMessage({ type: 'dualpipe-lab:height', height }, '*');
}
new ResizeObserver(postHeight).observe(document.documentElement);
window.addEventListener('load', postHeight);
