// web/js/lib/custom-schedule-text.js under Node: a hand-written schedule's text becomes the
// request core's simulate takes (the smallest shape holding every label), core's error paths map
// back to lines and ops, and a simulated timeline written back as labels is exactly what the CLI
// prints and runs again to the same timeline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readScheduleText, locate, scheduleText, opLabel } from '../../web/js/lib/custom-schedule-text.js';
import { normalizeTimeline } from '../../web/js/lib/timeline-data.js';
import { pipesim } from './helpers.mjs';

const NATIVE_CLI = fileURLToPath(new URL('../../build/native/pipesim', import.meta.url));

test('lines of labels read as rankOps, with stages, directions and micro-batches from the labels', () => {
  const text = '# two ranks\nF0.0@0 F0.1@0 B0.0@0 B0.1@0\n\n  F0.0@1, B0.0@1 FB(F0.1@1, B1.0@1) W0.2@3\n';
  const read = readScheduleText(text);
  assert.equal(read.kind, 'lines');
  assert.deepEqual(read.request, {
    schedule: 'custom', stages: 4, directions: 2, microbatches: 6,
    rankOps: [['F0.0@0', 'F0.1@0', 'B0.0@0', 'B0.1@0'], ['F0.0@1', 'B0.0@1', 'FB(F0.1@1,B1.0@1)', 'W0.2@3']],
  });
  assert.deepEqual(read.shape, { ranks: 2, stages: 4, directions: 2, microbatches: 6 });
  // Core's paths point back into the text: rank 1, op 2 is the FB pair on line 4.
  const at = locate(read, '/rankOps/1/2');
  assert.equal(text.slice(at.start, at.end), 'FB(F0.1@1, B1.0@1)');
  assert.deepEqual({ line: at.line, rank: at.rank, index: at.index }, { line: 4, rank: 1, index: 2 });
  assert.deepEqual(locate(read, '/rankOps/0'), { line: 2, rank: 0 });
  assert.equal(locate(read, '/rankOps'), null);
  assert.equal(locate(read, '/stages'), null);
});

test('the CLI\'s text output pastes as it printed: headings skipped, leading columns dropped', () => {
  const run = spawnSync(NATIVE_CLI, ['simulate', '--schedule', 'dualpipe', '--ranks', '4', '--microbatches', '8'], { encoding: 'utf8' });
  assert.equal(run.status, 0);
  const read = readScheduleText(run.stdout);
  const rankLines = run.stdout.split('\n').filter((line) => /^\s+\d+\s+[\d.]+\s+[\d.]+\s+\d+\s+\S*@/.test(line));
  assert.equal(rankLines.length, 4);
  assert.deepEqual(read.request.rankOps, rankLines.map((line) => line.trim().split(/\s+/).slice(4)));
  assert.deepEqual(read.shape, { ranks: 4, stages: 4, directions: 2, microbatches: 8 });
});

test('JSON is sent as written; text that is not JSON is left for core to explain; blank is empty', () => {
  assert.deepEqual(readScheduleText(' {"schedule":"custom","stages":1}\n'), { kind: 'json', request: { schedule: 'custom', stages: 1 } });
  assert.deepEqual(readScheduleText('{"schedule": '), { kind: 'json', request: null });
  assert.equal(readScheduleText('  \n \n').kind, 'empty');
  for (const text of ['# nothing yet', 'hello world']) {
    assert.deepEqual(readScheduleText(text), { kind: 'lines', request: null, where: [], shape: null }, 'no label at all: nothing to run');
  }
});

test('every built-in schedule written back as labels is what the CLI prints, and runs to the same timeline', async () => {
  const api = await pipesim();
  for (const { name } of api.catalogue().schedules) {
    const config = { schedule: name, ranks: 4, microbatches: 8, costs: { forward: 1, backward: 2, weight: 1, overlapped: 3 } };
    const result = api.simulate(config);
    const rows = normalizeTimeline(result);
    const cli = spawnSync(NATIVE_CLI, ['simulate', '--schedule', name, '--ranks', '4', '--microbatches', '8'], { encoding: 'utf8' });
    const printed = cli.stdout.split('\n').filter((line) => /^\s+\d+\s+[\d.]+\s+[\d.]+\s+\d+\s+\S*@/.test(line)).map((line) => line.trim().split(/\s+/).slice(4).join(' '));
    assert.equal(scheduleText(rows), printed.join('\n'), `${name}: the labels core prints`);
    const again = api.simulate({ ...readScheduleText(scheduleText(rows)).request, costs: config.costs });
    assert.deepEqual(normalizeTimeline(again), rows, `${name}: the same timeline again`);
  }
  assert.equal(opLabel({ kind: 'B', zb: true, dir: 1, mb: 12, stage: 0 }), 'Bz1.12@0');
  assert.equal(opLabel({ kind: 'FB', fdir: 0, fmb: 4, fstage: 1, bdir: 1, bmb: 0, bstage: 1 }), 'FB(F0.4@1,B1.0@1)');
});

