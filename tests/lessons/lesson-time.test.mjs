// The lesson's honest path (issue 29, item 10): its core path (everything outside the optional
// deep dives, the exercises not marked optional, the quiz) fits in an hour, and the time the page
// states is that count, not a number typed into the text.
//
// The count is redone here from the files, independently of scripts/lesson-time.mjs (which the
// build uses): this one reads the lesson through markdown-it's tokens, that one line by line, and
// both must find the same words and figures. The rates are the module's RATES, argued there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import MarkdownIt from 'markdown-it';
import { LESSON_LANGS } from '../../web/js/lib/locales.js';
import { RATES, lessonFilesTime, statedMinutes } from '../../scripts/lesson-time.mjs';
import { renderLesson } from '../../scripts/render-lesson.mjs';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const lessonFile = (lang) => `lessons/dualpipe.${lang}.md`;
const exercises = readdirSync(new URL('lessons/exercises/', root)).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(read(`lessons/exercises/${f}`)));
const quiz = JSON.parse(read('lessons/quiz.json'));

const countWords = (text) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * The lesson's blocks through markdown-it: each heading (level, optional), and the words and
 * figures (fenced blocks) of the core path and of the optional deep dives. A quote of the
 * simulator ({{id.path|as quoted}}) reads as one word; a heading's marker comment as none.
 */
function walk(markdown) {
  const tokens = new MarkdownIt().parse(markdown, {});
  const parts = { core: { words: 0, figures: 0 }, optional: { words: 0, figures: 0 } };
  const headings = [];
  let open = 0;
  tokens.forEach((token, i) => {
    if (token.type === 'heading_open') {
      const level = Number(token.tag.slice(1));
      if (open && level <= open) open = 0;
      const marker = /<!--([^>]*)-->\s*$/.exec(tokens[i + 1].content);
      const optional = Boolean(marker && /(^|\s)optional(\s|$)/.test(marker[1]));
      if (optional) open = level;
      headings.push({ level, optional });
    }
    const part = parts[open ? 'optional' : 'core'];
    if (token.type === 'fence') part.figures += 1;
    if (token.type === 'inline') {
      part.words += countWords(token.content.replace(/<!--[\s\S]*?-->/g, ' ').replace(/\{\{[^}]*\}\}/g, ' N ').replace(/\\\|/g, ' ').replace(/[|*_`#>]/g, ' '));
    }
  });
  return { parts, headings };
}

const quizMinutes = quiz.questions.reduce((sum, q) => sum + countWords([q.question, ...q.options, q.explanation].join(' ').replace(/[|*_`#>]/g, ' ')), 0) / RATES.wordsPerMinute
  + quiz.questions.length * RATES.quizQuestion;
const coreExercises = exercises.filter((e) => !e.optional).length;
const { parts } = walk(read(lessonFile('en')));
const coreMinutes = parts.core.words / RATES.wordsPerMinute + parts.core.figures * RATES.figure + coreExercises * RATES.exercise + quizMinutes;

test('the core path fits in 60 minutes: its words at the reading rate, its figures, its exercises and the quiz', () => {
  assert.ok(parts.core.words > 1000 && parts.core.figures >= 5 && coreExercises >= 2, `a core path worth the name: ${JSON.stringify(parts.core)}, ${coreExercises} exercises`);
  assert.ok(parts.optional.words > 0, 'some of the lesson is marked as an optional deep dive');
  assert.ok(coreMinutes <= 60, `the core path takes ${coreMinutes.toFixed(1)} minutes (${parts.core.words} words, ${parts.core.figures} figures, ${coreExercises} exercises, quiz ${quizMinutes.toFixed(1)})`);
});

test('the build counts the same words, figures and minutes as this test', async () => {
  const time = await lessonFilesTime(new URL('lessons/', root).pathname);
  assert.deepEqual({ words: time.core.words, figures: time.core.figures }, parts.core);
  assert.deepEqual({ words: time.optional.words, figures: time.optional.figures }, parts.optional);
  assert.equal(time.core.exercises, coreExercises);
  assert.ok(Math.abs(time.core.minutes - coreMinutes) < 1e-9, `${time.core.minutes} against ${coreMinutes}`);
});

for (const lang of LESSON_LANGS) {
  test(`${lang}: the page states the counted time, never a typed one`, async () => {
    const markdown = read(lessonFile(lang));
    // The "Time" line of the header (**Time:** / **समय:**) holds the placeholders and no digit.
    const line = markdown.split('\n').find((l) => l.includes('{{time:core}}'));
    assert.ok(line, 'the lesson states its time through {{time:core}}');
    assert.doesNotMatch(line.replace(/\{\{time:\w+\}\}/g, '').replace(/–\d|\d–/g, ''), /\d\d/, `a typed number of minutes: ${line}`);
    const time = await lessonFilesTime(new URL('lessons/', root).pathname);
    const stated = { core: statedMinutes(time, 'core'), optional: statedMinutes(time, 'optional') };
    assert.equal(stated.core, Math.round(coreMinutes));
    const { html } = renderLesson(markdown, { name: 'dualpipe', lang, source: lessonFile(lang), time: stated });
    const shown = Object.fromEntries([...html.matchAll(/<span class="lesson-time" data-part="(\w+)">(\d+)<\/span>/g)].map(([, part, n]) => [part, Number(n)]));
    assert.deepEqual(shown, stated);
  });
}

// The time is counted on the English lesson; a translation states it too, so it must mark the
// same parts optional and hold the same figures in each part.
test('every language marks the same headings optional and puts the same figures in each part', () => {
  const figuresOf = (markdown) => {
    const ids = { core: [], optional: [] };
    let open = 0;
    for (const line of markdown.replace(/^```[\s\S]*?^```$/gm, (fence) => fence.split('\n')[0]).split('\n')) {
      const heading = /^(#+) .*?(<!--([^>]*)-->)?\s*$/.exec(line);
      if (heading) {
        if (open && heading[1].length <= open) open = 0;
        if (/(^|\s)optional(\s|$)/.test(heading[3] ?? '')) open = heading[1].length;
      }
      const fence = /^```(\w+) ?([\w-]*)/.exec(line);
      if (fence) ids[open ? 'optional' : 'core'].push(`${fence[1]} ${fence[2]}`);
    }
    return ids;
  };
  const en = read(lessonFile('en'));
  for (const lang of LESSON_LANGS.filter((l) => l !== 'en')) {
    const other = read(lessonFile(lang));
    assert.deepEqual(walk(other).headings, walk(en).headings, `${lang}: headings and their optional marks`);
    assert.deepEqual(figuresOf(other), figuresOf(en), `${lang}: figures in the core path and in the deep dives`);
  }
});
