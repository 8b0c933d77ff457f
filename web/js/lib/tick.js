// Core's time resolution (catalogue limits.tick): every simulated time is a whole number of ticks,
// so times the page derives (a part's start plus its offset, a cursor position) are rounded back
// onto that grid before they are compared, shown or written into the address. DOM-free.
import CATALOGUE from '../../generated/catalogue.js';

const TICKS_PER_UNIT = Math.round(1 / CATALOGUE.limits.tick);

/** `v` rounded to the nearest tick. */
export const atTick = (v) => Math.round(v * TICKS_PER_UNIT) / TICKS_PER_UNIT;
