// web/js/lib/first-view.js under Node: the view a hash names, as state.js reads it, and where the
// lesson's text is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { viewOf, lessonTextPath, VIEWS } from '../../web/js/lib/first-view.js';
import { parseParams } from '../../web/js/state.js';

test('the view a hash names is the one state.js parses from it', () => {
  for (const hash of ['', '#', '#view=timeline', '#lang=hi&view=sweep', '#view=planner&plan=x', '#view=nope', '#view=', '#costs=1&view=lesson', '#view=Timeline']) {
    assert.equal(viewOf(hash), parseParams(hash).state.view, hash);
  }
  assert.equal(viewOf('#view=timeline'), 'timeline');
  assert.equal(viewOf('#view=nope'), VIEWS[0]);
});

test('the lesson\'s text lives where build-site writes it, per language', () => {
  assert.equal(lessonTextPath('en'), 'generated/lessons/dualpipe.en.html');
  assert.equal(lessonTextPath('hi', 'other'), 'generated/lessons/other.hi.html');
});
