// The planner view in Chromium: presets plan as pipesim.plan does, a reject is shown with its
// reason, a bad field gets the SimError message beside it, the Markdown download works, and a
// plan survives the address (a bad value there gets its message beside its field).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, screenshot, requestedPaths, isChunkOf } from './helpers.mjs';
import { presetSpec } from '../../web/js/lib/planner-presets.js';
import CATALOGUE from '../../web/generated/catalogue.js';

const site = useSite();

const OUT = '.view-planner .dpl-planner-output';

async function choosePreset(page, id) {
  await page.selectOption('.view-planner select[name="preset"]', id);
}

test('the DeepSeek-V3 preset plans DualPipe with P = 16, and the Markdown download says so', async () => {
  const { context, page, log } = await openPage(site.browser, { acceptDownloads: true });
  try {
    await page.goto(`${site.server.url}#view=planner`);
    await choosePreset(page, 'deepseek-v3-2048-h800');
    await page.waitForSelector(`${OUT} .dpl-planner-table[data-schedule="dualpipe"]`, { timeout: 20000 });
    assert.equal(await page.getAttribute(`${OUT} .dpl-planner-table`, 'data-ranks'), '16');
    const text = await page.textContent(OUT);
    assert.match(text, /DualPipe/);
    assert.match(text, /16 ranks, 16 stages/);
    assert.match(text, /3\.52%/);
    // The rule that chose it, in words rather than its tag.
    assert.match(text, /mixture of experts with expert parallelism/);
    assert.doesNotMatch(text, /moe-expert-parallel/);
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

test('the 7B preset gets no pipeline, as a recommendation with its reason shown', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=planner`);
    await choosePreset(page, 'dense-7b-8gpu');
    await page.waitForSelector(`${OUT} .dpl-planner-verdict.is-recommend`, { timeout: 20000 });
    const verdict = await page.textContent(`${OUT} .dpl-planner-verdict`);
    assert.doesNotMatch(verdict, /fits-one-gpu/);
    assert.match(verdict, /fits in the usable/);
    assert.match(verdict, /data parallelism only/);
    assert.equal(await page.$(`${OUT} .dpl-planner-table`), null);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('in Hindi the plan says everything core says in Hindi: reasoning, verdict, kernel advice, rollback', async () => {
  const { context, page, log } = await openPage(site.browser);
  const devanagari = /[\u0900-\u097F]/;
  try {
    await page.goto(`${site.server.url}#view=planner&lang=hi&plan=deepseek-v3-2048-h800`);
    await page.waitForSelector(`${OUT} .dpl-planner-table[data-schedule="dualpipe"]`, { timeout: 20000 });
    const said = async () => [
      ...(await page.$$eval(`${OUT} .dpl-planner-reasoning li`, (items) => items.map((li) => li.lastChild.textContent))),
      ...(await page.$$eval(`${OUT} :is(.dpl-planner-kernel, .dpl-planner-rollback, .dpl-planner-verdict p)`, (ps) => ps.map((p) => p.textContent))),
    ];
    const plan = await said();
    assert.ok(plan.length > 10);
    for (const text of plan) {
      assert.match(text, devanagari, text);
      assert.doesNotMatch(text, /\b(the|of|with|and)\b/, `no English sentence left: ${text}`);
    }
    assert.equal(await page.textContent(`${OUT} .dpl-planner-title`), '2048 H800 पर DeepSeek-V3');
    await choosePreset(page, 'dense-7b-8gpu');
    await page.waitForSelector(`${OUT} .dpl-planner-verdict.is-recommend`, { timeout: 20000 });
    for (const text of await said()) assert.match(text, devanagari, text);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('in Russian and Arabic the plan\'s memory assumptions say no English sentence of core: sources and recipe from their phrases', async () => {
  // Core's English words in the memory model's phrases (catalogue planTexts, memory.* rows): each
  // run of words between punctuation, without the paper titles in quotes (names, as written in
  // every language) and placeholders. None may show in another language.
  const english = CATALOGUE.planTexts.filter((p) => p.id.startsWith('memory.'))
    .flatMap((p) => p.message.replace(/"[^"]*"/g, '|').replace(/\{\w+\}/g, '|').split(/[|;:,()]/))
    .map((run) => run.trim()).filter((run) => /\b(the|of|and|our|over|in|on|an|a)\b/.test(run));
  assert.ok(english.includes('our assumption'), english.join(' / '));
  assert.ok(english.length > 8);
  for (const [lang, script] of [['ru', /[\u0400-\u04FF]/], ['ar', /[\u0600-\u06FF]/]]) {
    const { context, page, log } = await openPage(site.browser);
    try {
      await page.goto(`${site.server.url}#view=planner&lang=${lang}&plan=deepseek-v3-2048-h800`);
      await page.waitForSelector(`${OUT} .dpl-planner-table[data-schedule="dualpipe"]`, { timeout: 20000 });
      const items = await page.$$eval(`${OUT} .dpl-assumptions dd`, (dds) => dds.map((dd) => dd.textContent));
      assert.equal(items.length, 4, lang);
      for (const text of items) {
        assert.match(text, script, text);
        for (const run of english) assert.ok(!text.includes(run), `${lang}: core's English "${run}" in: ${text}`);
      }
      assert.doesNotMatch(items.join(' '), /our assumption|Mixed-precision|stage layout/);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('a bad field shows the simulator message beside that field, and clears when fixed', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=planner`);
    await page.waitForSelector(`${OUT} .dpl-planner-table`, { timeout: 20000 });
    const gpus = '.view-planner input[name="cluster.gpus"]';
    await page.fill(gpus, '-1');
    await page.press(gpus, 'Tab');
    const msg = '.view-planner .dpl-field-msg[data-path="/cluster/gpus"]';
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.length > 0, msg);
    assert.doesNotMatch(await page.textContent(msg), /cluster\.gpus/, 'named in words, not by its key');
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

test('a plan round-trips through the address: its preset and the fields changed from it', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}#view=planner`);
    await page.waitForSelector(`${OUT} .dpl-planner-table`, { timeout: 20000 });
    await choosePreset(page, 'dense-70b-1024');
    await page.waitForFunction(() => location.hash.includes('plan=dense-70b-1024'));
    await page.fill('.view-planner input[name="cluster.gpus"]', '512');
    await page.fill('.view-planner input[name="cluster.nodes"]', '64');
    await page.press('.view-planner input[name="cluster.nodes"]', 'Enter');
    await page.waitForFunction(() => location.hash.includes('cluster.nodes=64'));
    const hash = await page.evaluate(() => location.hash);
    assert.equal(hash, '#view=planner&plan=dense-70b-1024&cluster.gpus=512&cluster.nodes=64');

    // The copied address, opened afresh, plans the same spec as pipesim.plan does here.
    const spec = presetSpec('dense-70b-1024');
    Object.assign(spec.cluster, { gpus: 512, nodes: 64 });
    const plan = site.api.plan(spec);
    const fresh = await openPage(site.browser);
    try {
      await fresh.page.goto(`${site.server.url}${hash}`);
      await fresh.page.waitForSelector(`${OUT} .dpl-planner-table`, { timeout: 20000 });
      const shown = await fresh.page.evaluate((out) => ({
        preset: document.querySelector('.view-planner select[name="preset"]').value,
        gpus: document.querySelector('.view-planner input[name="cluster.gpus"]').value,
        nodes: document.querySelector('.view-planner input[name="cluster.nodes"]').value,
        layers: document.querySelector('.view-planner input[name="model.layers"]').value,
        schedule: document.querySelector(`${out} .dpl-planner-table`).dataset.schedule,
        ranks: document.querySelector(`${out} .dpl-planner-table`).dataset.ranks,
        hash: location.hash,
      }), OUT);
      assert.deepEqual(shown, { preset: '', gpus: '512', nodes: '64', layers: '80', schedule: plan.schedule, ranks: String(plan.ranks), hash });
      assert.deepEqual(fresh.log.errors, []);
    } finally {
      await fresh.context.close();
    }
    // Back to a preset unchanged: the address holds just its name.
    await choosePreset(page, 'dense-7b-8gpu');
    await page.waitForFunction(() => location.hash === '#view=planner&plan=dense-7b-8gpu');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('a bad plan value in the address gets its message beside the field, never a blank page', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    const base = presetSpec('deepseek-v3-2048-h800');
    const rejected = (edit) => {
      const spec = JSON.parse(JSON.stringify(base));
      edit(spec);
      try { site.api.plan(spec); } catch (error) { return error.message; }
      return null;
    };
    const cases = [
      ['cluster.gpus=abc', '/cluster/gpus', rejected((s) => { s.cluster.gpus = 'abc'; })],
      ['model.type=hybrid', '/model/type', rejected((s) => { s.model.type = 'hybrid'; })],
      ['customAllToAllKernel=maybe', '/customAllToAllKernel', rejected((s) => { s.customAllToAllKernel = 'maybe'; })],
      ['plan=dense-9000', 'plan', 'plan must be one of deepseek-v3-2048-h800, dense-70b-1024, or dense-7b-8gpu (got "dense-9000")'],
    ];
    for (const [params, path, message] of cases) {
      assert.ok(message, `${params} is rejected`);
      await page.goto(`${site.server.url}#view=planner&${params}`);
      const msg = `.view-planner .dpl-field-msg[data-path="${path}"]`;
      await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.length > 0, msg, { timeout: 20000 });
      const shown = await page.$eval(msg, (m) => (m.querySelector('.dpl-field-msg-text') ?? m).textContent);
      // Fields speak in plain words (never core's "cluster.gpus must ..."); the preset picker
      // keeps the page's own message.
      if (path === 'plan') assert.equal(shown, message, params);
      else assert.doesNotMatch(shown, new RegExp(`^${path.slice(1).replace('/', '\\.')}`), params);
      const control = await page.$eval(msg, (m) => document.querySelector(`[aria-describedby~="${m.id}"]`).getAttribute('aria-invalid'));
      assert.equal(control, 'true', params);
      assert.ok(await page.isVisible('.view-planner form'), 'the form is still there');
      // The address keeps the bad value until the learner changes it.
      assert.match(await page.evaluate(() => location.hash), new RegExp(params.replace('.', '\\.')));
    }
    // Fixing the field plans again and clears the message.
    await page.goto(`${site.server.url}#view=planner&cluster.gpus=abc`);
    await page.waitForSelector('.view-planner .dpl-field-msg[data-path="/cluster/gpus"]:not(:empty)', { timeout: 20000 });
    await page.fill('.view-planner input[name="cluster.gpus"]', '2048');
    await page.press('.view-planner input[name="cluster.gpus"]', 'Enter');
    await page.waitForSelector(`${OUT} .dpl-planner-table[data-schedule="dualpipe"]`);
    await page.waitForFunction(() => location.hash === '#view=planner');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('requested schedule and chunks: picked from the catalogue, planned as core plans them, kept in the address', async () => {
  const { context, page, log } = await openPage(site.browser);
  try {
    const schedule = '.view-planner select[name="requested.schedule"]';
    const chunks = '.view-planner input[name="requested.chunks"]';
    await page.goto(`${site.server.url}#view=planner&plan=dense-70b-1024`);
    await page.waitForSelector(`${OUT} .dpl-planner-table`, { timeout: 20000 });
    // Every catalogue schedule is offered, after the planner's own choice.
    const offered = await page.$$eval(`${schedule} option`, (os) => os.map((o) => o.value));
    assert.deepEqual(offered, ['', ...site.api.catalogue().schedules.map((s) => s.name)]);
    assert.equal(await page.$eval(chunks, (c) => c.disabled), true, 'no chunks before a schedule that takes them');
    const chunked = site.api.catalogue().schedules.find((s) => s.chunks);
    await page.selectOption(schedule, chunked.name);
    assert.equal(await page.$eval(chunks, (c) => c.disabled), false);
    assert.equal(await page.getAttribute(chunks, 'placeholder'), String(chunked.chunks.default));
    await page.fill(chunks, '4');
    await page.press(chunks, 'Enter');
    const spec = presetSpec('dense-70b-1024');
    spec.requested = { schedule: chunked.name, chunks: 4 };
    const plan = site.api.plan(spec);
    await page.waitForSelector(`${OUT} .dpl-planner-table[data-schedule="${chunked.name}"]`);
    assert.equal(await page.getAttribute(`${OUT} .dpl-planner-table`, 'data-ranks'), String(plan.ranks));
    await page.waitForFunction(() => location.hash.includes('requested.chunks=4'));
    assert.equal(await page.evaluate(() => location.hash), `#view=planner&plan=dense-70b-1024&requested.schedule=${chunked.name}&requested.chunks=4`);
    // A schedule without chunks takes the chunks away with it.
    const fixed = site.api.catalogue().schedules.find((s) => !s.chunks && s.name !== 'dualpipe');
    await page.selectOption(schedule, fixed.name);
    await page.waitForFunction(() => !location.hash.includes('requested.chunks'));
    assert.equal(await page.$eval(chunks, (c) => c.disabled && c.value === ''), true);
    await page.waitForSelector(`${OUT} .dpl-planner-table[data-schedule="${fixed.name}"]`);
    // From the address, what the simulator rejects is said beside the field that holds it.
    for (const [params, path] of [[`requested.schedule=${fixed.name}&requested.chunks=4`, '/requested/chunks'], ['requested.schedule=nope', '/requested/schedule']]) {
      await page.goto(`${site.server.url}#view=planner&plan=dense-70b-1024&${params}`);
      const msg = `.view-planner .dpl-field-msg[data-path="${path}"]`;
      await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.length > 0, msg, { timeout: 20000 });
      const control = await page.$eval(msg, (m) => document.querySelector(`[aria-describedby~="${m.id}"]`).getAttribute('aria-invalid'));
      assert.equal(control, 'true', params);
    }
    await screenshot(page, 'planner-requested.png', { fullPage: true });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the planner and sweep code loads only when their tab is first opened', async () => {
  const { context, page, log } = await openPage(site.browser);
  const requested = requestedPaths(page);
  try {
    await page.goto(site.server.url);
    await page.waitForSelector('.lesson-body h1, #lesson-root h1', { timeout: 20000 });
    await page.waitForLoadState('networkidle');
    assert.deepEqual(requested.filter((p) => isChunkOf(p, 'planner') || isChunkOf(p, 'sweep-chart')), []);
    await page.click('.site-nav a[data-view="planner"]');
    await page.waitForSelector('.view-planner select[name="preset"]', { timeout: 20000 });
    assert.ok(requested.some((p) => isChunkOf(p, 'planner')));
    assert.ok(!requested.some((p) => isChunkOf(p, 'sweep-chart')));
    await page.click('.site-nav a[data-view="sweep"]');
    await page.waitForSelector('.view-sweep .dpl-sweep', { timeout: 20000 });
    assert.ok(requested.some((p) => isChunkOf(p, 'sweep-chart')));
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
