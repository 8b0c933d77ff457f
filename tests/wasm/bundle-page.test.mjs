// scripts/bundle-page.mjs on a small site of its own: the four bundles index.html loads, app.js
// importing the boot.js beside it (the module index.html already ran) instead of a copy of it,
// and the build refusing import.meta.url in a module below js/, where it would mean another
// place once bundled.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { bundlePage } from '../../scripts/bundle-page.mjs';

function site(files) {
  const web = mkdtempSync(path.join(tmpdir(), 'bundle-test-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(web, name)), { recursive: true });
    writeFileSync(path.join(web, name), text);
  }
  return web;
}

const BASE = {
  'js/boot.js': 'export const started = new URL("./sim-worker.js", import.meta.url).href;\n',
  'js/sim-worker.js': 'self.onmessage = () => {};\n',
  'js/script-base.js': 'export const SCRIPTS = new URL("./", import.meta.url);\n',
  'js/lib/worker-url.js': 'import { SCRIPTS } from "../script-base.js";\nexport const workerUrl = new URL("sim-worker.js", SCRIPTS).href;\n',
  'js/app.js': 'import { started } from "./boot.js";\nimport { workerUrl } from "./lib/worker-url.js";\nconsole.log(started, workerUrl);\n',
  'css/index.css': '@import "a.css";\n',
  'css/a.css': 'body { color: red }\n',
};

test('the four bundles index.html loads, with app.js importing the boot.js beside it', async () => {
  const web = site(BASE);
  try {
    const written = await bundlePage(web, path.join(web, 'generated'));
    for (const bundle of ['boot.js', 'sim-worker.js', 'app.js', 'index.css']) assert.ok(written.includes(bundle), `${bundle} not written`);
    const app = readFileSync(path.join(web, 'generated/app.js'), 'utf8');
    assert.match(app, /from\s*"\.\/boot\.js"/);
    assert.doesNotMatch(app, /new URL\("\.\/sim-worker\.js"/, 'boot.js is not copied into app.js');
    assert.match(readFileSync(path.join(web, 'generated/index.css'), 'utf8'), /color:\s*red/);
  } finally {
    rmSync(web, { recursive: true, force: true });
  }
});

test('import.meta.url in a bundled module below js/ fails the build, naming the module', async () => {
  const web = site({ ...BASE, 'js/lib/worker-url.js': 'export const workerUrl = new URL("../sim-worker.js", import.meta.url).href;\n' });
  try {
    await assert.rejects(bundlePage(web, path.join(web, 'generated')), /js\/lib\/worker-url\.js: import\.meta\.url/);
  } finally {
    rmSync(web, { recursive: true, force: true });
  }
});