test('a PyTorch schedule CSV reads as {"schedule":"custom","csv"} and core\'s /csv paths point at its cells', () => {
  // Rows as torch's _dump_csv writes them (\r\n), an idle cell, an overlapped pair with a ';'.
  const text = '0F0,0F1,,0B0,0B1\r\n1F0, 1B0 ,(1F1;1B1)OVERLAP_F_B\r\n\r\n';
  const read = readScheduleText(text);
  assert.equal(read.kind, 'csv');
  assert.deepEqual(read.request, { schedule: 'custom', csv: text });
  assert.deepEqual(read.shape, { ranks: 2, actions: 7 }, 'an OVERLAP_F_B pair is one action, as in torch');
  let at = locate(read, '/csv/0/3');
  assert.equal(text.slice(at.start, at.end), '0B0');
  assert.deepEqual({ line: at.line, rank: at.rank, index: at.index }, { line: 1, rank: 0, index: 3 });
  at = locate(read, '/csv/1/1');
  assert.equal(text.slice(at.start, at.end), '1B0', 'spaces around a cell are not part of it');
  at = locate(read, '/csv/1/2');
  assert.equal(text.slice(at.start, at.end), '(1F1;1B1)OVERLAP_F_B');
  assert.deepEqual(locate(read, '/csv/0/2'), { line: 1, rank: 0 }, 'an idle cell: its row');
  assert.equal(locate(read, '/csv'), null);
  assert.equal(locate(read, '/rankOps/0/0'), null);
  // Told apart as the CLI tells it: first character a digit, "(" or ","; and no op label's "@".
  assert.equal(readScheduleText(',0F0').kind, 'csv');
  assert.equal(readScheduleText('(0F0;0B0)OVERLAP_F_B').kind, 'csv');
  assert.equal(readScheduleText('0 24 2 4 F0.0@0 B0.0@0').kind, 'lines', 'the CLI\'s printed run stays labels');
  assert.equal(readScheduleText('{"schedule":"custom"}').kind, 'json');
});

test('the native CLI\'s export of every built-in schedule, read as the page reads it, simulates to the CLI\'s own run', async () => {
  const api = await pipesim();
  for (const { name } of api.catalogue().schedules) {
    const shape = { dualpipe: [4, 8], chimera: [4, 8], dualpipev: [3, 7] }[name] ?? [3, 6];
    const run = spawnSync(NATIVE_CLI, ['export', '--schedule', name, '--ranks', String(shape[0]), '--microbatches', String(shape[1])], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const read = readScheduleText(run.stdout);
    assert.equal(read.kind, 'csv', name);
    const costs = { forward: 1, backward: 2.5, weight: 1, overlapped: 3, p2pLatency: 0 };
    const fromCsv = api.simulate({ ...read.request, costs });
    const builtIn = api.simulate({ schedule: name, ranks: shape[0], microbatches: shape[1], costs });
    assert.equal(fromCsv.makespan, builtIn.makespan, name);
    assert.deepEqual(normalizeTimeline(fromCsv), normalizeTimeline(builtIn), name);
    // And the JS API writes the same CSV as the CLI, from the config or from the CSV itself.
    assert.equal(api.exportCsv({ schedule: name, ranks: shape[0], microbatches: shape[1] }), run.stdout, name);
    assert.equal(api.exportCsv(read.request), run.stdout, name);
  }
});

test('at unit costs the export is torch\'s step grid where the run has one; both forms read back to the same run', async () => {
  const api = await pipesim();
  // F = B = F&B = 1 (full backwards) and F = B - W = W = F&B = 1 (a zero-bubble split).
  const unit = [['--backward', '1', '--weight', '0.5', '--overlapped', '1'], ['--backward', '2', '--weight', '1', '--overlapped', '1']];
  let grids = 0;
  for (const { name } of api.catalogue().schedules) {
    const shape = { dualpipe: [4, 8], chimera: [4, 8], dualpipev: [3, 7] }[name] ?? [3, 6];
    for (const flags of unit) {
      const costs = { forward: 1, backward: Number(flags[1]), weight: Number(flags[3]), overlapped: 1, p2pLatency: 0 };
      const run = spawnSync(NATIVE_CLI, ['export', '--schedule', name, '--ranks', String(shape[0]), '--microbatches', String(shape[1]), ...flags], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      const config = { schedule: name, ranks: shape[0], microbatches: shape[1], costs };
      assert.equal(api.exportCsv(config), run.stdout, `${name}: the JS API writes the CLI's grid`);
      // Idle steps are empty cells: every rank's row, read cell by cell, puts each op in the
      // column of its start (every op lasting one step of the unit).
      const builtIn = api.simulate(config);
      const read = readScheduleText(run.stdout);
      assert.deepEqual(normalizeTimeline(api.simulate({ ...read.request, costs })), normalizeTimeline(builtIn), name);
      const rows = run.stdout.split('\r\n').filter((row) => row !== '');
      const grid = rows.some((row) => row.startsWith(',') || row.includes(',,'));
      if (!grid) continue;
      grids += 1;
      const starts = normalizeTimeline(builtIn).map((rank) => rank.map((op) => op.start));
      rows.forEach((row, r) => {
        const columns = row.split(',').flatMap((cell, column) => (cell === '' ? [] : [column]));
        assert.deepEqual(columns, starts[r], `${name} rank ${r}: column = start`);
      });
    }
  }
  assert.ok(grids >= 7, `${grids} grids`);
});
