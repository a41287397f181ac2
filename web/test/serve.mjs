// A tiny static server for the web bundle, for the browser test and for playing locally:
//   node web/test/serve.mjs [DIR] [PORT]        (defaults: web/dist, 8080; PORT 0 picks one)
// Listens on 127.0.0.1 only. Sends a file's precompressed .br or .gz twin with Content-Encoding
// when the browser accepts it, and .wasm as application/wasm (needed for streaming compilation).
// Prints "serving DIR on http://127.0.0.1:PORT/" once it listens.
import { createServer } from 'node:http';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(process.argv[2] ?? path.join(here, '..', 'dist'));
const port = Number(process.argv[3] ?? 8080);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

async function fileOf(p) {
  try {
    const stat = await fs.stat(p);
    return stat.isFile() ? stat : null;
  } catch {
    return null;
  }
}

/** The encodings the request accepts, ignoring those with q=0. */
function accepted(header) {
  return new Set(
    String(header ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
      .map(([name]) => name.trim().toLowerCase()),
  );
}

const server = createServer(async (req, res) => {
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = path.resolve(root, '.' + pathname);
    if (!file.startsWith(root + path.sep) || path.basename(file).startsWith('.')) {
      res.writeHead(404).end();
      return;
    }
    const stat = await fileOf(file);
    if (!stat) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    const headers = {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
      Vary: 'Accept-Encoding',
    };
    let send = file;
    let size = stat.size;
    const encodings = accepted(req.headers['accept-encoding']);
    for (const [name, ext] of [['br', '.br'], ['gzip', '.gz']]) {
      const twin = encodings.has(name) ? await fileOf(file + ext) : null;
      if (twin) {
        headers['Content-Encoding'] = name;
        send = file + ext;
        size = twin.size;
        break;
      }
    }
    headers['Content-Length'] = size;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(send).pipe(res);
  } catch (e) {
    res.writeHead(500).end(String(e));
  }
});

server.listen(port, '127.0.0.1', () => {
  console.log(`serving ${root} on http://127.0.0.1:${server.address().port}/`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
