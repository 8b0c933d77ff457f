// The timeline's playback, as a pure step: where the time cursor goes after one frame. At 1x it
// crosses the whole run in SECONDS_PER_RUN seconds, whatever the run's length or unit; under
// prefers-reduced-motion it does not glide but jumps to the next time an item starts or ends,
// one still frame per REDUCED_STEP_MS. The widget (views/timeline.js) owns the frames, the view
// that follows the cursor and the controls. DOM-free.
import { nextEvent } from './timeline-data.js';

/** At 1x the cursor crosses the whole run in this many seconds, whatever its length. */
export const SECONDS_PER_RUN = 12;
/** Under prefers-reduced-motion, play jumps item by item, one still frame per this many ms (at 1x). */
export const REDUCED_STEP_MS = 900;

/**
 * One frame of playback: `dt` seconds at `speed` from `cursor` on a run `makespan` long whose
 * items start or end at `events` (sorted). `waited`: ms accumulated towards the next still frame
 * under reduced motion. Returns {cursor, waited}; the cursor never passes makespan.
 */
export function playStep({ cursor, makespan, events, speed, dt, reduced, waited = 0 }) {
  if (!reduced) return { cursor: Math.min(makespan, cursor + dt * speed * (makespan / SECONDS_PER_RUN)), waited: 0 };
  const next = waited + dt * 1000 * speed;
  if (next < REDUCED_STEP_MS) return { cursor, waited: next };
  return { cursor: Math.min(makespan, nextEvent(events, cursor)), waited: 0 };
}
