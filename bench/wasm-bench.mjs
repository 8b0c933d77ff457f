#!/usr/bin/env node
// `make bench`, wasm side (issue #3): the core bench built natively and as wasm (the same calls,
// so the ratio is the simulator's own), the same DualPipe simulations through the JS API, the
// full sweep (every catalogue schedule x even R 4..64 x M in {2R,4R,8R,16R}) in Node and in headless Chromium
// (main thread, one Web Worker, and split over the page's pool of workers; warm, and cold as a
// fresh page's first sweep), reading a 100 MB profiler trace (trace-bench.mjs), the size of both
// builds of the module, and the page's and an embed's payload gzipped. Prints figures
// only; nothing asserts on time (shared machines are noisy: speed goals live here, not in tests).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { benchTimelineFrames } from './timeline-frames.mjs';
import { loadPipesim, MODULE_BUILDS } from '../wasm/pipesim.js';
import { benchPages } from './page-timing.mjs';
import { benchTraces } from './trace-bench.mjs';
import { launchChromiumWithoutBrowserUi } from '../scripts/chromium.mjs';
import CATALOGUE from '../web/generated/catalogue.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'web');
const NATIVE_BENCH = path.join(ROOT, 'build/native/bench/pipesim_bench');
const WASM_BENCH = path.join(ROOT, 'build/wasm/bench/pipesim_bench.js');
const SIMULATIONS = [[64, 1024], [16, 4096]];
const CORE_PAIRS = 3;
const JS_API_REPS = 101;
const WARM_MS = 500;
// Every schedule core offers (its catalogue, as the page reads it), so a new one is benched too.
const SWEEP = {
  schedules: CATALOGUE.schedules.map((s) => s.name),
  ranks: Array.from({ length: 31 }, (_, i) => 4 + 2 * i),
  microbatches: ['2R', '4R', '8R', '16R'],
};

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function bestMs(reps, fn) {
  let best = Infinity;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

// Runs a build of the core bench (bench_core.cpp), echoes it, and returns {"R,M": simulate() ms,
// sweep: ms} as printed. `command` is the native binary, or node plus the wasm build's script.
function coreFigures(command, what) {
  if (!existsSync(command.at(-1))) return { text: `(no ${path.relative(ROOT, command.at(-1))}: run make ${what})\n` };
  const text = execFileSync(command[0], command.slice(1), { encoding: 'utf8' });
  const figures = { text };
  for (const line of text.split('\n')) {
    const sim = line.match(/dualpipe R=\s*(\d+)\s+M=\s*(\d+)\s+(\d+) ops.*?\(\s*([\d.]+) ms\)/);
    if (sim) figures[`${sim[1]},${sim[2]}`] = { ops: Number(sim[3]), ms: Number(sim[4]) };
    const spread = line.match(/dualpipe R=\s*(\d+)\s+M=\s*(\d+)\s+simulate\((\w+)\) over \d+ calls: median ([\d.]+) ms, p95 ([\d.]+) ms/);
    if (spread) figures[`${spread[1]},${spread[2]}`][spread[3]] = { median: Number(spread[4]), p95: Number(spread[5]) };
    const sweep = line.match(/full sweep: .* in ([\d.]+) ms/);
    if (sweep) figures.sweep = Number(sweep[1]);
  }
  return figures;
}

// The same core calls compiled to wasm against native: simulate() with its timeline and the full
// sweep, no JS in between. The JS API figures below add the handoff of results to JS. `pairs`
// holds one {wasm, native} per pair of processes run back to back; one pair on this shared VM
// swings up to 2x, so each ratio is the median over the pairs, with every pair's ratio listed.
function printCoreRatios(pairs) {
  console.log(`wasm vs native, same core calls (goal <= 1.5x), median of ${pairs.length} paired runs:`);
  const line = (label, pick) => {
    const ratios = pairs.map(({ wasm, native }) => pick(wasm) / pick(native)).filter(Number.isFinite);
    if (ratios.length === 0) return;
    const list = ratios.map((r) => r.toFixed(2)).join(', ');
    console.log(`  ${label}: ${median(ratios).toFixed(2)}x (pairs: ${list})`);
  };
  for (const [ranks, microbatches] of SIMULATIONS)
    line(`dualpipe R=${ranks} M=${microbatches} simulate()`, (f) => f[`${ranks},${microbatches}`]?.ms);
  line('full sweep', (f) => f.sweep);
}

// Sorted times of `reps` calls of `fn`, in ms.
function sortedMs(reps, fn) {
  const times = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

const p95 = (sorted) => sorted[Math.floor(sorted.length * 0.95)];

// The JS API's simulate (typed-array timeline) against native core simulate() of the same config
// (issue #10: goal <= 1.5x). Medians of many calls, the native one over the paired core runs
// above, all in this one run; bench_core.cpp prints the same distribution for the wasm build
// calling core itself ("columns": what the JS API runs inside the module, no JS in between).
function benchNode(api, pairs) {
  const native = pairs[0].native;
  console.log(`\nwasm through the JS API in Node (${JS_API_REPS} calls after ${WARM_MS} ms of warm-up; ` +
              `native and wasm core: medians over the ${pairs.length} core runs above)`);
  for (const [ranks, microbatches] of SIMULATIONS) {
    const key = `${ranks},${microbatches}`;
    const config = { schedule: 'dualpipe', ranks, microbatches };
    const count = api.simulate(config).timeline.count;
    // Warm-up, as in bench_core.cpp: V8 swaps optimised wasm in only for later calls.
    for (const until = performance.now() + WARM_MS; performance.now() < until;) api.simulate(config);
    const times = sortedMs(JS_API_REPS, () => api.simulate(config));
    const json = bestMs(5, () => api.simulateJson(config));
    const core = (side, form) => median(pairs.map((pair) => pair[side][key]?.[form]?.median).filter(Number.isFinite));
    const nativeMs = core('native', 'ops');
    const wasmMs = core('wasm', 'columns');
    const jsMs = median(times);
    console.log(`dualpipe R=${ranks} M=${microbatches}: ${count} ops  JS API simulate median ${jsMs.toFixed(3)} ms, ` +
                `p95 ${p95(times).toFixed(3)} ms  simulateJson (full JSON) best ${json.toFixed(2)} ms`);
    console.log(`  JS API simulate / native simulate(), medians: ${(jsMs / nativeMs).toFixed(2)}x (goal <= 1.5x; ` +
                `native ${nativeMs?.toFixed(3)} ms, wasm core columns ${wasmMs?.toFixed(3)} ms = ` +
                `${(wasmMs / nativeMs).toFixed(2)}x, JS handoff ${(jsMs - wasmMs).toFixed(3)} ms)`);
    // Most of the handoff is one copy of the timeline block out of wasm memory, into a fresh
    // ArrayBuffer each call (the caller owns it; a worker transfers it). The same bytes copied into
    // a buffer that already exists show how much of that is fresh memory (page faults: costly on a
    // loaded VM) rather than copying.
    const block = new Uint8Array(api.simulate(config).timeline.start.buffer);
    const reused = new Uint8Array(block.length);
    const fresh = sortedMs(JS_API_REPS, () => block.slice());
    const again = sortedMs(JS_API_REPS, () => reused.set(block));
    console.log(`  its timeline block (${kb(block.length)}) copied into a fresh buffer: median ` +
                `${median(fresh).toFixed(3)} ms, best ${fresh[0].toFixed(3)} ms; into a reused one: median ` +
                `${median(again).toFixed(3)} ms, best ${again[0].toFixed(3)} ms`);
  }
  let cells = 0;
  const sweep = bestMs(3, () => { cells = api.sweep(SWEEP).rows.length; });
  const ratio = native.sweep ? `, ${(sweep / native.sweep).toFixed(2)}x native (${native.sweep} ms)` : '';
  console.log(`full sweep (${cells} cells) in Node: ${sweep.toFixed(1)} ms (best of 3)${ratio}`);
}

function startServer() {
  const server = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), '--port', '0', '--root', WEB],
                       { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve));
  return { server, url };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (values) => `median ${median(values).toFixed(1)} ms, best ${Math.min(...values).toFixed(1)} ms`;

