// The lesson's contents as data, for the contents list that follows the reader
// (views/lesson-contents.js): which section the reader is in, how much of each section has been
// scrolled through, and how many of each section's activities (quiz questions, exercises) are done,
// from the learner's progress record (lib/progress.js). DOM-free (tested under Node): the view
// measures the page and hands plain numbers in.

/**
 * How far the reader has got through each section: 0 (not reached) to 1 (scrolled past), from the
 * sections' tops (`tops`, ascending, page pixels), where the last one ends (`end`) and the reading
 * line (`line`: the page y a reader is reading at, a little below the top of the viewport).
 */
export function readFractions(tops, end, line) {
  return tops.map((top, i) => {
    const bottom = i + 1 < tops.length ? tops[i + 1] : end;
    if (line <= top) return 0;
    if (line >= bottom || bottom <= top) return 1;
    return (line - top) / (bottom - top);
  });
}

/** The index of the section the reading line is in (the last whose top it has passed; 0 before all). */
export function currentSection(tops, line) {
  let current = 0;
  tops.forEach((top, i) => { if (line >= top) current = i; });
  return current;
}

/**
 * Done and total activities of one section: `activities` [{kind: 'quiz' | 'exercise', id}] (a quiz
 * question's qid, an exercise's id) against `entry`, the lesson's progress record: a question is
 * done once its latest answer is right, an exercise once it was solved.
 */
export function activityProgress(activities, entry) {
  const done = activities.filter(({ kind, id }) => (kind === 'quiz' ? entry?.answers?.[id]?.correct === true : entry?.exercises?.[id]?.correct === true)).length;
  return { done, total: activities.length };
}
