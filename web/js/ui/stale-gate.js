// Keeps the last good timeline on screen when new settings are rejected. The gate runs a
// timeline view's configs first (through the memoising sim client, so the view's own run of
// them is a cache hit) and hands the view only configs that simulate; a rejected one leaves the
// view as it was, marked out of date (ui/stale.js), and reports the error for the form to show
// beside its field. Before anything was drawn there is nothing to keep: the view then shows the
// simulator's message itself. The timeline widget is wrapped, never changed.
import { setStale } from './stale.js';

/**
 * gate(view, host, deps) -> the view's {update, destroy, results}. `host` holds the view (it gets
 * the out-of-date note); deps: sim, t, onError?(error|null, index), onRun?(results) (the configs
 * that are drawn next, simulated), describe?(error, index) -> {why, extra?} or a promise of it (the
 * note's line and an optional fix button).
 */
export function gateTimeline(view, host, { sim, t, onError, onRun, describe }) {
  let token = 0;
  let key = '';
  let good = null; // {configs, titles} the view last drew
  let failed = null; // the rejected state, while the view shows the last good one

  return {
    update(state) {
      const next = JSON.stringify(state.configs);
      if (next === key) {
        // Cursor, table, speed or streams: for whatever the view shows now.
        view.update(failed && good ? { ...state, configs: good.configs, titles: good.titles } : state);
        return;
      }
      key = next;
      const mine = ++token;
      Promise.all(state.configs.map((c, index) => sim.simulate(c).catch((error) => { throw { error, index }; }))).then((results) => {
        if (mine !== token) return;
        good = { configs: state.configs, titles: state.titles };
        failed = null;
        setStale(host, null, t);
        onError?.(null);
        onRun?.(results);
        view.update(state);
      }, (tagged) => {
        if (mine !== token) return;
        const { error, index } = tagged && 'index' in tagged ? tagged : { error: tagged, index: 0 };
        if (!good) {
          view.update(state); // nothing to keep: the view says what is wrong
        } else {
          failed = state;
          // describe may answer later (it loads lib/error-fix.js with the first error).
          Promise.resolve(describe ? describe(error, index) : { why: t('stale.timeline') }).then(({ why, extra = null }) => {
            if (mine === token) setStale(host, why, t, extra);
          });
        }
        onError?.(error, index);
      });
    },
    destroy() {
      token += 1;
      setStale(host, null, t);
      view.destroy();
    },
    get results() { return view.results; },
    /** True while the view shows an older run than the settings ask for. */
    get stale() { return failed !== null; },
  };
}
