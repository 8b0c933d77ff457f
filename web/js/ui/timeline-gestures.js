// Pointer gestures on a timeline chart, turned into view requests: ctrl/cmd + wheel and
// trackpad pinch (a wheel event with ctrlKey) zoom around the pointer; a horizontal wheel or
// shift + wheel pans; a mouse drag pans; two fingers pinch-zoom and one finger drags sideways
// (CSS touch-action: pan-y leaves vertical scrolling to the page). A plain vertical wheel is
// never taken: it scrolls the page the chart sits in.
import { wheelZoomFactor } from '../lib/timeline-viewport.js';

/**
 * Binds gestures on `element`. `at(clientX)` -> time under that x, or null outside the plot;
 * `pxToTime(dx)` -> time span of dx pixels; `onZoom(factor, anchorTime)`; `onPan(dt)`;
 * `canPan()` -> false when the whole run is shown (then drags and sideways wheels are the page's).
 * Returns unbind().
 */
export function bindGestures(element, { at, pxToTime, onZoom, onPan, canPan }) {
  const pointers = new Map(); // pointerId -> last clientX, clientY
  let pinch = null; // {distance} while two pointers are down

  function onWheel(event) {
    if (event.ctrlKey || event.metaKey) {
      const anchor = at(event.clientX);
      if (anchor === null) return;
      event.preventDefault();
      onZoom(wheelZoomFactor(event.deltaY, event.deltaMode), anchor);
      return;
    }
    const sideways = event.shiftKey ? event.deltaY || event.deltaX : Math.abs(event.deltaX) > Math.abs(event.deltaY) ? event.deltaX : 0;
    if (!sideways || !canPan()) return;
    event.preventDefault();
    onPan(pxToTime(sideways * (event.deltaMode === 1 ? 16 : 1)));
  }

  function onDown(event) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    if (at(event.clientX) === null) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y) };
    }
  }

  function onMove(event) {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const dx = event.clientX - last.x;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      const anchor = at((a.x + b.x) / 2);
      if (pinch.distance > 0 && anchor !== null) onZoom(distance / pinch.distance, anchor);
      pinch.distance = distance;
      return;
    }
    if (pointers.size === 1 && dx && canPan()) {
      if (!element.hasPointerCapture(event.pointerId)) element.setPointerCapture(event.pointerId);
      element.classList.add('is-panning');
      onPan(-pxToTime(dx));
    }
  }

  function onUp(event) {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!pointers.size) element.classList.remove('is-panning');
  }

  element.addEventListener('wheel', onWheel, { passive: false });
  element.addEventListener('pointerdown', onDown);
  element.addEventListener('pointermove', onMove);
  element.addEventListener('pointerup', onUp);
  element.addEventListener('pointercancel', onUp);
  return () => {
    element.removeEventListener('wheel', onWheel);
    element.removeEventListener('pointerdown', onDown);
    element.removeEventListener('pointermove', onMove);
    element.removeEventListener('pointerup', onUp);
    element.removeEventListener('pointercancel', onUp);
  };
}
