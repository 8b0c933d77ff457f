// `make bench`, traces (issue 28): reading a 100 MB PyTorch profiler trace. scripts/kineto-trace.py
// writes it once into build/bench/; the native reader (build/native/bench/pipesim_trace_bench,
// core's import_trace on the text in memory), the JS API's traceImport in Node (the bytes copied
// into the module, read, the report parsed) and the same in Chromium (fetched bytes, main
// thread) read it, best of 3 each, all in one run; the ratios to native are printed against the
// goals: >= 50 MB/s natively, <= 3x that time in the browser. Wall times swing with the machine's
// load, so CPU times are printed beside them where a process can measure its own. Nothing
// asserts on time.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadPipesim } from '../wasm/pipesim.js';

const REPS = 3;

/** The generated trace's path, written first if missing. */
function generatedTrace(root) {
  const file = path.join(root, 'build/bench/kineto-100mb.json');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    execFileSync('python3', [path.join(root, 'scripts/kineto-trace.py'), '--target-mb', '100', '--out', file]);
  }
  return file;
}

/** Best wall and CPU ms of REPS calls of `fn`, and its last value. */
function best(fn) {
  let wall = Infinity, cpu = Infinity, value;
  for (let i = 0; i < REPS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    value = fn();
    wall = Math.min(wall, performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1e3);
  }
  return { wall, cpu, value };
}

export async function benchTraces({ root, web, moduleUrl, browser, origin }) {
  const file = generatedTrace(root);
  const mb = statSync(file).size / 1e6;
  console.log(`\ntraces: ${path.relative(root, file)} (${mb.toFixed(1)} MB, scripts/kineto-trace.py), best of ${REPS}:`);
  const nativeBench = path.join(root, 'build/native/bench/pipesim_trace_bench');
  let native = null;
  if (existsSync(nativeBench)) {
    const line = execFileSync(nativeBench, [file], { encoding: 'utf8' }).trim();
    console.log(`  ${line}`);
    const m = line.match(/best of 3 ([\d.]+) ms .* CPU ([\d.]+) ms/);
    if (m) native = { wall: Number(m[1]), cpu: Number(m[2]) };
  } else {
    console.log(`  (no ${path.relative(root, nativeBench)}: run make native)`);
  }
  const ratio = (ms, base) => (native ? ` = ${(ms / native[base]).toFixed(2)}x native` : '');

  const api = await loadPipesim({ moduleUrl });
  const bytes = readFileSync(file);
  const node = best(() => api.traceImport(bytes));
  console.log(`  JS API traceImport in Node: ${node.wall.toFixed(1)} ms${ratio(node.wall, 'wall')} ` +
              `(${(mb / node.wall * 1e3).toFixed(1)} MB/s), CPU ${node.cpu.toFixed(1)} ms${ratio(node.cpu, 'cpu')}; ` +
              `${node.value.gpuEvents} GPU events`);

  if (!browser) return;
  // The page's own origin serves web/: the trace goes there for the run, and is removed after.
  const served = path.join(web, 'generated/bench-trace.json');
  copyFileSync(file, served);
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/generated/manifest.json`);
    const times = await page.evaluate(async (reps) => {
      const { loadPipesim } = await import('/generated/pipesim.js');
      const api = await loadPipesim();
      const buffer = await (await fetch('/generated/bench-trace.json')).arrayBuffer();
      const out = [];
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        api.traceImport(new Uint8Array(buffer));
        out.push(performance.now() - t0);
      }
      return out;
    }, REPS);
    const ms = Math.min(...times);
    console.log(`  JS API traceImport in Chromium (main thread): ${ms.toFixed(1)} ms${ratio(ms, 'wall')} ` +
                `(goal <= 3x; ${(mb / ms * 1e3).toFixed(1)} MB/s; runs ${times.map((t) => t.toFixed(0)).join(', ')} ms)`);
    await page.close();
  } finally {
    rmSync(served, { force: true });
  }
}
