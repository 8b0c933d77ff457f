// scripts/bundle-page.mjs on a small site of its own: the four bundles index.html loads, app.js
// importing the boot.js beside it (the module index.html already ran) instead of a copy of it, a
// module loaded on first use kept in a file of its own that takes what it shares with app.js
// from app.js, and the build refusing import.meta.url in a module below js/, where it would mean
// another place once bundled.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { bundlePage, isChunkFile } from '../../scripts/bundle-page.mjs';

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

test('a module loaded on first use is a file of its own; what it shares with app.js stays in app.js', async () => {
  const web = site({
    ...BASE,
    'js/lib/shared.js': 'export const shared = () => "shared-marker";\n',
    'js/views/later.js': 'import { shared } from "../lib/shared.js";\nexport const later = () => shared() + "later-marker";\n',
    'js/app.js': `${BASE['js/app.js']}import { shared } from "./lib/shared.js";\nconsole.log(shared());\nimport("./views/later.js").then((m) => console.log(m.later()));\n`,
  });
  try {
    const written = await bundlePage(web, path.join(web, 'generated'));
    const later = written.filter((file) => isChunkFile(file, 'later'));
    assert.equal(later.length, 1, written.join(', '));
    assert.deepEqual(written.filter((file) => file.endsWith('.js') && !['app.js', 'boot.js', 'sim-worker.js', later[0]].includes(file)), []);
    const read = (file) => readFileSync(path.join(web, 'generated', file), 'utf8');
    assert.match(read('app.js'), /shared-marker/);
    assert.doesNotMatch(read('app.js'), /later-marker/);
    assert.match(read(later[0]), /later-marker/);
    assert.doesNotMatch(read(later[0]), /shared-marker/, 'not a second copy of the shared module');
    assert.match(read(later[0]), /from\s*"\.\/app\.js"/);
  } finally {
    rmSync(web, { recursive: true, force: true });
  }
});

test('boot.js knows the file of each of app.js\'s language packs (LANG_PACKS)', async () => {
  const web = site({
    ...BASE,
    'js/boot.js': `${BASE['js/boot.js']}export const packs = typeof LANG_PACKS === "undefined" ? null : LANG_PACKS;\n`,
    'js/lib/i18n-xx.js': 'export const strings = { hello: "xx-marker" };\n',
    'js/app.js': `${BASE['js/app.js']}import("./lib/i18n-xx.js").then((m) => console.log(m.strings));\n`,
  });
  try {
    const written = await bundlePage(web, path.join(web, 'generated'));
    const pack = written.find((file) => isChunkFile(file, 'i18n-xx'));
    assert.ok(pack, written.join(', '));
    assert.match(readFileSync(path.join(web, 'generated', pack), 'utf8'), /xx-marker/);
    assert.match(readFileSync(path.join(web, 'generated/boot.js'), 'utf8'), new RegExp(`xx:\\s*"${pack.replace('.', '\\.')}"`));
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
