// A timeline that plays by itself (the lesson's lead figure): it waits until the chart is on
// screen (a third of it, or half a screen of a taller one), so a learner who opens the page
// elsewhere or scrolls to it later still sees it move; if the chart leaves the screen before the
// learner touched it, it stops, rewinds and waits to be seen again. Never under reduced motion.
import { prefersReducedMotion } from './dom.js';

/**
 * Watches `target`. deps: canStart() (something is drawn and not playing), play(), rewind()
 * (stop and go back to the start). Returns {want(), arm(), stopped(), disconnect()}: want() asks
 * for one autoplay, arm() starts watching once the chart is drawn, stopped() says the learner took
 * over (a pause), disconnect() ends the watch.
 */
export function createAutoplay(target, { canStart, play, rewind }) {
  let wanted = false;
  let watch = null;
  let running = false; // playing by itself, the learner has not touched it since
  const start = () => {
    if (!wanted || !canStart()) return;
    wanted = false;
    if (prefersReducedMotion()) return;
    play();
    running = true;
  };
  return {
    want() { wanted = true; },
    arm() {
      if (!wanted || watch) return;
      if (typeof IntersectionObserver !== 'function') { start(); return; }
      watch = new IntersectionObserver((entries) => {
        const e = entries[entries.length - 1];
        if (e.isIntersecting && (e.intersectionRatio >= 0.3 || e.intersectionRect.height >= innerHeight * 0.5)) start();
        else if (!e.isIntersecting && running) {
          rewind();
          wanted = true; // seen again, it plays from the start
        }
      }, { threshold: [0, 0.1, 0.2, 0.3, 0.5] });
      watch.observe(target);
    },
    stopped() { running = false; },
    disconnect() { watch?.disconnect(); },
  };
}
