// Which runs a lesson widget draws, in one place for the widget (views/lesson-widget.js) and for
// the build, which computes the lesson's first widget ahead (scripts/first-runs.mjs). DOM-free.

/**
 * The runs a lesson widget draws for `config` (its ```sim``` config with the shared costs and its
 * own settings applied): with a compared schedule, that one first (drawn above), then its own.
 */
export function widgetRuns(config, compare = '') {
  return compare ? [{ ...config, schedule: compare }, config] : [config];
}
