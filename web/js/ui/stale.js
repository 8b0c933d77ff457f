// The "out of date" state every result view shares: when new settings are rejected, the last
// good result stays on screen, dimmed, under a badge and a line saying why, instead of vanishing
// behind an error (the error itself is shown beside the field that caused it).
import { h, uniqueId } from './dom.js';

/**
 * Marks `target` (the element holding the last good result) stale or fresh. `why` is the line
 * beside the badge (null clears); `extra` an optional element after it (a fix button). The note
 * is the target's first child, announced politely; CSS dims everything else in the target.
 */
export function setStale(target, why, t, extra = null) {
  const previous = target.querySelector(':scope > .dpl-stale-note');
  if (!why) {
    target.classList.remove('dpl-is-stale');
    previous?.remove();
    return;
  }
  const note = h('div', { class: 'dpl-stale-note', id: previous?.id || uniqueId('dpl-stale'), role: 'status' }, [
    h('span', { class: 'dpl-stale-badge', text: t('stale.badge') }), ' ',
    h('span', { class: 'dpl-stale-why', text: why }),
    extra ? ' ' : null, extra,
  ]);
  if (previous) previous.replaceWith(note);
  else target.prepend(note);
  target.classList.add('dpl-is-stale');
}

/** True while `target` shows an out-of-date result. */
export const isStale = (target) => target.classList.contains('dpl-is-stale');
