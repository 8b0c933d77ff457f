// scripts/serve.mjs: the right MIME types, the page's CSP and nosniff on every response, CORS only
// on the files a page of another origin loads in CORS mode (scripts, wasm, fonts, styles, data),
// plain text 404s, nothing
// outside the root however the path is spelled, and no redirect to another host.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import test from 'node:test';
import { repoPath } from './helpers.mjs';
import { SECURITY_HEADERS } from '../../scripts/serve.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "worker-src 'self'; frame-ancestors *; base-uri 'none'; form-action 'none'";
const SECRET = 'outside-the-root-secret';

// A root with one file of each type, and a secret beside (not inside) it.
const dir = mkdtempSync(path.join(tmpdir(), 'serve-test-'));
const root = path.join(dir, 'root');
for (const sub of ['sub', 'js/embed', 'generated', 'css']) mkdirSync(path.join(root, sub), { recursive: true });
writeFileSync(path.join(dir, 'secret.txt'), SECRET);
const files = { 'index.html': '<!doctype html>', 'm.wasm': '\0asm', 'a.mjs': 'export {}', 'b.js': '', 'c.css': '',
                'd.json': '{}', 'e.svg': '<svg/>', 'f.woff2': '', 'sub/index.html': 'sub',
                'js/embed/w.js': '', 'js/app.js': '', 'generated/pipesim.mjs': '', 'generated/pipesim.wasm': '\0asm',
                'generated/catalogue.json': '{}', 'css/widgets.css': '' };
for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, name), text);
symlinkSync(path.join(dir, 'secret.txt'), path.join(root, 'link.txt'));

let server;
let port;

test.before(async () => {
  server = spawn(process.execPath, [repoPath('scripts/serve.mjs'), '--port', '0', '--root', root], { stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve));
  port = Number(firstLine.match(/^http:\/\/127\.0\.0\.1:(\d+)\/$/)[1]);
});

test.after(() => {
  server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

// A raw request: the path is sent exactly as written (fetch() would normalise "..").
function get(rawPath, method = 'GET', headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => { body += chunk; }).on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject).end();
  });
}

test('serves each file type with its MIME type, the CSP and nosniff', async () => {
  const expected = { '/m.wasm': 'application/wasm', '/a.mjs': 'text/javascript; charset=utf-8',
    '/b.js': 'text/javascript; charset=utf-8', '/c.css': 'text/css; charset=utf-8',
    '/d.json': 'application/json; charset=utf-8', '/e.svg': 'image/svg+xml', '/f.woff2': 'font/woff2',
    '/': 'text/html; charset=utf-8', '/sub/': 'text/html; charset=utf-8' };
  for (const [url, type] of Object.entries(expected)) {
    const res = await get(url);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers['content-type'], type, url);
    assert.equal(res.headers['content-security-policy'], CSP, url);
    assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
  }
  assert.equal((await get('/sub/')).body, 'sub');
});

// A page of another origin that embeds the lab (the course figure) fetches the module scripts,
// the wasm, the web fonts, the stylesheets and the data in CORS mode: a font without the header
// is refused, and its script drawn as boxes.
test('CORS on every file another origin\'s page loads in CORS mode (scripts, wasm, fonts, styles, data), not on pages or errors', async () => {
  for (const url of ['/js/embed/w.js', '/js/app.js', '/generated/pipesim.mjs', '/generated/pipesim.wasm', '/m.wasm', '/a.mjs',
                     '/f.woff2', '/css/widgets.css', '/c.css', '/generated/catalogue.json']) {
    const res = await get(url);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers['access-control-allow-origin'], '*', url);
    const again = await get(url, 'GET', { 'If-None-Match': res.headers.etag });
    assert.equal(again.status, 304, url);
    assert.equal(again.headers['access-control-allow-origin'], '*', url);
  }
  for (const url of ['/', '/index.html', '/sub/', '/sub', '/e.svg', '/js/nope.js', '/js/../../secret.txt', '/generated/%ff.js', '/js/embed', '/nope.woff2']) {
    const res = await get(url);
    assert.equal(res.headers['access-control-allow-origin'], undefined, `${url} (${res.status})`);
  }
  assert.equal((await get('/js/app.js', 'POST')).headers['access-control-allow-origin'], undefined);
});

test('createServer({security: {}}) serves without the page\'s headers (a stand-in for another site)', async () => {
  const { createServer } = await import(repoPath('scripts/serve.mjs'));
  const plain = createServer(root, { security: {} });
  await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve));
  try {
    const res = await new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: plain.address().port, path: '/index.html' }, (r) => { r.resume(); r.on('end', () => resolve(r)); }).on('error', reject);
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-security-policy'], undefined);
    assert.equal(res.headers['x-content-type-options'], undefined);
  } finally {
    await new Promise((resolve) => plain.close(resolve));
  }
});

