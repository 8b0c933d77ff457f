// lib/figure-spec.js under Node: the course figure's config, quote-free or JSON, as the course
// page hands it over (its JSON.parse result, and the host's data-figure text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFigureSpec, figureConfig } from '../../web/js/lib/figure-spec.js';

test('a quote-free spec is read as key=value pairs', () => {
  assert.deepEqual(parseFigureSpec('dualpipe-schedule schedule=dualpipev ranks=4 microbatches=10'),
    { name: 'dualpipe-schedule', config: { schedule: 'dualpipev', ranks: '4', microbatches: '10' }, ignored: [] });
  assert.deepEqual(parseFigureSpec('  dualpipe-sweep   ranks=8\n axis=ranks ').config, { ranks: '8', axis: 'ranks' });
});

test('JSON still works where the host escapes it; a JSON cut short by unescaped quotes is named, not guessed', () => {
  assert.deepEqual(parseFigureSpec('dualpipe-schedule {"ranks":4,"costs":{"overlapped":2.4}}').config, { ranks: 4, costs: { overlapped: 2.4 } });
  // What the course's attribute keeps of data-figure="dualpipe-schedule {"ranks":4}".
  assert.deepEqual(parseFigureSpec('dualpipe-schedule {'), { name: 'dualpipe-schedule', config: {}, ignored: ['{'] });
});

test('words that are not key=value are kept aside for a notice', () => {
  assert.deepEqual(parseFigureSpec('dualpipe-schedule ranks=4 please').ignored, ['please']);
});

test('the course\'s parsed config wins when it holds anything; an empty one falls back to the host\'s text', () => {
  assert.deepEqual(figureConfig({ ranks: 8 }, 'dualpipe-schedule ranks=4').config, { ranks: 8 });
  assert.deepEqual(figureConfig({}, 'dualpipe-schedule ranks=4').config, { ranks: '4' });
  assert.deepEqual(figureConfig(undefined, 'dualpipe-schedule').config, {});
});
