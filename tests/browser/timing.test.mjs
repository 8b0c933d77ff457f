// The explorer's timing control in Chromium: offered only for the schedules whose catalogue entry
// runs under DeepSeek's runtime timing (`timings`), it switches between dependency-only timing
// and the runtime's batched sends and receives, draws what the native CLI's `--timing runtime`
// simulates, keeps the choice in the address, says in one line what it shows, and shows core's
// message beside it when the communication model rules it out (in Hindi on the Hindi page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { useSite, openPage, readDrawnOps, expectedOps, screenshot, REPO } from './helpers.mjs';
import { errorText } from '../../web/js/lib/error-text.js';
import { loadLanguage, translator } from '../../web/js/lib/i18n.js';
import { LANGS } from '../../web/js/lib/locales.js';
import CATALOGUE from '../../web/generated/catalogue.js';

for (const lang of LANGS) await loadLanguage(lang); // the Node side says each page's messages too

const site = useSite();
const NATIVE_CLI = `${REPO}/build/native/pipesim`;
const FIELD = '.dpl-form .dpl-field-timing';

function cli(args) {
  const run = spawnSync(NATIVE_CLI, ['simulate', ...args, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

test('DualPipe under DeepSeek\'s runtime timing draws what the CLI simulates, and the address keeps it', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    // The example: B-W < F makes the step's communication points delay some ops.
    const shape = ['--schedule', 'dualpipe', '--ranks', '8', '--microbatches', '20', '--backward', '1.5', '--weight', '0.9', '--overlapped', '2'];
    await page.goto(`${site.server.url}#view=timeline&backward=1.5&weight=0.9&overlapped=2`);
    await page.waitForSelector('#timeline-root .dpl-timeline .dpl-op');
    assert.equal(await page.$eval(FIELD, (e) => e.hidden), false);
    assert.equal(await page.$eval(`${FIELD} select`, (e) => e.value), 'dependency');
    const en = translator('en');
    assert.equal(await page.$eval(`${FIELD} .dpl-timing-hint`, (e) => e.textContent), en('timing.hint.dependency'));
    const dependency = cli(shape);
    assert.deepEqual((await readDrawnOps(page, '#timeline-root'))[0], expectedOps(dependency));
    await page.focus(`${FIELD} select`);
    await page.selectOption(`${FIELD} select`, 'runtime');
    await page.waitForFunction(() => location.hash.includes('timing=runtime'));
    const runtime = cli([...shape, '--timing', 'runtime']);
    assert.ok(runtime.makespan > dependency.makespan, `${runtime.makespan} > ${dependency.makespan}`);
    await page.waitForFunction((m) => document.querySelector('#timeline-root .dpl-lane-heading').textContent.includes(`step time ${m}`), runtime.makespan);
    assert.deepEqual((await readDrawnOps(page, '#timeline-root'))[0], expectedOps(runtime));
    assert.equal(await page.$eval(`${FIELD} .dpl-timing-hint`, (e) => e.textContent), en('timing.hint.runtime'));
    assert.match(await page.$eval('#timeline-root .dpl-lane-heading', (e) => e.textContent), /DeepSeek’s runtime timing/);
    await screenshot(page, 'timing-runtime-light.png', { fullPage: true });
    // A reload brings it back.
    await page.reload();
    await page.waitForSelector('#timeline-root .dpl-timeline .dpl-op');
    assert.equal(await page.$eval(`${FIELD} select`, (e) => e.value), 'runtime');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the control is offered only where the catalogue lists runtime timing; a compared schedule runs without it', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    const untimed = CATALOGUE.schedules.filter((s) => !s.timings.includes('runtime')).map((s) => s.name);
    assert.ok(untimed.includes('1f1b') && untimed.length >= 7);
    await page.goto(`${site.server.url}#view=timeline&schedule=1f1b&ranks=4&microbatches=8&timing=runtime`);
    await page.waitForSelector('#timeline-root .dpl-timeline .dpl-op');
    assert.equal(await page.$eval(FIELD, (e) => e.hidden), true);
    assert.deepEqual((await readDrawnOps(page, '#timeline-root'))[0], expectedOps(cli(['--schedule', '1f1b', '--ranks', '4', '--microbatches', '8'])));
    await page.goto(`${site.server.url}#view=timeline&schedule=dualpipev&compare=zb-v&ranks=4&microbatches=8&timing=runtime&backward=1.5&weight=0.9`);
    await page.waitForFunction(() => document.querySelectorAll('#timeline-root .dpl-timeline-svg').length === 2);
    assert.equal(await page.$eval(FIELD, (e) => e.hidden), false);
    const [main, compared] = await readDrawnOps(page, '#timeline-root');
    const shape = ['--ranks', '4', '--microbatches', '8', '--backward', '1.5', '--weight', '0.9'];
    assert.deepEqual(main, expectedOps(cli(['--schedule', 'dualpipev', ...shape, '--timing', 'runtime'])));
    assert.deepEqual(compared, expectedOps(cli(['--schedule', 'zb-v', ...shape])));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

for (const lang of LANGS) {
  test(`with the communication model on, core's timing.comm is beside the control (${lang})`, async () => {
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}#view=timeline&ranks=4&microbatches=8&timing=runtime&commRatio=1&lang=${lang}`);
      await page.waitForSelector(`${FIELD} .dpl-field-msg:not(:empty)`);
      let error = null;
      try { site.api.simulate({ schedule: 'dualpipe', ranks: 4, microbatches: 8, timing: 'runtime', costs: { comm: { ratio: 1 } } }); } catch (e) { error = e; }
      assert.equal(error.rule, 'timing.comm');
      const shown = await page.$eval(`${FIELD} .dpl-field-msg`, (e) => e.textContent);
      assert.ok(shown.includes(errorText(error, lang)), shown);
      assert.equal(await page.$eval(`${FIELD} select`, (e) => e.getAttribute('aria-invalid')), 'true');
      if (lang === 'hi') {
        assert.equal(await page.$eval(`${FIELD} .dpl-timing-hint`, (e) => e.textContent), translator('hi')('timing.hint.runtime'));
        await screenshot(page, 'timing-comm-error-hi.png', { fullPage: true });
      }
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  });
}
