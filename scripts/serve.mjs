#!/usr/bin/env node
// Zero-dependency static server for the page (`make serve`, browser tests, benchmarks). Serves
// one directory (default web/) on 127.0.0.1 with the MIME types the page needs (.wasm must be
// application/wasm for streaming compilation) and the page's Content-Security-Policy, so local
// runs see the same restrictions as a deployment. Nothing outside the root is ever served.
//
// Usage: node scripts/serve.mjs [--port N] [--root DIR]    (PORT env also sets the port)
// The first stdout line is the URL, e.g. http://127.0.0.1:8000/ ; with --port 0 it names the
// port the OS chose, which tests read.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

// 'wasm-unsafe-eval' allows WebAssembly compilation without allowing JS eval; frame-ancestors *
// lets other sites embed embed.html in an iframe. The page has no <base> and submits no forms,
// so base-uri and form-action allow none (an injected <base> or <form> goes nowhere).
export const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
    "style-src 'self'; img-src 'self' data:; worker-src 'self'; frame-ancestors *; " +
    "base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
};

// A page of another origin may embed the lab (the course figure, figures-dualpipe.js, served
// from here): its browser fetches our module scripts, the wasm, the web fonts (@font-face loads
// are CORS requests: without the header every letter of a script the machine has no font for
// is a box), stylesheets and data in CORS mode, so every such file carries the header when it
// is served. Pages and error responses do not.
const CORS_HEADERS = { 'Access-Control-Allow-Origin': '*' };
const CORS_TYPES = new Set(['.js', '.mjs', '.wasm', '.woff2', '.css', '.json']);
export function needsCors(urlPath) {
  return CORS_TYPES.has(path.extname(urlPath).toLowerCase());
}

function parseArgs(argv) {
  const options = { port: Number(process.env.PORT ?? 8000), root: path.join(REPO, 'web') };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = inline ?? argv[++i];
    if (flag === '--port') options.port = Number(value);
    else if (flag === '--root') options.root = path.resolve(value);
    else throw new Error(`unknown option ${argv[i]} (use --port N, --root DIR)`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new Error('port must be an integer in [0, 65535]');
  }
  return options;
}

function sendText(res, security, status, text, extra = {}) {
  res.writeHead(status, { ...security, 'Content-Type': 'text/plain; charset=utf-8',
                          'Content-Length': Buffer.byteLength(text), ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

// Maps a request path to a file inside root, or null. Decodes first, then checks the resolved
// real path (symlinks included) still lies inside root: %2e%2e and %2f tricks end up outside.
async function resolveFile(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { status: 400 };
  }
  if (decoded.includes('\0') || decoded.split(/[\\/]/).includes('..')) return { status: 403 };
  let file = path.resolve(root, '.' + decoded);
  if (file !== root && !file.startsWith(root + path.sep)) return { status: 403 };
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      if (!urlPath.endsWith('/')) return { redirect: urlPath + '/' };
      file = path.join(file, 'index.html');
      info = await stat(file);
    }
    const real = await realpath(file);
    if (!real.startsWith(root + path.sep)) return { status: 403 };
    return info.isFile() ? { file: real, size: info.size, mtime: info.mtime } : { status: 404 };
  } catch {
    return { status: 404 };
  }
}

// A request path with one leading slash: "//host/x" or "/\\host/x" would otherwise become a
// redirect to "//host/x/", which a browser reads as another host (protocol-relative).
export function normalisePath(url) {
  return '/' + url.split(/[?#]/)[0].replace(/^[\\/]+/, '');
}

// An error names the path it was asked for as one short line of URL characters: anything else
// the client sent (spaces, quotes, angle brackets, bytes above ASCII) percent-encoded.
function quotedPath(urlPath) {
  const safe = urlPath.replace(/[^A-Za-z0-9._~!$&'()*+,;=:@/%-]/g,
                               (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return safe.length > 80 ? `${safe.slice(0, 77)}...` : safe;
}

async function handle(req, res, root, security) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendText(res, security, 405, 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
    return;
  }
  const urlPath = normalisePath(req.url);
  const found = await resolveFile(root, urlPath);
  if (found.redirect) {
    sendText(res, security, 301, 'Moved Permanently\n', { Location: found.redirect });
  } else if (found.status) {
    const reason = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found' }[found.status];
    sendText(res, security, found.status, `${reason}: ${quotedPath(urlPath)}\n`);
  } else {
    // no-cache: a rebuild must reach the next reload. The validator lets the browser revalidate
    // instead of downloading again: each sweep worker loads the same module, and gets a 304.
    const etag = `"${found.size.toString(16)}-${found.mtime.getTime().toString(16)}"`;
    const cache = { 'Cache-Control': 'no-cache', ETag: etag, ...(needsCors(urlPath) ? CORS_HEADERS : {}) };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ...security, ...cache });
      res.end();
      return;
    }
    res.writeHead(200, {
      ...security,
      'Content-Type': MIME_TYPES[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': found.size,
      ...cache,
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(found.file).on('error', () => res.destroy()).pipe(res);
  }
}

// A request Node's own parser refuses (bytes above ASCII in its line, headers past 16 KB, a
// request that took too long) never reaches handle(): Node answers it. Its default answer has no
// headers at all, so this one takes its place, with the same status and the security headers of
// every other answer.
const CLIENT_ERRORS = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};
function answerClientError(error, socket, security) {
  // Nothing to answer on a connection that is gone, or that is part-way through an answer.
  if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason] = CLIENT_ERRORS[error.code] ?? [400, 'Bad Request'];
  const body = `${reason}\n`;
  const headers = { ...security, 'Content-Type': 'text/plain; charset=utf-8',
                    'Content-Length': Buffer.byteLength(body), Connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${head}\r\n${body}`);
}

/**
 * The server of `rootDir`. `security`: the headers every response carries (the page's CSP...);
 * tests that stand in for another site (the course, which sends none) pass {}.
 */
export function createServer(rootDir, { security = SECURITY_HEADERS } = {}) {
  const rootPromise = realpath(rootDir);
  const server = http.createServer(async (req, res) => {
    try {
      await handle(req, res, await rootPromise, security);
    } catch {
      // Never an unhandled rejection (it would stop the server): a plain 500, or a cut connection
      // if the headers were already sent.
      if (res.headersSent) res.destroy();
      else sendText(res, security, 500, 'Internal Server Error\n');
    }
  });
  server.on('clientError', (error, socket) => answerClientError(error, socket, security));
  return server;
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
    await stat(options.root);
  } catch (error) {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  }
  const server = createServer(options.root);
  server.on('error', (error) => {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  });
  server.listen(options.port, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${server.address().port}/`);
    console.log(`serving ${path.relative(process.cwd(), options.root) || '.'} (Ctrl-C stops)`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
