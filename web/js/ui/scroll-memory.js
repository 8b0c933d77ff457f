// Where the learner was on each view of the page, so that Back from the timeline explorer (opened
// from a lesson widget) lands on the same paragraph of the lesson, not at its top. The views are
// sections of one page that stay mounted while hidden; only the window's scroll position is lost
// when one is shown, so it is kept per view as the learner scrolls and put back on return.
// The browser's own restoration is switched off: it runs before the view is shown, on a page of
// the wrong height.

/** createScrollMemory(win) -> { show(view) }: call show() after the sections for `view` are visible. */
export function createScrollMemory(win = window) {
  const positions = new Map(); // view -> scrollY
  let current = null;
  if ('scrollRestoration' in win.history) win.history.scrollRestoration = 'manual';
  let pending = 0;
  win.addEventListener('scroll', () => {
    // Read once per frame: scroll events come faster than anyone reads the position back.
    if (pending || current === null) return;
    const view = current;
    pending = win.requestAnimationFrame(() => {
      pending = 0;
      if (view === current) positions.set(view, win.scrollY);
    });
  }, { passive: true });
  return {
    show(view) {
      if (view === current) return;
      // The position of the view being left is the one its scroll events recorded: by now the
      // next view is shown and scrollY may already be clamped to that shorter page.
      win.cancelAnimationFrame(pending);
      pending = 0;
      current = view;
      win.scrollTo(0, positions.get(view) ?? 0);
    },
  };
}
