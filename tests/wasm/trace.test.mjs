// traceImport() of the JS API (issue 28): on traces scripts/kineto-trace.py writes, the module
// returns what `pipesim trace-import --format json` prints, byte for byte once parsed, and what
// the script says it put in; text, bytes and a parsed trace read alike; bad traces throw a
// SimError with the rule and pointer core reports; the options are checked like any input.
import assert from 'node:assert/strict';
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SimError } from '../../wasm/pipesim.js';
import { MODULE_URL, nativeCli, pipesim, repoPath } from './helpers.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'pipesim-trace-'));

/** The trace the generator writes for `args`, with its expectations. */
function generate(name, ...args) {
  const file = path.join(work, `${name}.json`);
  const expect = path.join(work, `${name}.expect.json`);
  execFileSync('python3', [repoPath('scripts/kineto-trace.py'), '--out', file, '--expect', expect, ...args]);
  return { file, bytes: readFileSync(file), expect: JSON.parse(readFileSync(expect, 'utf8')) };
}

test('traceImport() returns what `pipesim trace-import --format json` prints, and what the generator put in', async () => {
  const api = await pipesim();
  const { file, bytes, expect } = generate('two-devices');
  const report = api.traceImport(bytes);
  assert.deepEqual(report, JSON.parse(nativeCli(['trace-import', file, '--format', 'json'])));
  const want = expect.report;
  assert.deepEqual(report.streams, want.streams);
  assert.deepEqual(report.devices, want.devices);
  assert.equal(report.overlap, want.overlap);
  assert.deepEqual(report.annotations, want.annotations);
  assert.deepEqual(report.order, want.order);
  assert.deepEqual(report.spans, want.spans);
  for (const key of ['forward', 'backward', 'weight', 'overlapped', 'commRatio', 'pairMs']) {
    assert.equal(report.derived[key].value, want.derived[key], key);
    assert.ok(report.derived[key].derivation.length > 0, key);
  }
  assert.deepEqual(report.derived.firstPair, want.derived.firstPair);
  // The derived costs run as they are: the modelled pair is overlapPair of them.
  assert.equal(api.overlapPair(report.derived.costs).duration, report.derived.modelPairMs.value);
  // Text, bytes in an ArrayBuffer, another view and the parsed trace read alike.
  const text = bytes.toString('utf8');
  assert.deepEqual(api.traceImport(text), report);
  assert.deepEqual(api.traceImport(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)), report);
  assert.deepEqual(api.traceImport(new DataView(bytes.buffer, bytes.byteOffset, bytes.length)), report);
  // A parsed trace is written back as JSON first; its absolute microsecond timestamps lost their
  // nanoseconds to JS numbers on the way (1.7e15 us: doubles 0.25 us apart), so only the counts match.
  const parsed = api.traceImport(JSON.parse(text));
  const counts = (r) => [r.gpuEvents, r.annotations.map((a) => [a.name, a.count, a.kernels])];
  assert.deepEqual(counts(parsed), counts(report));
});

test('traceImport() takes the comm pattern as an option, checked like any input', async () => {
  const api = await pipesim();
  const { bytes } = generate('one', '--devices', '1', '--layers', '1');
  const nccl = api.traceImport(bytes, { commPattern: 'nccl' });
  assert.equal(nccl.commPattern, 'nccl');
  assert.equal(api.traceImport(bytes).commPattern, api.catalogue().trace.commPattern);
  assert.ok(nccl.overlap !== api.traceImport(bytes).overlap);
  assert.throws(() => api.traceImport(bytes, { commPattern: 'a||b' }),
                (e) => e instanceof SimError && e.rule === 'profile.comm_pattern' && e.path === '/commPattern');
  assert.throws(() => api.traceImport(bytes, { pattern: 'x' }), (e) => e.rule === 'field.unknown');
  assert.throws(() => api.traceImport(bytes, 3), (e) => e.message === 'options must be a JSON object (got 3)');
});

test('a bad trace throws the SimError the CLI prints, with its rule and pointer', async () => {
  const api = await pipesim();
  for (const variant of ['truncated', 'wrong-type', 'huge-number', 'missing-field', 'duplicate-key', 'foreign',
                         'not-json', 'too-deep', 'bad-utf8', 'events-not-array']) {
    const { file, bytes, expect } = generate(variant, '--variant', variant);
    let line = '';
    try {
      nativeCli(['trace-import', file]);
    } catch (error) {
      line = error.stderr.toString().trim();
    }
    assert.throws(() => api.traceImport(bytes), (e) => {
      assert.ok(e instanceof SimError, variant);
      assert.equal(e.code, expect.error.code, variant);
      assert.equal(e.rule, expect.error.rule, variant);
      if (expect.error.path !== undefined) assert.equal(e.path, expect.error.path, variant);
      assert.equal(`pipesim: ${e.code}: ${e.message}`, line, variant);
      return true;
    });
  }
  assert.throws(() => api.traceImport(undefined), (e) => e.rule === 'field.json_object');
  assert.throws(() => api.traceImport(3), (e) => e.rule === 'profile.not_trace');
  const { maxTraceBytes } = api.catalogue().limits;
  assert.throws(() => api.traceImport(' '.repeat(maxTraceBytes + 1)), (e) => e.rule === 'input.too_large' && e.params.limit === maxTraceBytes);
});

test('a read, good or bad, gives back all the module memory it took', async () => {
  const { default: createPipesimModule } = await import(MODULE_URL.href);
  const module = await createPipesimModule({ wasmBinary: await readFile(new URL('pipesim.wasm', MODULE_URL)) });
  const inputs = [generate('heap', '--devices', '1', '--layers', '2').bytes, generate('heap-cut', '--variant', 'truncated').bytes,
                  generate('heap-deep', '--variant', 'too-deep').bytes, new TextEncoder().encode('{"traceEvents":3}')];
  const round = () => inputs.map((bytes) => module.traceImport(bytes, '{}').ok);
  assert.deepEqual(round(), [true, false, false, false]);  // the first round fills static tables
  const before = module.heapInUse();
  round();
  assert.equal(module.heapInUse(), before);
});
