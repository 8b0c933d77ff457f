// The lesson's contents list, following the reader: its sections (the title's opening, then each
// ## section, an optional one tagged so), the one being read marked (aria-current), how far each has been scrolled through
// (a thin bar), and for a section with quiz questions or exercises how many are done. Sticky beside
// the lesson on a wide screen (css/lesson.css); on a narrow one a "Contents" button, shown once the
// opening figure is scrolled past, opens it as a sheet. A click scrolls to the section and moves
// the focus to its heading. The numbers come from lib/lesson-outline.js.
// mount(element, deps) -> { update(), destroy() }
//   deps.t   deps.article (the rendered lesson)   deps.progress: {get(), onChange(fn) -> unsubscribe}
//   deps.reducedMotion() -> boolean
import { h, uniqueId } from '../ui/dom.js';
import { readFractions, currentSection, activityProgress } from '../lib/lesson-outline.js';

/** The reading line: this share of the viewport's height below its top. */
const LINE = 0.3;
const ACTIVITIES = '.dpl-quiz-q[data-qid], .exercise-widget[data-exercise]';

export function mount(element, deps) {
  const { t, article } = deps;
  const prefix = uniqueId('dpl-toc');
  const headings = [article.querySelector('h1'), ...article.querySelectorAll(':scope > h2')].filter(Boolean);
  for (const heading of headings) if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;

  const entries = headings.map((heading, index) => {
    const bar = h('span', { class: 'lesson-toc-bar', 'aria-hidden': 'true' }, [h('span', { class: 'lesson-toc-fill' })]);
    const count = h('span', { class: 'lesson-toc-count', hidden: true });
    // An optional deep dive's heading carries its tag (lesson-reader.js); the entry says it shorter.
    const title = [...heading.childNodes].filter((n) => !n.classList?.contains('deep-dive-tag')).map((n) => n.textContent).join('').trim();
    const optional = heading.classList.contains('is-optional') ? h('span', { class: 'lesson-toc-optional', text: t('toc.optional') }) : null;
    const link = h('a', { href: heading.id ? `#${heading.id}` : '#', class: 'lesson-toc-link', dataset: { section: index } }, [
      h('span', { class: 'lesson-toc-text' }, [title, optional ? ' ' : null, optional]), count,
    ]);
    return { heading, link, bar, count, item: h('li', {}, [link, bar]) };
  });
  const listId = `${prefix}-list`;
  const close = h('button', { type: 'button', class: 'dpl-btn lesson-toc-close', 'aria-label': t('toc.close') }, ['×']);
  const nav = h('nav', { class: 'lesson-toc', id: listId, 'aria-labelledby': `${prefix}-title` }, [
    h('div', { class: 'lesson-toc-head' }, [h('h2', { class: 'lesson-toc-title', id: `${prefix}-title`, text: t('toc.title') }), close]),
    h('ol', {}, entries.map((e) => e.item)),
  ]);
  const toggle = h('button', { type: 'button', class: 'dpl-btn lesson-toc-toggle', 'aria-expanded': 'false', 'aria-controls': listId, hidden: true }, [t('toc.open')]);
  element.append(nav, toggle);

  let tops = [];
  let end = 0;
  let frame = 0;

  /** Where each section starts, in page pixels (the lesson grows as its widgets draw). */
  function measure() {
    tops = headings.map((el) => el.getBoundingClientRect().top + scrollY);
    end = article.getBoundingClientRect().bottom + scrollY;
  }

  function paint() {
    frame = 0;
    if (!tops.length) measure();
    const line = scrollY + innerHeight * LINE;
    const read = readFractions(tops, end, line);
    const current = currentSection(tops, line);
    entries.forEach((e, i) => {
      e.bar.firstChild.style.transform = `scaleX(${read[i].toFixed(3)})`;
      if (i === current) e.link.setAttribute('aria-current', 'location');
      else e.link.removeAttribute('aria-current');
    });
    // The button appears once the opening figure has scrolled by (it would cover it otherwise).
    toggle.hidden = scrollY < innerHeight * 0.8;
  }
  const schedule = () => { if (!frame) frame = requestAnimationFrame(paint); };

  /** Each section's quiz questions and exercises, and how many are done. */
  function count() {
    const bySection = entries.map(() => []);
    for (const el of article.querySelectorAll(ACTIVITIES)) {
      let section = 0;
      headings.forEach((heading, i) => { if (heading.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) section = i; });
      bySection[section].push(el.dataset.qid ? { kind: 'quiz', id: el.dataset.qid } : { kind: 'exercise', id: el.dataset.exercise });
    }
    const entry = deps.progress.get();
    entries.forEach((e, i) => {
      const { done, total } = activityProgress(bySection[i], entry);
      e.count.hidden = total === 0;
      e.count.replaceChildren(h('span', { 'aria-hidden': 'true', text: `${done === total ? '✓ ' : ''}${done}/${total}` }),
        h('span', { class: 'visually-hidden', text: t('toc.activities', { done, total }) }));
      e.item.dataset.done = total && done === total ? '1' : '0';
    });
  }

  function setOpen(open) {
    nav.classList.toggle('is-open', open);
    toggle.setAttribute('aria-expanded', String(open));
    if (open) (nav.querySelector('[aria-current]') || entries[0]?.link)?.focus();
  }

  nav.addEventListener('click', (event) => {
    const link = event.target.closest('a.lesson-toc-link');
    if (!link) return;
    event.preventDefault(); // the address holds the page's state, not a section
    const { heading } = entries[Number(link.dataset.section)];
    heading.scrollIntoView({ block: 'start', behavior: deps.reducedMotion?.() ? 'auto' : 'smooth' });
    heading.focus({ preventScroll: true });
    setOpen(false);
  });
  close.addEventListener('click', () => { setOpen(false); toggle.focus(); });
  toggle.addEventListener('click', () => setOpen(!nav.classList.contains('is-open')));
  nav.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && nav.classList.contains('is-open')) {
      setOpen(false);
      toggle.focus();
    }
  });

  addEventListener('scroll', schedule, { passive: true });
  addEventListener('resize', schedule, { passive: true });
  const resize = new ResizeObserver(() => { tops = []; schedule(); });
  resize.observe(article);
  // The quiz and the exercises arrive after the lesson (fetched): count again when they do.
  const added = new MutationObserver(count);
  added.observe(article, { childList: true });
  const unsubscribe = deps.progress.onChange(count);
  count();
  schedule();

  return {
    update() {},
    destroy() {
      cancelAnimationFrame(frame);
      removeEventListener('scroll', schedule);
      removeEventListener('resize', schedule);
      resize.disconnect();
      added.disconnect();
      unsubscribe();
      nav.remove();
      toggle.remove();
    },
  };
}
