// Functions the timeline browser tests run inside the page (page.evaluate(fn)): each is
// self-contained, so it can be serialised into any page, frame or host that holds timelines.

/**
 * Where each timeline in the document (shadow roots included, in document order) draws its
 * last op: per timeline, the end of the last op of each SVG lane (`lanes`) and the latest of them
 * (`lastEnd`), that op's box (`last`), the plot area (`plot`, the cursor layer's box), the
 * chart's visible box (`box`), its scroll and client widths, how far anything in the widget
 * (controls included) sticks out past its right edge, and every rank label's box and font size;
 * and how far the page overflows its viewport sideways.
 */
export function timelineFits() {
  const all = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.classList.contains('dpl-timeline')) all.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  };
  const timelines = all.map((tl) => {
    const scroll = tl.querySelector('.dpl-scroll');
    let last = null;
    let lastEnd = -Infinity;
    let plot = null;
    const lanes = [...tl.querySelectorAll('.dpl-lane-plot')].map((lane) => {
      let end = -Infinity;
      for (const g of lane.querySelectorAll('.dpl-op')) {
        const e = Number(g.dataset.end);
        if (e > end) end = e;
        if (e > lastEnd) {
          lastEnd = e;
          last = rect(g);
          plot = rect(lane.querySelector('.dpl-plot-window'));
        }
      }
      return end;
    });
    const labels = [...tl.querySelectorAll('.dpl-rank-label')].map((l) => ({ ...rect(l), fontSize: parseFloat(getComputedStyle(l).fontSize) }));
    const widgetOverflow = tl.scrollWidth - tl.clientWidth;
    return { lanes, lastEnd, last, plot, box: rect(scroll), scrollWidth: scroll.scrollWidth, clientWidth: scroll.clientWidth, widgetOverflow, labels };
  });
  const doc = document.documentElement;
  return { timelines, viewportWidth: doc.clientWidth, pageOverflow: doc.scrollWidth - doc.clientWidth };
}
