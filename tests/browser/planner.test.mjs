// The planner view in Chromium: presets plan as pipesim.plan does, a reject is shown with its
// reason, a bad field gets the SimError message beside it, and the Markdown download works.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, screenshot } from './helpers.mjs';

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const OUT = '.view-planner .dpl-planner-output';

async function choosePreset(page, id) {
  await page.selectOption('.view-planner select[name="preset"]', id);
}

test('the DeepSeek-V3 preset plans DualPipe with P = 16, and the Markdown download says so', async () => {
  const { context, page, log } = await openPage(browser, { acceptDownloads: true });
  try {
    await page.goto(`${server.url}#view=planner`);
    await choosePreset(page, 'deepseek-v3-2048-h800');
    await page.waitForSelector(`${OUT} .dpl-planner-table[data-schedule="dualpipe"]`, { timeout: 20000 });
    assert.equal(await page.getAttribute(`${OUT} .dpl-planner-table`, 'data-ranks'), '16');
    const text = await page.textContent(OUT);
    assert.match(text, /DualPipe/);
    assert.match(text, /16 ranks, 16 stages/);
    assert.match(text, /3\.52%/);
    assert.match(text, /moe-expert-parallel/);
    assert.ok(await page.isVisible(`${OUT} .dpl-planner-rollback`));
    await screenshot(page, 'planner.png', { fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.view-planner a[download]')]);
    assert.equal(download.suggestedFilename(), 'dualpipe-plan.md');
    const md = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
    assert.match(md, /DualPipe/);
    assert.match(md, /^# /m);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the 7B preset is rejected with its reason shown', async () => {
  const { context, page, log } = await openPage(browser);
  try {
    await page.goto(`${server.url}#view=planner`);
    await choosePreset(page, 'dense-7b-8gpu');
    await page.waitForSelector(`${OUT} .dpl-planner-verdict.is-reject`, { timeout: 20000 });
    const verdict = await page.textContent(`${OUT} .dpl-planner-verdict`);
    assert.match(verdict, /fits-one-gpu/);
    assert.match(verdict, /fits in the usable/);
    assert.match(verdict, /data parallelism only/);
    assert.equal(await page.$(`${OUT} .dpl-planner-table`), null);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a bad field shows the simulator message beside that field, and clears when fixed', async () => {
  const { context, page, log } = await openPage(browser);
  try {
    await page.goto(`${server.url}#view=planner`);
    await page.waitForSelector(`${OUT} .dpl-planner-table`, { timeout: 20000 });
    const gpus = '.view-planner input[name="cluster.gpus"]';
    await page.fill(gpus, '-1');
    await page.press(gpus, 'Tab');
    const msg = '.view-planner .dpl-field-msg[data-path="/cluster/gpus"]';
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.length > 0, msg);
    assert.match(await page.textContent(msg), /cluster\.gpus/);
    assert.equal(await page.getAttribute(gpus, 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('.view-planner a[download]', 'aria-disabled'), 'true');
    // Keyboard: type a good value back and press Enter to plan.
    await page.fill(gpus, '2048');
    await page.press(gpus, 'Enter');
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '', msg);
    await page.waitForSelector(`${OUT} .dpl-planner-table[data-schedule="dualpipe"]`);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
