// Shared setup for the browser tests: starts scripts/serve.mjs on a free port, launches Debian's
// Chromium through playwright-core (scripts/chromium.mjs), and records every console message,
// page error and request so tests can assert "no errors, nothing outside the origin".
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { before, after } from 'node:test';
import { launchChromium } from '../../scripts/chromium.mjs';
import { isChunkFile } from '../../scripts/bundle-page.mjs';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = path.join(REPO, 'build/test-artifacts'); // git-ignored, with the other build output

/** Starts the static server on an OS-chosen port; resolves to {url, stop()}. */
export async function startServer() {
  const child = spawn(process.execPath, ['scripts/serve.mjs', '--port', '0', '--root', 'web'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`serve.mjs exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
    }),
  };
}

/**
 * Registers before/after hooks for a test file: the static server, Chromium and (for files that
 * compare the page with the simulator) the pipesim API in Node. Returns an object whose
 * `server`, `browser` and `api` are set once the hooks have run. Files that never ask the
 * simulator in Node pass `{ pipesim: false }` and get no `api`.
 */
export function useSite({ pipesim: withPipesim = true } = {}) {
  const site = {};
  before(async () => {
    site.server = await startServer();
    site.browser = await launchChromium();
    if (withPipesim) site.api = await pipesim();
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.stop();
  });
  return site;
}

/**
 * A fresh context and page that records what happens. `log.errors` collects console errors and
 * uncaught exceptions; `log.requests` every URL requested (page, workers, iframes).
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const log = { errors: [], requests: [], messages: [] };
  context.on('request', (request) => log.requests.push(request.url()));
  const page = await context.newPage();
  page.on('console', (message) => {
    log.messages.push(`${message.type()}: ${message.text()}`);
    if (message.type() === 'error') log.errors.push(message.text());
  });
  page.on('pageerror', (error) => log.errors.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) => log.errors.push(`request failed: ${request.url()}`));
  return { context, page, log };
}

/** Waits until a timeline inside `scope` has drawn its ops (the simulator ran). */
export async function waitForTimeline(page, scope = 'body') {
  await page.waitForSelector(`${scope} .dpl-timeline .dpl-op`, { timeout: 20000 });
}

/** Screenshot into build/test-artifacts/ (git-ignored), for a human to look at. */
export async function screenshot(page, name, options = {}) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, name), ...options });
}

/** The pipesim JS API in Node, from the built site (make site), to compare the page against. */
export async function pipesim() {
  const { loadPipesim } = await import(path.join(REPO, 'web/generated/pipesim.js'));
  return loadPipesim();
}

/** Reads the data-* attributes of every drawn op, per lane, in document order. */
export function readDrawnOps(page, scope = 'body') {
  return page.$$eval(`${scope} .dpl-timeline-svg`, (svgs) => svgs.map((svg) =>
    [...svg.querySelectorAll('.dpl-op')].map((g) => ({ ...g.dataset }))));
}

/** The same attributes computed from a result's timeline (either shape), as strings. */
export function expectedOps(result) {
  const out = [];
  const tl = result.timeline;
  const kinds = ['F', 'B', 'W', 'FB'];
  const count = Array.isArray(tl) ? 0 : tl.count;
  const push = (o) => {
    const d = { rank: o.rank, op: o.op, start: o.start, end: o.end };
    if (o.op === 'FB') Object.assign(d, { fdir: o.fdir, fmb: o.fmb, fstage: o.fstage, bdir: o.bdir, bmb: o.bmb, bstage: o.bstage });
    else Object.assign(d, { dir: o.dir, mb: o.mb, stage: o.stage }, o.op === 'B' ? { zb: o.zb ? 1 : 0 } : {});
    out.push(Object.fromEntries(Object.entries(d).map(([k, v]) => [k, String(v)])));
  };
  if (Array.isArray(tl)) {
    tl.forEach((ops, rank) => ops.forEach((o) => push({ ...o, rank })));
  } else {
    for (let i = 0; i < count; i++) {
      const op = kinds[tl.op[i]];
      push(op === 'FB'
        ? { op, rank: tl.rank[i], fdir: tl.dir[i], fmb: tl.mb[i], fstage: tl.stage[i], bdir: tl.bdir[i], bmb: tl.bmb[i], bstage: tl.bstage[i], start: tl.start[i], end: tl.end[i] }
        : { op, rank: tl.rank[i], dir: tl.dir[i], mb: tl.mb[i], stage: tl.stage[i], zb: tl.zb[i], start: tl.start[i], end: tl.end[i] });
    }
  }
  return out;
}

/**
 * The data-* attributes of every stream part a result's timeline must show (typed-array result
 * with `comm`), as strings: op i of a rank has the parts of comm.ops["Bz" for a zero-bubble B,
 * else its kind], shifted by its start (times on the 1e-6 tick grid). An FB pair's forward parts
 * belong to its forward chunk (dir/mb), the rest to its backward chunk. Worked out here from the
 * raw result, not with the page's own helpers.
 */
export function expectedParts(result) {
  const tl = result.timeline;
  const kinds = ['F', 'B', 'W', 'FB'];
  const tick = (v) => Math.round(v * 1e6) / 1e6;
  const out = [];
  const seq = new Map();
  for (let i = 0; i < tl.count; i++) {
    const rank = tl.rank[i];
    const op = seq.get(rank) ?? 0;
    seq.set(rank, op + 1);
    const kind = kinds[tl.op[i]];
    for (const p of result.comm.ops[kind === 'B' && tl.zb[i] ? 'Bz' : kind].parts) {
      const backwardChunk = kind === 'FB' && p.pass !== 'F';
      out.push({
        rank: String(rank), op: String(op), stream: p.stream, part: p.part, pass: p.pass, layer: String(p.layer),
        dir: String(backwardChunk ? tl.bdir[i] : tl.dir[i]), mb: String(backwardChunk ? tl.bmb[i] : tl.mb[i]),
        start: String(tick(tl.start[i] + p.start)), end: String(tick(tl.start[i] + p.end)),
      });
    }
  }
  return out;
}

/** The lesson's exercises load when their section nears the viewport: scroll there, then wait. */
export async function waitForExercise(page, id, { timeout = 30000 } = {}) {
  await page.waitForSelector('.exercise-list', { timeout });
  await page.$eval('.exercise-list', (e) => e.scrollIntoView());
  await page.waitForSelector(`#exercise-${id}[data-ready]`, { timeout });
}

/** The path of every request `page` makes from now on, in order (a live array). */
export function requestedPaths(page) {
  const paths = [];
  page.on('request', (r) => paths.push(new URL(r.url()).pathname));
  return paths;
}

/**
 * Whether `path` is the lesson page's chunk of the module named `name` (views/planner.js ->
 * /generated/planner-HASH.js): the page loads a lazily imported module as a chunk of its bundle,
 * named as scripts/bundle-page.mjs names it.
 */
export function isChunkOf(path, name) {
  return path.startsWith('/generated/') && isChunkFile(path.slice('/generated/'.length), name);
}

/**
 * Switches the system theme of an open page to `colorScheme` and waits two frames: the page
 * follows prefers-color-scheme live, as when a learner's system changes theme, so one load can
 * be checked in both themes.
 */
export async function switchColorScheme(page, colorScheme) {
  await page.emulateMedia({ colorScheme });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

// Host pages for the embeds, under the same CSP as the site: nothing inline, nothing off-origin.
const HOST_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; worker-src 'self'";

/** Serves `files` ({path: [type, body]}) under /__test__/ on the site's origin (`url`). */
export async function servePages(page, url, files) {
  await page.route(`${url}__test__/**`, (route) => {
    const file = files[new URL(route.request().url()).pathname.replace('/__test__/', '')];
    if (!file) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ status: 200, contentType: file[0], headers: { 'Content-Security-Policy': HOST_CSP }, body: file[1] });
  });
}

/** A host page; scripts that mount figures go at the end of <body>, as the course runs them after rendering. */
export const hostHtml = (body, head = '', tail = '', lang = 'en') => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}</head><body>${body}${tail}</body></html>`;

/**
 * Clicks the in-page link `link` and waits until the focus is in `target` and `target` sits within
 * `near` px of the viewport's top. Returns the address before and after, for the caller to compare
 * (such a link moves the reader, not the page state in the address).
 */
export async function followInPageLink(page, link, target, near) {
  const before = await page.evaluate(() => location.hash);
  await page.click(link);
  await page.waitForFunction((sel) => document.activeElement?.closest(sel), target);
  await page.waitForFunction(([sel, px]) => Math.abs(document.querySelector(sel).getBoundingClientRect().top) < px, [target, near]);
  return { before, after: await page.evaluate(() => location.hash) };
}