// Warm figures, all in one page: the full sweep on the main thread, through one worker (the
// client with poolSize 1), and split over the client's default pool of workers, interleaved so
// the machine's load falls on all three alike.
async function benchChromium(page, origin) {
  await page.goto(`${origin}/generated/manifest.json`);
  const figures = await page.evaluate(async ({ sweep, reps }) => {
    const time = async (fn) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    const { loadPipesim } = await import('/generated/pipesim.js');
    const { createSimClient, defaultPoolSize } = await import('/js/lib/sim-client.js');
    const api = await loadPipesim();
    const single = createSimClient({ poolSize: 1 });
    const pooled = createSimClient();
    await single.prewarm();  // start the workers and load their modules before timing
    const workers = await pooled.prewarm();
    const out = { mainThread: [], single: [], pooled: [], simulate: [], workers, poolSize: defaultPoolSize(),
                  cores: navigator.hardwareConcurrency };
    for (let i = 0; i < reps; i++) {
      out.mainThread.push(await time(() => api.sweep(sweep)));
      out.single.push(await time(() => single.sweep(sweep)));
      out.pooled.push(await time(() => pooled.sweep(sweep)));
    }
    for (let i = 0; i < 5; i++) out.simulate.push(await time(() => api.simulate({ schedule: 'dualpipe', ranks: 64, microbatches: 1024 })));
    single.terminate();
    pooled.terminate();
    return out;
  }, { sweep: SWEEP, reps: 5 });
  console.log(`\nChromium (${browserVersion}), full sweep (goal < 250 ms), warm, ${figures.mainThread.length} runs each, interleaved:`);
  console.log(`  ${'main thread'.padEnd(34)}${ms(figures.mainThread)}`);
  console.log(`  ${'one worker'.padEnd(34)}${ms(figures.single)}`);
  console.log(`  ${`pool of ${figures.workers} workers (the page's)`.padEnd(34)}${ms(figures.pooled)}` +
              `  (pool size = min(hardwareConcurrency ${figures.cores}, 4) = ${figures.poolSize})`);
  console.log(`  dualpipe R=64 M=1024 simulate on the main thread: ${ms(figures.simulate)}`);
}

// The first sweep a page runs, in a fresh browser context each time (its own renderer process,
// nothing loaded): with nothing started, the client's workers start and load pipesim as part of
// it; "main worker already started" is the page's case (app.js calls schedules() at start-up), so
// only the extra pool workers start inside the sweep. A first sweep is slower than later ones in
// every mode, one worker included: a fresh module instance is not warm yet.
async function benchColdSweep(browser, origin) {
  const runs = { single: [], pooled: [], pooledAfterStart: [] };
  for (let i = 0; i < 3; i++) {
    for (const kind of Object.keys(runs)) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/generated/manifest.json`);
      runs[kind].push(await page.evaluate(async ({ sweep, kind }) => {
        const { createSimClient } = await import('/js/lib/sim-client.js');
        const client = createSimClient(kind === 'single' ? { poolSize: 1 } : {});
        if (kind === 'pooledAfterStart') await client.schedules();
        const t0 = performance.now();
        await client.sweep(sweep);
        const elapsed = performance.now() - t0;
        client.terminate();
        return elapsed;
      }, { sweep: SWEEP, kind }));
      await context.close();
    }
  }
  console.log('Chromium, first (cold) full sweep of a fresh page, workers starting inside it (3 runs each):');
  console.log(`  ${'one worker, nothing started'.padEnd(34)}${ms(runs.single)}`);
  console.log(`  ${'pool, nothing started'.padEnd(34)}${ms(runs.pooled)}`);
  console.log(`  ${'pool, main worker already started'.padEnd(34)}${ms(runs.pooledAfterStart)}`);
}

let browserVersion = '';

// What the page loads, gzipped: every response Chromium receives for index.html, read from disk.
// Animation frame time while the timeline plays DualPipe at 16 ranks x 64 micro-batches (goal:
// under 16 ms): requestAnimationFrame deltas over 3 s of playback, median and 95th percentile.
async function frameTimes(page, origin) {
  await page.goto(`${origin}/#view=timeline&schedule=dualpipe&ranks=16&microbatches=64`);
  await page.waitForSelector('.view-timeline [data-action="play"]');
  await page.waitForTimeout(500);
  await page.click('.view-timeline [data-action="play"]');
  // Two figures per frame: the interval since the previous frame, and the frame's own work, from
  // the frame's start (the rAF timestamp every callback of that frame shares) to a message posted
  // from the frame, which runs once the frame's script, style, layout and paint are done.
  const { intervals, work } = await page.evaluate(() => new Promise((resolve) => {
    const intervals = [], work = [];
    let last = performance.now();
    const end = last + 3000;
    const tick = (now) => {
      intervals.push(now - last);
      last = now;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => work.push(performance.now() - now);
      channel.port2.postMessage(0);
      if (now < end) requestAnimationFrame(tick);
      else setTimeout(() => resolve({ intervals, work }), 50);
    };
    requestAnimationFrame(tick);
  }));
  const quantile = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  };
  // Headless Chromium paces frames at 60 Hz, so an interval of 16.7 ms means every frame was on
  // time; a frame whose work overran would show as 33.3 ms.
  console.log(`animation, dualpipe 16x64 playing: ${intervals.length} frames in 3 s; work per frame (goal < 16 ms) ` +
              `median ${quantile(work, 0.5)} ms, p95 ${quantile(work, 0.95)} ms; between frames median ` +
              `${quantile(intervals, 0.5)} ms, p95 ${quantile(intervals, 0.95)} ms (60 Hz: 16.7 ms = no dropped frame)`);
}

async function payloadOfPage(page, origin, at = '/') {
  const paths = new Set();
  page.on('response', (r) => { if (r.url().startsWith(origin) && r.status() === 200) paths.add(new URL(r.url()).pathname); });
  await page.goto(`${origin}${at}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);  // lazily loaded lesson fragments and worker scripts
  return [...paths].map((p) => path.join(WEB, decodeURIComponent(p.endsWith('/') ? p + 'index.html' : p)));
}

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  // pipesim.d.ts is for editors, never fetched by the page.
  return readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile() && !f.endsWith('.d.ts'));
}

function printPayload(files, what) {
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    const bytes = readFileSync(f);
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
  }
  console.log(`page payload (${what}): ${files.length} files, ${kb(raw)} raw, ${kb(gz)} gzipped`);
}

async function main() {
  const pairs = [];
  for (let i = 0; i < CORE_PAIRS; i++) {
    pairs.push({ native: coreFigures([NATIVE_BENCH], 'native'),
                 wasm: coreFigures([process.execPath, '--no-experimental-fetch', WASM_BENCH], 'wasm') });
  }
  const native = pairs[0].native;  // the JS API figures below are set against this run
  process.stdout.write(`${native.text}\n${pairs[0].wasm.text}`);
  printCoreRatios(pairs);

  // Both builds of the module (wasm/CMakeLists.txt): the page's full one, whose speed is measured
  // below, and the figures' one the embeds and the course bundle load (the same engine code).
  const buildUrl = (build) => new URL(`../build/wasm/wasm/${MODULE_BUILDS[build]}.mjs`, import.meta.url);
  console.log('');
  for (const build of Object.keys(MODULE_BUILDS)) {
    const name = MODULE_BUILDS[build];
    const wasm = readFileSync(new URL(`${name}.wasm`, buildUrl(build)));
    const glue = readFileSync(buildUrl(build));
    console.log(`wasm module, ${build} build: ${name}.wasm ${kb(wasm.length)} (${kb(gzipSync(wasm, { level: 9 }).length)} gzipped), ` +
                `${name}.mjs ${kb(glue.length)} (${kb(gzipSync(glue, { level: 9 }).length)} gzipped)`);
  }
  const moduleUrl = buildUrl('full');
  benchNode(await loadPipesim({ moduleUrl }), pairs);

  const { server, url } = startServer();
  const browser = await launchChromiumWithoutBrowserUi();
  try {
    browserVersion = `Chromium ${browser.version()}`;
    const origin = (await url).replace(/\/$/, '');
    await benchChromium(await browser.newPage(), origin);
    await benchColdSweep(browser, origin);
    await frameTimes(await browser.newPage(), origin);
    await benchTimelineFrames(browser, origin);
    await benchTraces({ root: ROOT, web: WEB, moduleUrl, browser, origin });
    if (existsSync(path.join(WEB, 'index.html'))) {
      printPayload(await payloadOfPage(await browser.newPage(), origin), 'what index.html loads');
      // An embed runs the module's figures' build (js/embed/widget-kit.js).
      printPayload(await payloadOfPage(await browser.newPage(), origin, '/embed.html?widget=timeline&schedule=dualpipe&ranks=8&microbatches=20'),
                   'what embed.html loads for DualPipe 8x20');
      await benchPages(browser, origin, WEB);
    } else {
      printPayload(['generated', 'js', 'css'].flatMap((d) => filesUnder(path.join(WEB, d))),
                   'no index.html yet: all of web/generated, web/js, web/css');
    }
  } finally {
    await browser.close();
    server.kill();
  }
}

main().catch((error) => {
  console.error(`wasm-bench: ${error.stack}`);
  process.exit(1);
});