test('a file is revalidated, not downloaded again: its ETag gets a 304 until the file changes', async () => {
  writeFileSync(path.join(root, 'g.wasm'), '\0asm');
  const first = await get('/g.wasm');
  assert.equal(first.headers['cache-control'], 'no-cache');
  assert.match(first.headers.etag, /^"[0-9a-f]+-[0-9a-f]+"$/);
  const again = await get('/g.wasm', 'GET', { 'If-None-Match': first.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body, '');
  assert.equal(again.headers['content-security-policy'], CSP);
  writeFileSync(path.join(root, 'g.wasm'), '\0asm\x01');  // a rebuild: new size, new tag
  const rebuilt = await get('/g.wasm', 'GET', { 'If-None-Match': first.headers.etag });
  assert.equal(rebuilt.status, 200);
  assert.notEqual(rebuilt.headers.etag, first.headers.etag);
  assert.equal((await get('/a.mjs', 'GET', { 'If-None-Match': first.headers.etag })).status, 200);
});

test('a missing file is a plain-text 404 with the same headers', async () => {
  const res = await get('/nope.js');
  assert.equal(res.status, 404);
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(res.headers['content-security-policy'], CSP);
  assert.equal(res.body, 'Not Found: /nope.js\n');
});

test('no path reaches outside the root: .., encoded dots and slashes, backslashes, symlinks', async () => {
  for (const url of ['/../secret.txt', '/sub/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt',
                     '/sub/..%2F..%2Fsecret.txt', '/..%5csecret.txt', '/link.txt', '/%00']) {
    const res = await get(url);
    assert.equal(res.status, 403, url);
    assert.ok(!res.body.includes(SECRET), url);
  }
});

test('a directory without its slash redirects; other methods are refused', async () => {
  const res = await get('/sub');
  assert.equal(res.status, 301);
  assert.equal(res.headers.location, '/sub/');
  assert.equal((await get('/d.json', 'POST')).status, 405);
  const head = await get('/m.wasm', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-length'], '4');
});

// A raw request over a socket, bytes exactly as given (http.request validates the path). Written,
// not ended: the server drops a half-closed connection before it answers.
function raw(requestLine) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(Buffer.concat([Buffer.from(requestLine, 'latin1'), Buffer.from('\r\nHost: x\r\nConnection: close\r\n\r\n')]));
    });
    const chunks = [];
    socket.on('data', (c) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks).toString('latin1'))).on('error', reject);
  });
}

test('leading slashes never make a redirect to another host', async () => {
  for (const url of ['//sub', '///sub', '/\\sub', '//\\sub', '/\\/sub']) {
    const res = await raw(`GET ${url} HTTP/1.1`);
    const location = /\r\nLocation: ([^\r]*)/i.exec(res)?.[1];
    assert.equal(location, '/sub/', `${url}: ${res.split('\r\n')[0]}`);
  }
  assert.equal((await get('//js/app.js')).status, 200);
});

test('hostile requests get short plain answers, and the server keeps serving', async () => {
  const long = `/${'a'.repeat(8000)}`;
  const answers = [
    [`GET ${long} HTTP/1.1`, 404],
    ['GET /%ff HTTP/1.1', 400],
    ['GET /% HTTP/1.1', 400],
    ['GET /sub%0d%0aSet-Cookie:%20x=1 HTTP/1.1', 404],
    ['GET /<script>alert(1)</script> HTTP/1.1', 404],
    ['DELETE / HTTP/1.1', 405],
    ['GET /sub/../../secret.txt HTTP/1.1', 403],
  ];
  // Bytes above ASCII in the request line, and headers past Node's 16 KB: Node's own parser
  // refuses them; the answer still carries the security headers of every other (issue 30; Node's
  // default answer had none).
  for (const [request, status] of [['GET /\xe9\xff HTTP/1.1', 400], ['GET / HTTP/1.1\r\nX: \x01', 400],
                                   [`GET / HTTP/1.1\r\nX-Big: ${'h'.repeat(20_000)}`, 431], ['BREW / HTCPCP/1.0', 400]]) {
    const res = await raw(request);
    const [head, body] = res.split('\r\n\r\n');
    const what = request.slice(0, 30);
    assert.match(head, new RegExp(`^HTTP/1.1 ${status} `), what);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      assert.ok(head.split('\r\n').includes(`${name}: ${value}`), `${what}: no ${name}`);
    }
    assert.match(head, /\r\nContent-Type: text\/plain; charset=utf-8\r\n/, what);
    assert.ok(body.length <= 120 && body.split('\n').length === 2, `${what}: ${body.slice(0, 200)}`);
  }
  for (const [line, status] of answers) {
    const res = await raw(line);
    const [head, body] = res.split('\r\n\r\n');
    assert.match(head, new RegExp(`^HTTP/1.1 ${status} `), line.slice(0, 60));
    assert.ok(!/\r\nSet-Cookie/i.test(head), line);
    assert.match(head, /\r\nContent-Type: text\/plain; charset=utf-8/i, line.slice(0, 60));
    assert.ok(body.length <= 120 && !/[<>\r]/.test(body) && body.split('\n').length === 2, `${line.slice(0, 60)}: ${body.slice(0, 200)}`);
  }
  assert.equal((await get('/d.json')).status, 200);
});
