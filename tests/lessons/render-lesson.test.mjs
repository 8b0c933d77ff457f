// scripts/render-lesson.mjs, the lesson extensions issue 29 added: an optional deep dive (a heading
// marked `<!-- optional -->`) is tagged and its body boxed up to the next heading of its level or
// above; the stated time is written from the count the build passes in, never from the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderLesson, LessonError } from '../../scripts/render-lesson.mjs';

const render = (markdown, time = { core: 55, optional: 40 }) => renderLesson(markdown, { name: 't', source: 't.md', time });

test('a deep dive boxes its body up to the next heading of its level, and the next section is outside', () => {
  const { html, sections, deepDives } = render(['## Core <!-- core -->', 'a', '### Aside <!-- optional -->', 'b', '#### Deeper', 'c', '### Back', 'd', '## Later <!-- later optional -->', 'e'].join('\n\n'));
  assert.equal(html, [
    '<h2 id="core">Core</h2>', '<p>a</p>',
    '<h3 class="is-optional">Aside</h3>', '<div class="deep-dive">', '<p>b</p>', '<h4>Deeper</h4>', '<p>c</p>', '</div>',
    '<h3>Back</h3>', '<p>d</p>',
    '<h2 class="is-optional" id="later">Later</h2>', '<div class="deep-dive">', '<p>e</p>', '</div>', '',
  ].join('\n'));
  assert.deepEqual(sections, [{ id: 'core', level: 2, title: 'Core' }, { id: 'later', level: 2, title: 'Later', optional: true }]);
  assert.deepEqual(deepDives, [{ level: 3, title: 'Aside' }, { level: 2, title: 'Later' }]);
});

test('a deep dive inside another, or a heading with two anchors, is refused with its line', () => {
  assert.throws(() => render('## A <!-- optional -->\n\n### B <!-- optional -->\n'), (e) => e instanceof LessonError && /t\.md:3: an optional deep dive inside another/.test(e.message));
  assert.throws(() => render('## A <!-- a b -->\n'), (e) => e instanceof LessonError && /t\.md:1: a heading has one anchor \(got "a b"\)/.test(e.message));
});

test('the stated time is the count passed in; without one the lesson cannot render', () => {
  const { html } = render('**Time:** about {{time:core}} minutes, deep dives {{time:optional}}', { core: 56, optional: 50 });
  assert.equal(html, '<p><strong>Time:</strong> about <span class="lesson-time" data-part="core">56</span> minutes, deep dives <span class="lesson-time" data-part="optional">50</span></p>\n');
  assert.throws(() => renderLesson('{{time:core}}', { name: 't', source: 't.md' }), (e) => e instanceof LessonError && /\{\{time:core\}\} but the build gave no time/.test(e.message));
  assert.throws(() => render('{{time:total}}'), (e) => e instanceof LessonError && /"\{\{time:total\}\}" is not a quote/.test(e.message));
});
