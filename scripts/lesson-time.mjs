// How long the lesson takes, computed from its files, so the time it states is a count and not a
// guess (issue 29, "an honest path"): the core path is everything not marked as an optional deep
// dive (a heading ending in `<!-- optional -->`, see scripts/render-lesson.mjs), the exercises
// whose definition does not say `optional`, and the quiz. The build (scripts/build-site.mjs)
// writes the result into the page wherever the lesson says {{time:core}} or {{time:optional}};
// tests/lessons/lesson-time.test.mjs recounts it from the files and checks the core path fits in
// an hour and the page states what the count gives.
//
// Time is measured on the English lesson, the source the translations follow: word counts do not
// carry across languages (Hindi writes postpositions and auxiliaries as words of their own, so the
// same sentence has more of them), and the Hindi page teaches the same sections, figures and
// exercises, marked optional in the same places (the test checks that), so it states the same time.

import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

/** The rates, each with its reason. Minutes unless the name says otherwise. */
export const RATES = Object.freeze({
  // Prose at 200 words a minute (issue 29 sets it): below the 238 words a minute adults read
  // non-fiction silently (Brysbaert, "How many words do we read per minute?", Journal of Memory
  // and Language 109, 2019), because this prose is dense with formulas and numbers to check.
  wordsPerMinute: 200,
  // A figure (a live timeline, the pair table, the memory table, the worked trace): about 20 s to
  // take in its lanes and its numbers, and 40 s for the one change the text asks of most of them
  // (more ranks, another F&B) and to watch the result. The opening figure plays for about 12 s.
  figure: 1,
  // An exercise: the core ones (2 and 3) have three answers each, the optional 1 four. A prompt
  // of 100 to 170 words takes under a minute to read; each answer is looked up on a figure or in
  // the trace, or worked out in a line of arithmetic, entered, and often tried a second time after
  // a "too high": about 2 minutes an answer, 7 to 9 an exercise. (The optional 4 and 5, with six
  // to eight answers each, take longer; the 8 counted for them is a floor.)
  exercise: 8,
  // A quiz question: its question, options and explanation are read at the prose rate (counted
  // from quiz.json), plus 15 s to weigh the options before choosing.
  quizQuestion: 0.25,
});

const HEADING = /^(#{1,6})\s+(.*?)\s*$/;
const MARKER = /<!--\s*([a-z0-9 -]*?)\s*-->\s*$/;
const FENCE = /^```/;
// A word has a letter or a digit; a quote of the simulator ({{id.path|as quoted}}) is one word.
const WORD = /[\p{L}\p{N}]/u;

/** The words of one line of prose, as a reader counts them. */
function wordsOf(line) {
  if (/^\s*\|?[\s:|-]+\|[\s:|-]*$/.test(line)) return 0; // a table's |---|---| rule
  const text = line
    .replace(/^\s*(?:>\s*)?(?:\d+[.)]|[-*+])\s/, ' ') // a list item's marker
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\{\{[^}]*\}\}/g, ' N ')
    .replace(/\\\|/g, ' ')
    .replace(/[|*_`#>]/g, ' ');
  return text.split(/\s+/).filter((token) => WORD.test(token)).length;
}

/**
 * The lesson's Markdown split into its core path and its optional deep dives: words of prose and
 * figures (fenced blocks) in each. A heading whose marker comment holds the word `optional` opens
 * a deep dive that runs to the next heading of the same or a higher level.
 */
export function countLesson(markdown) {
  const parts = { core: { words: 0, figures: 0 }, optional: { words: 0, figures: 0 } };
  let inFence = false;
  let optionalLevel = 0; // the level of the open deep dive's heading; 0: none open
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) {
      if (!inFence) parts[optionalLevel ? 'optional' : 'core'].figures += 1;
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1].length;
      if (optionalLevel && level <= optionalLevel) optionalLevel = 0;
      const marker = MARKER.exec(heading[2]);
      if (marker && marker[1].split(/\s+/).includes('optional')) {
        if (optionalLevel) throw new Error(`"${heading[2]}": an optional deep dive inside another`);
        optionalLevel = level;
      }
    }
    parts[optionalLevel ? 'optional' : 'core'].words += wordsOf(line);
  }
  return parts;
}

/** The words a learner reads in one quiz question: the question, its options, its explanation. */
function quizWords(question) {
  return [question.question, ...question.options, question.explanation].reduce((n, text) => n + wordsOf(text), 0);
}

/**
 * Minutes of the core path and of the optional deep dives, with what they are made of:
 * `markdown` the English lesson, `exercises` its exercise definitions ({id, optional?}), `quiz`
 * its quiz.json. Exact minutes; the page states them rounded to the nearest minute.
 */
export function lessonTime({ markdown, exercises, quiz }) {
  const parts = countLesson(markdown);
  const coreExercises = exercises.filter((e) => !e.optional).length;
  const quizQuestions = quiz.questions.length;
  const quizMinutes = quiz.questions.reduce((sum, q) => sum + quizWords(q), 0) / RATES.wordsPerMinute + quizQuestions * RATES.quizQuestion;
  const minutes = (part, exerciseCount) => part.words / RATES.wordsPerMinute + part.figures * RATES.figure + exerciseCount * RATES.exercise;
  return {
    core: { ...parts.core, exercises: coreExercises, quizQuestions, minutes: minutes(parts.core, coreExercises) + quizMinutes },
    optional: { ...parts.optional, exercises: exercises.length - coreExercises, minutes: minutes(parts.optional, exercises.length - coreExercises) },
  };
}

/** The whole minutes the page states for a part ("core" or "optional") of `time` (lessonTime's). */
export const statedMinutes = (time, part) => Math.round(time[part].minutes);

/**
 * The lesson's time counted from its files in `dir` (lessons/): `<name>.en.md`, every
 * `exercises/*.json` and `quiz.json`. What the build states, through statedMinutes.
 */
export async function lessonFilesTime(dir, name = 'dualpipe') {
  const read = (file) => readFile(path.join(dir, file), 'utf8');
  const exercises = [];
  for (const f of (await readdir(path.join(dir, 'exercises'))).filter((f) => f.endsWith('.json')).sort()) {
    exercises.push(JSON.parse(await read(path.join('exercises', f))));
  }
  return lessonTime({ markdown: await read(`${name}.en.md`), exercises, quiz: JSON.parse(await read('quiz.json')) });
}
