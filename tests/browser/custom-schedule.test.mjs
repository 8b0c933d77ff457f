// The explorer's "Write your own schedule" in Chromium: a pasted hand-written schedule (lines of
// op labels, the CLI's own output, or the JSON request) is drawn exactly as the native CLI's
// `pipesim simulate --input` runs it; core's error shows beside the box, in Hindi on the Hindi
// page, naming the line and op and selecting it; the text is kept in the address while short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { useSite, openPage, readDrawnOps, expectedOps, screenshot, REPO } from './helpers.mjs';
import { errorText } from '../../web/js/lib/error-text.js';
import { loadLanguage } from '../../web/js/lib/i18n.js';
import { summary } from '../../wasm/pipesim.js';

await loadLanguage('hi'); // errorText(…, 'hi') below compares with the Hindi page

const site = useSite();
const NATIVE_CLI = `${REPO}/build/native/pipesim`;
const SCOPE = '.view-timeline .dpl-own';

/** The native CLI's result for a request (`pipesim simulate --input - --format json`). */
function cli(request) {
  const run = spawnSync(NATIVE_CLI, ['simulate', '--input', '-', '--format', 'json'], { input: JSON.stringify(request), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** The rank lines of the CLI's text output for a built-in schedule, as label lists. */
function printedOps(args) {
  const run = spawnSync(NATIVE_CLI, ['simulate', ...args], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.split('\n').filter((line) => /^\s+\d+\s+[\d.]+\s+[\d.]+\s+\d+\s+\S*@/.test(line));
  return { text: run.stdout, rankOps: lines.map((line) => line.trim().split(/\s+/).slice(4)) };
}

async function typeSchedule(page, text) {
  await page.click(`${SCOPE} > summary`);
  await page.fill(`${SCOPE} textarea`, text);
  await page.press(`${SCOPE} textarea`, 'Tab'); // change: the text is committed at once
}

const drawnOps = async (page) => (await readDrawnOps(page, SCOPE))[0];

test('a pasted CLI run of DualPipe, with an op moved and other costs, draws what the CLI simulates', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&forward=1.5&overlapped=3.5`);
    await page.waitForSelector('.view-timeline .dpl-timeline .dpl-op');
    const { text, rankOps } = printedOps(['--schedule', 'dualpipe', '--ranks', '4', '--microbatches', '8']);
    // Rank 3 ends "Bz1.2@0 W1.2@0 Bz1.3@0 W1.3@0"; running Bz1.3@0 before W1.2@0 is still a valid
    // schedule, and a different run.
    const last = rankOps[3].length - 1;
    assert.deepEqual(rankOps[3].slice(-4), ['Bz1.2@0', 'W1.2@0', 'Bz1.3@0', 'W1.3@0']);
    [rankOps[3][last - 2], rankOps[3][last - 1]] = [rankOps[3][last - 1], rankOps[3][last - 2]];
    const edited = text.replace(/^(\s+3\s.*)$/m, (line) => line.replace(/(\S+) (\S+) (\S+)$/, '$2 $1 $3'));
    assert.notEqual(edited, text);
    await typeSchedule(page, edited);
    await page.waitForSelector(`${SCOPE} .dpl-timeline .dpl-op`);
    const request = { schedule: 'custom', stages: 4, directions: 2, microbatches: 8, rankOps,
      costs: { forward: 1.5, backward: 2, weight: 1, overlapped: 3.5, p2pLatency: 0 } };
    const expected = cli(request);
    assert.deepEqual(await drawnOps(page), expectedOps(expected));
    assert.notDeepEqual(expectedOps(expected), expectedOps(cli({ ...request, rankOps: printedOps(['--schedule', 'dualpipe', '--ranks', '4', '--microbatches', '8']).rankOps })));
    assert.match(await page.$eval(`${SCOPE} .dpl-lane-heading`, (e) => e.textContent), new RegExp(`step time ${expected.makespan}\\b`));
    assert.equal(await page.$eval(`${SCOPE} .dpl-own-read`, (e) => e.textContent), 'Read as 4 ranks, 4 stages and 8 micro-batches, in two directions.');
    // The request shown beside it, as JSON, is that same request.
    const shown = await page.$eval(`${SCOPE} .dpl-own-cli code`, (e) => e.textContent);
    assert.deepEqual(JSON.parse(shown), request);
    await screenshot(page, 'custom-schedule-light.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests.filter((url) => !url.startsWith(site.server.url)), []);
  } finally {
    await context.close();
  }
});

test('the JSON request, with op objects and its own costs, draws what the CLI simulates', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline`);
    const request = { schedule: 'custom', stages: 2, directions: 1, microbatches: 3, costs: { forward: 1, backward: 3, weight: 1, p2pLatency: 0.25 },
      rankOps: [['F0.0@0', 'F0.1@0', 'Bz0.0@0', 'F0.2@0', 'Bz0.1@0', 'W0.0@0', 'Bz0.2@0', 'W0.1@0', 'W0.2@0'],
        [{ op: 'F', dir: 0, mb: 0, stage: 1 }, 'B0.0@1', 'F0.1@1', 'B0.1@1', 'F0.2@1', { op: 'B', dir: 0, mb: 2, stage: 1, zb: false }]] };
    await typeSchedule(page, JSON.stringify(request, null, 1));
    await page.waitForSelector(`${SCOPE} .dpl-timeline .dpl-op`);
    assert.deepEqual(await drawnOps(page), expectedOps(cli(request)));
    assert.match(await page.$eval(`${SCOPE} .dpl-own-read`, (e) => e.textContent), /^Read as JSON/);
    // Not JSON at all: core's parser says so, beside the box, and nothing is drawn.
    await page.fill(`${SCOPE} textarea`, '{"schedule": "custom", ');
    await page.press(`${SCOPE} textarea`, 'Tab');
    await page.waitForFunction((scope) => document.querySelector(`${scope} .dpl-field-msg`).textContent.startsWith('input is not valid JSON'), SCOPE);
    assert.equal(await page.$eval(`${SCOPE} .dpl-own-timeline`, (e) => e.hidden), true);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('on the Hindi page core\'s error is beside the box in Hindi, naming the line and op, which it selects', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&lang=hi`);
    const text = '# हाथ से लिखा 1F1B\nF0.0@0 F0.1@0 B0.0@0 B0.1@0\nF0.0@1 B0.0@1 X0.1@1 B0.1@1';
    await typeSchedule(page, text);
    await page.waitForSelector(`${SCOPE} .dpl-own-place:not([hidden])`);
    let error = null;
    try {
      site.api.simulate({ schedule: 'custom', stages: 2, directions: 1, microbatches: 2, costs: site.api.catalogue().costs,
        rankOps: [['F0.0@0', 'F0.1@0', 'B0.0@0', 'B0.1@0'], ['F0.0@1', 'B0.0@1', 'X0.1@1', 'B0.1@1']] });
    } catch (e) { error = e; }
    assert.equal(error.path, '/rankOps/1/2');
    const message = await page.$eval(`${SCOPE} .dpl-field-msg`, (e) => e.textContent);
    assert.equal(message, errorText(error, 'hi'));
    assert.match(message, /[\u0900-\u097F]/);
    assert.equal(await page.$eval(`${SCOPE} .dpl-own-where`, (e) => e.textContent), 'पंक्ति 3, ऑप 3: “X0.1@1”');
    assert.equal(await page.$eval(`${SCOPE} textarea`, (e) => e.getAttribute('aria-invalid')), 'true');
    await page.click(`${SCOPE} .dpl-own-select`);
    const selected = await page.$eval(`${SCOPE} textarea`, (e) => e.value.slice(e.selectionStart, e.selectionEnd));
    assert.equal(selected, 'X0.1@1');
    assert.equal(await page.evaluate(() => document.activeElement.name), 'custom');
    await screenshot(page, 'custom-schedule-error-hi.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

// The line naming where the error is quotes the op by the page's one summary rule (issue 30: it
// quoted the pasted text whole, 10,000 characters of it here).
test('the op an error points at is quoted as a summary, however long', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline`);
    const label = `X${'9'.repeat(10_000)}`;
    await typeSchedule(page, `F0.0@0 B0.0@0\nF0.0@1 ${label}`);
    await page.waitForSelector(`${SCOPE} .dpl-own-place:not([hidden])`);
    assert.equal(await page.$eval(`${SCOPE} .dpl-own-where`, (e) => e.textContent), `Line 2, op 2: “${summary(label, 80)}”`);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('"Start from the explorer\'s schedule" writes its labels, and they run to the explorer\'s timeline', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=zb-h1&ranks=3&microbatches=5`);
    await page.waitForSelector('#timeline-root .dpl-timeline .dpl-op');
    await page.click(`${SCOPE} > summary`);
    await page.click(`${SCOPE} .dpl-own-from`);
    await page.waitForSelector(`${SCOPE} .dpl-timeline .dpl-op`);
    const { rankOps } = printedOps(['--schedule', 'zb-h1', '--ranks', '3', '--microbatches', '5']);
    assert.equal(await page.$eval(`${SCOPE} textarea`, (e) => e.value), rankOps.map((ops) => ops.join(' ')).join('\n'));
    const explorer = (await readDrawnOps(page, '#timeline-root'))[0];
    assert.deepEqual(await drawnOps(page), explorer);
    // The text is in the address; a reload brings it, and its timeline, back.
    await page.waitForFunction(() => location.hash.includes('custom='));
    await page.reload();
    await page.waitForSelector(`${SCOPE}[open] .dpl-timeline .dpl-op`);
    assert.deepEqual(await drawnOps(page), explorer);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a schedule too long for the address stays on the page, is left out of the link, and says so', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=timeline&schedule=dualpipe&ranks=8&microbatches=40`);
    await page.waitForSelector('#timeline-root .dpl-timeline .dpl-op');
    await page.click(`${SCOPE} > summary`);
    await page.click(`${SCOPE} .dpl-own-from`);
    await page.waitForSelector(`${SCOPE} .dpl-timeline .dpl-op`);
    const length = await page.$eval(`${SCOPE} textarea`, (e) => e.value.length);
    assert.ok(length > 4000, `${length} characters`);
    assert.match(await page.$eval(`${SCOPE} .dpl-own-long`, (e) => e.textContent), new RegExp(`^This schedule has ${length} characters, more than the 4000`));
    await page.waitForFunction(() => location.hash.includes('microbatches=40'));
    assert.ok(!(await page.evaluate(() => location.hash)).includes('custom='));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
