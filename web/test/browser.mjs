// The browser test: the real web bundle in Debian's headless Chromium (WebGL2 through SwiftShader),
// driven by touch. Run by web/test.sh, which builds the bundle and serves it:
//   node web/test/browser.mjs http://127.0.0.1:PORT/
// Reads the game's state from the page's hidden <pre id="ludus-state"> (src/shell/web.rs): the screen,
// the moves, whose turn, and where to tap for every legal move.
// Environment: LUDUS_WEB_OUT (screenshots, default /tmp/ludus-web), CHROMIUM (default
// /usr/bin/chromium), LUDUS_MAX_READY_MS (default 15000), LUDUS_MAX_TASK_MS (the longest
// main-thread task while Hard thinks) and LUDUS_MAX_GAP_MS (the largest gap between painted frames
// while Hard thinks; its target is 100 ms): both are printed as benchmarks and fail the test only
// far beyond the target (default 1000 ms each: one preempted frame on a busy machine makes the
// largest of them, while a search holding the main thread for Hard's 2 s makes a gap of seconds;
// 0 only reports them); also asserted: the page keeps painting (the median gap within 100 ms),
// LUDUS_WS_PORT (the WebSocket port of the ludus-server serving the page: the page must offer
// ws://HOST:LUDUS_WS_PORT as the default server; unset: not checked), LUDUS_UDP_ADDR and
// LUDUS_CLI (the server's UDP address and a ludus-cli binary: a bot plays the browser online;
// unset: the online step is skipped), LUDUS_SITE_LINK, LUDUS_V1 and LUDUS_V2 (a symbolic link
// to point at two builds in turn, and the two builds, the second made by web/package.sh; VERSION2-torn
// is version 2's files under version 1's page: the service worker's version test; unset: skipped).
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const base = process.argv[2] ?? 'http://127.0.0.1:5000/';
const out = process.env.LUDUS_WEB_OUT ?? '/tmp/ludus-web';
const maxReadyMs = Number(process.env.LUDUS_MAX_READY_MS ?? 15000);
const maxTaskMs = Number(process.env.LUDUS_MAX_TASK_MS ?? 1000);
const maxGapMs = Number(process.env.LUDUS_MAX_GAP_MS ?? 1000);
/** The frame-gap target while Hard thinks (README's measured table): reported, not asserted. */
const targetGapMs = 100;
/** The median gap between painted frames while Hard thinks: asserted (about 17 ms measured). */
const maxMedianGapMs = 100;
const wsPort = process.env.LUDUS_WS_PORT ?? '';
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
  return ok;
}

/** A fresh Chromium with its own profile in `dir`: software WebGL, touch, 1280x800. */
const launch = (dir) => chromium.launchPersistentContext(dir, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless=new',
    '--no-sandbox',
    '--use-angle=swiftshader',
    '--enable-unsafe-swiftshader',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // The browser's own pages (the address bar's suggestions, drawn with web pages of their
    // own) load now and then as a page starts, in a process of their own: 1.3 s of processor
    // time measured beside one visit, which two cores feel. No person's browser loads them
    // at that moment; each visit of this test could.
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
  ],
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 1,
  hasTouch: true,
});
const profile = mkdtempSync(path.join(os.tmpdir(), 'ludus-chromium-'));
const context = await launch(profile);

// Every console error and uncaught exception on any page fails the test.
const problems = [];
function watch(page, label) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`${label}: console error: ${msg.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${label}: uncaught: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`${label}: request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${label}: HTTP ${r.status()} for ${r.url()}`);
  });
}

async function state(page) {
  const text = await page.locator('#ludus-state').textContent();
  return text ? JSON.parse(text) : null;
}

/** Waits until `pred(state)` holds; returns that state. */
async function until(page, what, pred, timeout = 30000) {
  const end = Date.now() + timeout;
  let last = null;
  while (Date.now() < end) {
    last = await state(page);
    if (last && pred(last)) return last;
    await page.waitForTimeout(25);
  }
  throw new Error(`timed out waiting for ${what}; last state: ${JSON.stringify(last)?.slice(0, 600)}`);
}

/** Where a point given in the canvas's own CSS pixels (the game's logical pixels; the page may
 * draw the canvas at half resolution and scale it up on a software renderer) is in the window,
 * from the page's own layout, and whether the canvas is what is there; `said` describes the
 * page's geometry for a failure's message. */
async function canvasPoint(page, [x, y]) {
  return page.evaluate(([x, y]) => {
    const c = document.getElementById('ludus');
    const r = c.getBoundingClientRect();
    const scale = c.offsetWidth > 0 ? r.width / c.offsetWidth : 1;
    const at = [r.left + x * scale, r.top + y * scale];
    const e = document.elementFromPoint(at[0], at[1]);
    const v = window.visualViewport;
    const said = `canvas at (${Math.round(r.left)},${Math.round(r.top)}) ${Math.round(r.width)}x${Math.round(r.height)} ` +
      `drawn ${c.offsetWidth}x${c.offsetHeight}, window ${innerWidth}x${innerHeight}, ` +
      `visual viewport ${v ? `${Math.round(v.width)}x${Math.round(v.height)} at (${Math.round(v.offsetLeft)},${Math.round(v.offsetTop)}) scale ${v.scale}` : 'none'}, ` +
      `scrolled (${scrollX},${scrollY}); at the point (${at.map(Math.round)}): ${e?.tagName ?? 'nothing'}#${e?.id ?? ''}, ` +
      `focus ${document.hasFocus()}, visibility ${document.visibilityState}`;
    return { at, onCanvas: e === c, said };
  }, [x, y]);
}

/** The window point of `point` (see `canvasPoint`), once the canvas is what is there: a page
 * whose layout is still changing (the window's size, the half-resolution scale) is asked again,
 * every 100 ms for at most 3 s, its tab brought to the front first in case another is; after
 * that, the last answer. `tapMove` reads a move's points just before it taps them: points from an
 * older state are stale once the board has moved (a resized window, another panel). */
async function pointOnCanvas(page, point) {
  let p = await canvasPoint(page, point);
  for (let i = 0; !p.onCanvas && i < 30; i++) {
    if (i === 0) await page.bringToFront();
    await page.waitForTimeout(100);
    p = await canvasPoint(page, point);
  }
  return p;
}

/** Taps a point given in the canvas's own CSS pixels. */
async function tap(page, point) {
  const { at } = await pointOnCanvas(page, point);
  await page.touchscreen.tap(at[0], at[1]);
}

/** Clicks one of the interface's buttons with the mouse (the panel was scrolled with its
 * wheel; the board's moves are tapped). Waits until the button stays put between two states
 * (a scroll still gliding moves it), and for the press to be seen before the release. */
async function tapButton(page, point, name) {
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(100);
    const again = (await state(page))?.taps?.[name];
    if (again && again[0] === point[0] && again[1] === point[1]) break;
    if (again) point = again;
  }
  const { at } = await pointOnCanvas(page, point);
  await page.mouse.move(at[0], at[1]);
  await page.mouse.down();
  await page.waitForTimeout(80);
  await page.mouse.up();
}

/** Clicks the button `name` until `pred(state)` holds (at most three clicks, 5 s each: a card
 * that has just appeared may not take the first one); returns that state. */
async function clickUntil(page, name, what, pred) {
  for (let i = 0; i < 3; i++) {
    const s = await state(page);
    if (pred(s)) return s;
    const point = s?.taps?.[name];
    if (point) await tapButton(page, point, name);
    const done = await until(page, what, pred, 5000).catch(() => null);
    if (done) return done;
  }
  return until(page, what, pred, 5000);
}

/** Turns the mouse wheel by `dy` CSS pixels over a point in the canvas's own pixels. */
async function wheelAt(page, point, dy) {
  const { at } = await pointOnCanvas(page, point);
  await page.mouse.move(at[0], at[1]);
  await page.mouse.wheel(0, dy);
}

/** Taps a legal move's start and landing points, waiting for each tap to register. A chain
 * with only one way on from a landing point is played by the game at that tap: then stop. */
let tapsRepeated = 0;
async function tapMove(page, mv) {
  // The move's points as the page gives them now, the board still (a state read earlier may be
  // older than the page's last frame).
  const now = await until(page, `${mv.notation} to be playable`,
    (s) => s.game?.interactive && s.game.legal.some((m) => m.notation === mv.notation), 5000);
  const before = now.game.moves.length;
  mv = now.game.legal.find((m) => m.notation === mv.notation);
  for (const [i, point] of mv.taps.entries()) {
    await tap(page, point);
    if (i + 1 < mv.taps.length) {
      const seen = (s) => s.game.selected.length === i + 1 || s.game.moves.length > before;
      const what = `tap ${i + 1} of ${mv.notation} to register`;
      // A tap the page did not see (it can land in a frame that drops it, as a person's can) is
      // tapped again, as a person would, at most twice; the count is printed at the end.
      let s = await until(page, what, seen, 4000).catch(() => null);
      for (let again = 0; s == null && again < 2; again++) {
        const now = await state(page);
        if (now.game.selected.length === i && now.game.moves.length === before) {
          tapsRepeated += 1;
          await tap(page, point);
        }
        s = await until(page, what, seen, again === 1 ? 10000 : 4000).catch(() => null);
      }
      if (s == null) {
        // Not seen three times: say what the page had at that point, for whoever reads it.
        const tabs = page.context().pages().map((p) => (p === page ? 'this' : p.url())).join(', ');
        console.log(`     ${what}: not seen; ${(await canvasPoint(page, point)).said}; the context's tabs: ${tabs}`);
        s = await until(page, what, seen, 1);
      }
      if (s.game.moves.length > before) return;
    }
  }
}

function screenshotCheck(file, game) {
  const r = spawnSync('python3', [path.join(repo, '.ci', 'check_screenshot.py'), file, game], { encoding: 'utf8' });
  const said = `${r.stdout}${r.stderr}`.trim();
  return check(`screenshot ${path.basename(file)} shows the ${game} board`, r.status === 0, said);
}

/** Waits for the board to settle, then screenshots it; a blank capture (SwiftShader sometimes
 * hands over an empty frame) is retaken up to twice, and said so. */
async function settledShot(page, file, game) {
  await until(page, 'the board to settle', (s) => s.game?.settled, 20000).catch(() => {});
  for (let attempt = 1; ; attempt++) {
    await page.waitForTimeout(300);
    await page.screenshot({ path: file });
    const r = spawnSync('python3', [path.join(repo, '.ci', 'check_screenshot.py'), file, game], { encoding: 'utf8' });
    if (r.status === 0 || attempt === 3) break;
    console.log(`     ${path.basename(file)}: capture ${attempt} was not the board (${`${r.stdout}${r.stderr}`.trim()}); again`);
    await page.waitForTimeout(1000);
  }
  return screenshotCheck(file, game);
}

/** The page's version and the code it fetched, as the page sees them. */
async function running(page) {
  return page.evaluate(() => ({
    version: document.documentElement.dataset.version,
    wasm: performance.getEntriesByType('resource').filter((e) => /\.wasm$/.test(e.name)).map((e) => new URL(e.name).pathname.slice(1)),
  }));
}

/** Waits, across the page's own reloads, until it runs `version` and is ready. */
async function runsVersion(page, version, timeout = 60000) {
  const end = Date.now() + timeout;
  let last = null;
  while (Date.now() < end) {
    try {
      last = await running(page);
      const s = await state(page);
      if (last.version === version && s?.ready_ms != null) return last;
    } catch {
      // the page is between two documents
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`timed out waiting for version ${version}; last: ${JSON.stringify(last)}`);
}

/** Asks the worker to look for a new version; the new worker's final state: `installed` (it
 * waits for the player) or `redundant` (refused). */
async function lookForUpdate(page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const found = new Promise((done) => registration.addEventListener('updatefound', () => done(registration.installing), { once: true }));
    await registration.update();
    const worker = await Promise.race([found, new Promise((_, fail) => setTimeout(() => fail(new Error('no update found within 30 s')), 30000))]);
    return new Promise((done) => {
      const settled = () => ['installed', 'activated', 'redundant'].includes(worker.state) && done(worker.state);
      worker.addEventListener('statechange', settled);
      settled();
    });
  });
}

/** Step 7: version 1, a torn bundle (version 2's files under version 1's page), then version 2,
 * served in turn at one address by web/test/serve.mjs through the symbolic link `site`. */
async function twoVersions(site, v1, v2) {
  const torn = `${v2}-torn`;
  const attribute = (dir, name) => new RegExp(`data-${name}="([^"]+)"`).exec(readFileSync(path.join(dir, 'index.html'), 'utf8'))[1];
  const point = (dir) => {
    const next = `${site}.next`;
    rmSync(next, { force: true });
    symlinkSync(dir, next);
    renameSync(next, site);
  };
  point(v1);
  const server = spawn('node', [path.join(repo, 'web', 'test', 'serve.mjs'), site, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((done, fail) => {
      let said = '';
      server.stdout.on('data', (d) => {
        said += d;
        const m = / on (http:\/\/\S+)/.exec(said);
        if (m) done(m[1]);
      });
      server.on('exit', () => fail(new Error('web/test/serve.mjs ended')));
    });
    const page = await context.newPage();
    // A static server has no ludus-server.json (the page then offers no default server): only
    // that 404 is expected.
    const versionProblems = [];
    page.on('pageerror', (e) => versionProblems.push(`uncaught: ${e.message}`));
    page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/ludus-server.json')
      && versionProblems.push(`HTTP ${r.status()} for ${r.url()}`));
    await page.goto(`${url}?game=alquerque&level=easy`, { waitUntil: 'commit' });
    await runsVersion(page, attribute(v1, 'version'));
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 30000 });

    point(torn);
    const tornState = await lookForUpdate(page);
    check('a bundle whose page names other files is refused whole', tornState === 'redundant', tornState);

    point(v2);
    const v2State = await lookForUpdate(page);
    check('a new version is fetched in the background and waits', v2State === 'installed', v2State);
    const offer = await page.locator('#update.shown').textContent({ timeout: 30000 });
    check('the page offers the new version', /new version/i.test(offer) || /phiên bản/i.test(offer), offer);

    await page.reload({ waitUntil: 'commit' });
    let now = await runsVersion(page, attribute(v1, 'version'));
    check(
      'until the player chooses, a reload runs version 1 whole',
      now.wasm.length > 0 && now.wasm.every((w) => w === attribute(v1, 'wasm')),
      JSON.stringify(now),
    );

    await page.locator('#update.shown #update-reload').tap({ timeout: 30000 });
    now = await runsVersion(page, attribute(v2, 'version'));
    const kept = await page.evaluate(() => caches.keys());
    check(
      '"reload" runs version 2 whole, and only version 2 is kept',
      now.wasm.length > 0 && now.wasm.every((w) => w === attribute(v2, 'wasm'))
        && kept.length === 1 && kept[0] === `ludus-${attribute(v2, 'version')}`,
      `${JSON.stringify(now)} kept ${kept}`,
    );
    check('versions: no uncaught errors or failed requests', versionProblems.length === 0, versionProblems.join(' | '));
    await page.close();
  } finally {
    server.kill();
  }
}

/** Where a visit's start went, from the page's own timings (ms from navigation): the document,
 * the code's JavaScript imported, the module downloaded, compiled and instantiated with the
 * app's `main` run, the first frame, each frame until ready (the slow ones compile shaders and
 * code as first used), ready. */
async function startSteps(page, s) {
  const t = await page.evaluate(() => {
    const mark = (name) => performance.getEntriesByName(name, 'mark')[0]?.startTime ?? null;
    const wasm = performance.getEntriesByType('resource').find((e) => /\.wasm$/.test(e.name));
    const nav = performance.getEntriesByType('navigation')[0];
    return {
      document: nav?.responseEnd ?? null,
      js: mark('ludus:js'),
      wasmStart: wasm?.startTime ?? null,
      wasmEnd: wasm?.responseEnd ?? null,
      fromWorker: wasm ? wasm.workerStart > 0 : null,
      kept: mark('ludus:kept'),
      worker: mark('ludus:worker'),
      started: mark('ludus:started'),
    };
  });
  const frames = s.start?.frames_ms ?? [];
  const gaps = frames.slice(1).map((f, i) => f - frames[i]);
  return {
    ...t,
    firstFrame: s.start?.first_frame_ms ?? null,
    frames: frames.length,
    slowFrames: gaps.filter((g) => g >= 100).length,
    longestFrame: gaps.length ? Math.max(...gaps) : null,
    gaps,
    ready: s.ready_ms,
  };
}

/** One line of a start's steps, for the log and the results page. */
function stepsLine(label, t) {
  const ms = (v) => (v == null ? '-' : `${Math.round(v)}`);
  return `START ${label}: document ${ms(t.document)}, js ${ms(t.js)}, wasm ${ms(t.wasmStart)}-${ms(t.wasmEnd)}` +
    `${t.fromWorker ? ' (service worker)' : ''}` +
    `${t.kept != null ? `, kept ${ms(t.kept)}, worker ${ms(t.worker)}` : ''}, started ${ms(t.started)}, first frame ${ms(t.firstFrame)}, ` +
    `${t.frames} frames to ready (${t.slowFrames} of 100 ms or more, longest ${ms(t.longestFrame)}: ${t.gaps.map(ms).join(' ')}), ` +
    `ready ${ms(t.ready)}${t.wire != null ? `; ${t.wire} bytes of code over the wire` : ''}`;
}

/** Compiles the page's module again from its bytes, alone: how long the compilation takes. */
async function compileAlone(page) {
  return page.evaluate(async () => {
    const wasm = performance.getEntriesByType('resource').find((e) => /\.wasm$/.test(e.name));
    const bytes = await (await fetch(wasm.name)).arrayBuffer();
    const from = performance.now();
    await WebAssembly.compile(bytes);
    return Math.round(performance.now() - from);
  });
}

/** Watches the browser's network log of `page` for the game's module: `bytes()` is what crossed
 * the wire for it (compressed, with the headers; the page's resource timing reports the body
 * decoded), or null if it came from elsewhere (the service worker's cache). */
async function wireBytes(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Set();
  let wire = null;
  cdp.on('Network.responseReceived', (e) => /\.wasm$/.test(e.response.url) && requests.add(e.requestId));
  // The largest: a first visit also fetches the code again from the service worker (0 bytes).
  cdp.on('Network.loadingFinished', (e) => requests.has(e.requestId) && (wire = Math.max(wire ?? 0, e.encodedDataLength)));
  return {
    bytes: async () => {
      await cdp.detach().catch(() => {});
      return wire;
    },
  };
}

/** How many visits of each page come after the second, both pages then starting from the compiled
 * code the browser kept: their median is the figure, one visit alone being too noisy (the
 * same build's visits differ by a fifth from one to the next on this machine). */
const KEPT_VISITS = 3;
/** How many first visits of each page, each in a fresh profile of its own: their median is the
 * first visit's figure. */
const FIRST_VISITS = 3;

/** The accessibility tree's nodes of `page` with their role and name. */
async function axNodes(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Accessibility.enable');
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  return nodes.map((n) => ({ role: n.role?.value ?? '', name: n.name?.value ?? '', live: n.properties?.find((p) => p.name === 'live')?.value?.value }));
}

async function screenReaderGame() {
  const page = await context.newPage();
  watch(page, 'screen reader');
  await page.goto(`${base}?game=alquerque&level=easy&lang=en`);
  let s = await until(page, 'the game against Easy to be ready', (s) => s.ready_ms != null && s.game?.interactive, 60000);
  let ax = await axNodes(page);
  const cells = ax.filter((n) => n.role === 'gridcell');
  check('screen reader: the board is a grid of 25 named cells', ax.some((n) => n.role === 'grid') && cells.length === 25 &&
    cells.some((n) => n.name === 'b2, white piece') && cells.some((n) => n.name === 'c3, empty'), cells.slice(0, 6).map((n) => n.name).join(' | '));
  check('screen reader: a live region', ax.some((n) => n.live === 'polite'));
  // b2-c3 with the keys: the grid starts at a5 (top left); b2 is three rows down, one right.
  await page.focus('#a11y-board [role=gridcell][tabindex="0"]');
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'Enter']) await page.keyboard.press(key);
  await until(page, 'b2 to be picked from the grid', (s) => s.game.selected.length === 1, 5000);
  for (const key of ['ArrowUp', 'ArrowRight', 'Enter']) await page.keyboard.press(key);
  s = await until(page, 'b2-c3 played from the grid', (s) => s.game.moves.length >= 1, 5000);
  check('screen reader: a move played with the grid\'s keys', s.game.moves[0] === 'b2-c3', s.game.moves.join(' '));
  let heard = 0;
  let said = '';
  for (let turn = 0; turn < 150; turn++) {
    s = await until(page, 'the computer to answer', (s) => s.game.outcome || s.game.interactive, 30000);
    if (said !== s.access.said && /Black (moves|jumps)/.test(s.access.said)) heard += 1;
    said = s.access.said;
    if (s.game.outcome) break;
    const before = s.game.moves.length;
    // The same game every run: a fixed rule picks among the legal moves.
    const mv = s.game.legal[(turn * 7) % s.game.legal.length];
    await page.fill('#a11y-move', mv.notation);
    await page.focus('#a11y-move');
    await page.keyboard.press('Enter');
    await until(page, `${mv.notation} typed and played`, (s) => s.game.moves.length > before || s.game.outcome, 10000);
  }
  s = await state(page);
  check('screen reader: the game played to its end without the canvas', s.game.outcome != null, `${s.game.moves.length} moves`);
  check('screen reader: the computer\'s moves were announced', heard > 0, `${heard} heard`);
  const region = await page.textContent('#a11y-said');
  check('screen reader: the end is announced in the live region', /wins|Draw|draw/.test(region ?? ''), region);
  // The reading keys, from the grid: P reads the position (it ends with Black's pieces, or
  // says that Black has none left when White took them all).
  await page.focus('#a11y-board [role=gridcell][tabindex="0"]');
  await page.keyboard.press('p');
  const read = await until(page, 'the position read', (t) => /Black(: | has no pieces left)/.test(t.access.said), 5000)
    .catch(() => null);
  check('screen reader: P reads the position', read != null, read?.access.said);
  await page.close();
}

/** Visits of `url` in a Chromium of its own with a fresh profile, whose process is first woken on
 * a blank page: the same procedure for the game and its yardstick. `visit()` makes the next visit
 * (the first downloads the code; the later ones get it from the service worker) and returns its
 * steps; `close()` ends the browser. */
async function visitor(url, label) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ludus-chromium-visits-'));
  const browser = await launch(dir);
  let blank = await browser.newPage();
  await blank.goto('about:blank');
  let n = 0;
  return {
    async visit() {
      n += 1;
      const page = await browser.newPage();
      watch(page, `${label} visit ${n}`);
      if (blank) {
        await blank.close();
        blank = null;
      }
      const wire = n === 1 ? await wireBytes(page) : null;
      await page.goto(url, { waitUntil: 'commit' });
      const s = await until(page, `the ${label}'s first ready frame of visit ${n}`, (s) => s.ready_ms != null, 60000);
      const steps = await startSteps(page, s);
      if (n === 1) {
        steps.wire = await wire.bytes();
        steps.compile = await compileAlone(page);
        // The page compiled the code that the service worker gave (web/index.html): the browser
        // keeps the compiled code beside the worker's copy once enough of it has been compiled
        // to fast code. The game's warm-up search gets there within these 5 s; the empty page,
        // which runs nothing more once ready, only in its second visit: so both are compared
        // from their third visits on, both then starting from kept compiled code.
        check(`${label}: the first visit compiles the code as the service worker gives it`, steps.worker != null,
          `kept ${Math.round(steps.kept)} ms, worker ${Math.round(steps.worker)} ms`);
        await page.evaluate(() => navigator.serviceWorker.ready);
      }
      await page.waitForTimeout(5000);
      await page.close();
      return steps;
    },
    async close() {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const median = (values) => {
  const v = [...values].sort((x, y) => x - y);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

try {
  // 0. The start against its yardstick, web/test.sh's second server: the same page with an empty
  // Bevy + egui app (src/bin/web-baseline.rs) built the same way. Each is visited in a Chromium
  // of its own, by the same procedure, the two pages taking turns (a busy moment of the machine
  // then falls on both): a first visit each, a second, and then KEPT_VISITS more each; then, in
  // fresh profiles, more first visits, FIRST_VISITS in all; then the game's figures over the
  // baseline's.
  const baselineUrl = process.env.LUDUS_BASELINE_URL ?? '';
  if (baselineUrl) {
    const urls = [baselineUrl, `${base}?game=alquerque&level=easy`];
    const pages = [await visitor(urls[0], 'baseline'), await visitor(urls[1], 'game')];
    const [yardstick, game] = [{ kept: [] }, { kept: [] }];
    try {
      for (const [i, v] of pages.entries()) [yardstick, game][i].first = await v.visit();
      for (const [i, v] of pages.entries()) [yardstick, game][i].cached = await v.visit();
      for (let k = 0; k < KEPT_VISITS; k++) {
        for (const [i, v] of pages.entries()) [yardstick, game][i].kept.push(await v.visit());
      }
    } finally {
      for (const v of pages) await v.close();
    }
    for (const p of [yardstick, game]) p.firsts = [p.first];
    for (let k = 1; k < FIRST_VISITS; k++) {
      for (const [i, url] of urls.entries()) {
        const v = await visitor(url, ['baseline', 'game'][i]);
        try {
          [yardstick, game][i].firsts.push(await v.visit());
        } finally {
          await v.close();
        }
      }
    }
    for (const [name, v] of [['baseline', yardstick], ['game', game]]) {
      for (const [k, first] of v.firsts.entries()) console.log(stepsLine(`${name} first visit${k ? ` ${k + 1} (a fresh profile)` : ''}`, first));
      console.log(stepsLine(`${name} second visit`, v.cached));
      for (const [k, kept] of v.kept.entries()) console.log(stepsLine(`${name} visit ${k + 3}`, kept));
      console.log(`     ${name}: the module compiles alone in ${v.first.compile} ms`);
    }
    const firstMs = (v) => v.firsts.map((f) => Math.round(f.ready));
    const [baselineFirst, gameFirst] = [median(firstMs(yardstick)), median(firstMs(game))];
    console.log(`BASELINE_READY_MS ${Math.round(baselineFirst)} (median of ${firstMs(yardstick).join(' ')})`);
    console.log(`BASELINE_READY_MS_CACHED ${Math.round(yardstick.cached.ready)}`);
    console.log(`READY_MS ${Math.round(gameFirst)} (median of ${firstMs(game).join(' ')})`);
    console.log(`READY_MS_CACHED ${Math.round(game.cached.ready)}`);
    const ratio = gameFirst / baselineFirst;
    const ratioCached = game.cached.ready / yardstick.cached.ready;
    console.log(`READY_RATIO ${ratio.toFixed(2)} (target 1.5)`);
    console.log(`READY_RATIO_CACHED ${ratioCached.toFixed(2)} (target 1.2; the empty page's compiled code is not kept yet)`);
    // The visits after the second: both pages from the service worker with their compiled code
    // kept. The medians, and each visit's time.
    const keptMs = (v) => v.kept.map((k) => Math.round(k.ready));
    const [baselineKept, gameKept] = [median(keptMs(yardstick)), median(keptMs(game))];
    console.log(`BASELINE_READY_MS_KEPT ${Math.round(baselineKept)} (median of ${keptMs(yardstick).join(' ')})`);
    console.log(`READY_MS_KEPT ${Math.round(gameKept)} (median of ${keptMs(game).join(' ')})`);
    const ratioKept = gameKept / baselineKept;
    console.log(`READY_RATIO_KEPT ${ratioKept.toFixed(2)} (target 1.2)`);
    // Benchmarks: they fail only far beyond their targets (a busy machine slows one visit).
    check('first visit: the game within 3 times the empty page (target 1.5)', ratio <= 3, ratio.toFixed(2));
    check('second visit: the game within 2.4 times the empty page (target 1.2)', ratioCached <= 2.4, ratioCached.toFixed(2));
    check('visits from kept code: the game within 2.4 times the empty page (target 1.2)', ratioKept <= 2.4, ratioKept.toFixed(2));
  } else {
    console.log('     (no LUDUS_BASELINE_URL: no yardstick)');
  }

  // 1. Without WebGL2 the page says so, before downloading the game.
  {
    const page = await context.newPage();
    await page.addInitScript(() => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
        return kind === 'webgl2' ? null : original.call(this, kind, ...rest);
      };
    });
    const wasmRequests = [];
    page.on('request', (r) => r.url().endsWith('.wasm') && wasmRequests.push(r.url()));
    const override = 'wss://ludus.example.org/ludus';
    await page.goto(`${base}?server=${encodeURIComponent(override)}`, { waitUntil: 'load' });
    const message = await page.locator('#problem.shown').textContent({ timeout: 10000 });
    check('no WebGL2: a clear message', /WebGL 2/.test(message), message.slice(0, 80));
    check('no WebGL2: the game is not downloaded', wasmRequests.length === 0, wasmRequests.join(' '));
    const named = await page.evaluate(() => window.ludusDefaultServer ?? null);
    check('?server= sets window.ludusDefaultServer', named === override, String(named));
    await page.close();
  }

  // 2. Alquerque against Easy, straight from the address, on a touch screen.
  let page = await context.newPage();
  // The profile's first tab, blank, goes, and from here on a step opens its tab before closing
  // the one before: the step's own tab is the one in front.
  for (const other of context.pages()) if (other !== page) await other.close();
  // Main-thread work that holds up painting: long tasks and long animation frames.
  await page.addInitScript(() => {
    window.__ludusLong = [];
    for (const type of ['longtask', 'long-animation-frame']) {
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__ludusLong.push({ type, start: e.startTime, duration: e.duration });
        }).observe({ type, buffered: true });
      } catch {
        // not supported: nothing to observe
      }
    }
    // Each sizing of the game canvas's drawing buffer (the drawing surface made): once at the
    // start, at the size the page gives the canvas, where a second sizing would wait for the
    // first frames' drawing.
    window.__ludusSizings = [];
    const width = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, 'width');
    if (width?.set) {
      Object.defineProperty(HTMLCanvasElement.prototype, 'width', {
        ...width,
        set(v) {
          if (this.id === 'ludus') window.__ludusSizings.push(v);
          width.set.call(this, v);
        },
      });
    }
    // Draw calls, counted per painted frame (every draw of one frame's animation-frame callbacks
    // shares `document.timeline.currentTime`) and by the shader program that drew them: the
    // program is named from its shaders' sources (naga keeps the WGSL names), so that the board's
    // meshes, egui and anything else are told apart.
    window.__ludusDraws = new Map();
    const P = window.WebGL2RenderingContext?.prototype;
    if (P) {
      const sources = new WeakMap();
      const programs = new WeakMap();
      let current = null;
      const wrap = (name, before) => {
        const f = P[name];
        P[name] = function (...args) {
          before(...args);
          return f.apply(this, args);
        };
      };
      wrap('shaderSource', (shader, src) => sources.set(shader, src));
      wrap('attachShader', (program, shader) => {
        const p = programs.get(program) ?? { src: '', label: null };
        p.src += sources.get(shader) ?? '';
        programs.set(program, p);
      });
      wrap('useProgram', (program) => (current = program));
      const label = () => {
        const p = current && programs.get(current);
        if (!p) return 'unknown';
        if (p.label == null) {
          p.label = /egui/i.test(p.src)
            ? 'egui'
            : /mesh2d|Mesh2d|color_material|ColorMaterial/.test(p.src)
              ? 'board'
              : `other:${(p.src.match(/\b(?:uniform|struct)\s+(\w+)/g) ?? []).slice(0, 3).join(',')}`;
        }
        return p.label;
      };
      for (const name of ['drawArrays', 'drawElements', 'drawArraysInstanced', 'drawElementsInstanced', 'drawRangeElements']) {
        if (!P[name]) continue;
        wrap(name, () => {
          const t = document.timeline.currentTime;
          let frame = window.__ludusDraws.get(t);
          if (!frame) {
            frame = { total: 0, by: {} };
            window.__ludusDraws.set(t, frame);
            if (window.__ludusDraws.size > 2000) window.__ludusDraws.delete(window.__ludusDraws.keys().next().value);
          }
          const l = label();
          frame.total += 1;
          frame.by[l] = (frame.by[l] ?? 0) + 1;
        });
      }
    }
  });
  watch(page, 'game');
  let wasmResponse = null;
  page.on('response', (r) => /ludus_bg-[0-9a-f]{16}\.wasm$/.test(r.url()) && (wasmResponse = r));
  await page.goto(`${base}?game=alquerque&level=easy`, { waitUntil: 'commit' });
  let s = await until(page, 'the first interactive frame', (s) => s.ready_ms != null, 60000);
  const steps = await startSteps(page, s);
  const [sizings, canvasWidth] = await page.evaluate(() =>
    [window.__ludusSizings.slice(), Math.round(document.getElementById('ludus').offsetWidth * devicePixelRatio)]);
  check('the drawing surface is made once, at the canvas\'s size', sizings.length === 1 && sizings[0] === canvasWidth,
    `widths ${sizings.join(' ')}; the canvas ${canvasWidth} device pixels wide`);
  const headers = wasmResponse ? await wasmResponse.allHeaders() : {};
  console.log(`     wasm: ${headers['content-type']}, encoding ${headers['content-encoding'] ?? 'none'}`);
  console.log(stepsLine('game first visit in the test', steps));
  check('wasm served as application/wasm', headers['content-type'] === 'application/wasm', headers['content-type']);
  if (wsPort) {
    const expected = `ws://${new URL(base).hostname}:${wsPort}`;
    const found = await page.evaluate(() => window.ludusDefaultServer ?? null);
    check('the page offers the server that served it (ludus-server.json)', found === expected, String(found));
  }
  check(
    `first interactive frame within ${maxReadyMs} ms of navigation (target 5000)`,
    s.ready_ms <= maxReadyMs,
    `${Math.round(s.ready_ms)} ms`,
  );
  check(
    'the game starts from the address',
    s.screen === 'playing' && s.game?.variant === 'alquerque' && s.game.players.join() === 'human,easy',
    `${s.screen} ${s.game?.variant} ${s.game?.players}`,
  );
  s = await until(page, 'a person to move', (s) => s.game?.interactive && s.game.legal.length > 0);
  check('the cover is gone', await page.locator('#cover.gone').count() === 1);
  const canvas = await page.locator('#ludus').boundingBox();
  check('the canvas fills the window', canvas.width === 1280 && canvas.height === 800, `${canvas.width}x${canvas.height}`);
  const drawn = await page.evaluate(() => [document.getElementById('ludus').width, document.getElementById('ludus').height, !!window.ludusSoftwareGl]);
  console.log(`     drawn at ${drawn[0]}x${drawn[1]} pixels${drawn[2] ? ' (software WebGL: half resolution, scaled up)' : ''}`);
  // The first frame may be laid out before the canvas took its final size: tap what is laid
  // out in the canvas as it is now.
  const [startW, startH] = await page.evaluate(() => [document.getElementById('ludus').offsetWidth, document.getElementById('ludus').offsetHeight]);
  s = await until(page, 'the board laid out in the canvas', (s) => s.game?.interactive && s.game.legal.length > 0
    && s.game.board.center[0] < startW && s.game.board.center[1] < startH, 10000);

  const mv = s.game.legal[0];
  await tapMove(page, mv);
  s = await until(page, `the move ${mv.notation}`, (s) => s.game.moves.length >= 1, 10000);
  check('a tapped move is played', s.game.moves[0] === mv.notation, `${mv.notation} -> ${s.game.moves[0]}`);
  s = await until(page, 'the computer to answer', (s) => s.game.moves.length >= 2 && s.game.interactive, 30000);
  check('the computer answers', s.game.moves.length === 2, s.game.moves.join(' '));
  await page.waitForTimeout(300);
  const shot = path.join(out, 'alquerque-easy.png');
  await page.screenshot({ path: shot });
  screenshotCheck(shot, 'alquerque');

  // 3. The window turns to portrait (a phone): the canvas and the board follow.
  await page.setViewportSize({ width: 390, height: 844 });
  // The game's own size in CSS pixels (half the window where the page draws at half resolution).
  let [ownW, ownH] = [0, 0];
  for (const until = Date.now() + 10000; Date.now() < until; await page.waitForTimeout(100)) {
    [ownW, ownH] = await page.evaluate(() => [document.getElementById('ludus').offsetWidth, document.getElementById('ludus').offsetHeight]);
    s = await state(page);
    // Portrait: the board centred across the width, in the upper half.
    if (Math.abs(s.game?.board.center[0] - ownW / 2) < 2 && s.game.board.center[1] < ownH / 2) break;
  }
  const portrait = await page.locator('#ludus').boundingBox();
  check('portrait: the canvas follows the window', portrait.width === 390 && portrait.height === 844, `${portrait.width}x${portrait.height}`);
  check(
    'portrait: the board sits above the panel, centred',
    Math.abs(s.game.board.center[0] - ownW / 2) < 2 && s.game.board.center[1] < ownH / 2,
    `board centre ${s.game.board.center} in ${ownW}x${ownH}`,
  );
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(out, 'alquerque-portrait.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // 4. Hard thinks in the browser while the page keeps painting: the largest gap between frames.
  await page.goto(`${base}?game=latrunculi&level=hard&side=second`, { waitUntil: 'commit' });
  await until(page, 'Hard to start thinking', (s) => s.game?.thinking, 60000);
  const frames = await page.evaluate(async () => {
    const el = document.getElementById('ludus-state');
    const from = performance.now();
    const thinking = () => JSON.parse(el.textContent || '{}').game?.thinking;
    const stamps = [];
    const start = performance.now();
    await new Promise((done) => {
      const tick = (t) => {
        stamps.push(t);
        if (thinking() && t - start < 8000) requestAnimationFrame(tick);
        else done();
      };
      requestAnimationFrame(tick);
    });
    const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
    const sorted = [...gaps].sort((a, b) => a - b);
    return {
      frames: stamps.length,
      span: stamps[stamps.length - 1] - stamps[0],
      max: sorted[sorted.length - 1] ?? 0,
      p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
      median: sorted[Math.floor(sorted.length / 2)] ?? 0,
      stillThinking: thinking(),
      longest: Math.max(0, ...window.__ludusLong.filter((e) => e.start + e.duration >= from).map((e) => e.duration)),
    };
  });
  console.log(
    `     Hard (Latrunculi 12x8, first move): ${frames.frames} frames over ${Math.round(frames.span)} ms, ` +
      `median gap ${frames.median.toFixed(1)} ms, p95 ${frames.p95.toFixed(1)} ms, max ${frames.max.toFixed(1)} ms` +
      `${frames.stillThinking ? ' (still thinking after 8 s)' : ''}`,
  );
  console.log(
    `     longest main-thread task or animation frame meanwhile: ${
      frames.longest > 0 ? `${frames.longest.toFixed(1)} ms` : 'none over 50 ms (the browser reports longer ones only)'
    }`,
  );
  console.log(`MAX_GAP_MS ${frames.max.toFixed(1)}`);
  console.log(`MAX_TASK_MS ${frames.longest.toFixed(1)}`);
  check('frames were painted while Hard thought', frames.frames >= 3, `${frames.frames} frames`);
  check(
    `the page keeps painting while Hard thinks: median gap between frames within ${maxMedianGapMs} ms`,
    frames.median <= maxMedianGapMs,
    `${frames.median.toFixed(1)} ms`,
  );
  if (maxTaskMs > 0) {
    check(
      `the page stays responsive while Hard thinks: no main-thread task over ${maxTaskMs} ms`,
      frames.longest <= maxTaskMs,
      `${frames.longest.toFixed(1)} ms`,
    );
  }
  console.log(
    `     frame-gap target ${targetGapMs} ms: ${frames.max <= targetGapMs ? 'met' : 'missed'} (${frames.max.toFixed(1)} ms)`,
  );
  if (maxGapMs > 0) {
    check(
      `largest gap between painted frames while Hard thinks within ${maxGapMs} ms (target ${targetGapMs} ms)`,
      frames.max <= maxGapMs,
      `${frames.max.toFixed(1)} ms`,
    );
  }
  s = await until(page, 'Hard to play', (s) => s.game.moves.length >= 1 && s.game.interactive, 60000);
  check('Hard plays a move', s.game.moves.length === 1, s.game.moves.join(' '));
  const hardShot = path.join(out, 'latrunculi-hard.png');
  await page.waitForTimeout(300);
  // Draw calls a frame on the Latrunculi 12x8 board (the frames drawn since Hard began: the
  // board, its move and the panel), a benchmark printed for the README (about 17 for the board
  // in a debug count before this measurement).
  const draws = await page.evaluate(() => {
    const frames = [...window.__ludusDraws.values()];
    const totals = frames.map((f) => f.total).sort((a, b) => a - b);
    const median = totals[Math.floor(totals.length / 2)] ?? 0;
    const sample = frames.find((f) => f.total === median);
    return { frames: frames.length, median, max: totals[totals.length - 1] ?? 0, min: totals[0] ?? 0, by: sample?.by ?? {} };
  });
  const split = Object.entries(draws.by)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(
    `     draw calls a frame, Latrunculi 12x8 board with the panel: median ${draws.median} ` +
      `(min ${draws.min}, max ${draws.max}, ${draws.frames} frames drawn); the median frame: ${split}`,
  );
  console.log(`DRAW_CALLS_MEDIAN ${draws.median}`);
  check('draw calls were counted on the board', draws.frames > 0 && draws.median > 0, `${draws.frames} frames`);
  await page.screenshot({ path: hardShot });
  screenshotCheck(hardShot, 'latrunculi');

  // 5. Online: the browser against a bot client through the ludus-server that served the page,
  // the browser over WebSocket (to the server named by ludus-server.json), the bot over UDP.
  const udp = process.env.LUDUS_UDP_ADDR ?? '';
  const cli = process.env.LUDUS_CLI ?? '';
  if (udp && cli) {
    const botOut = [];
    // The bot stays seated after its moves until the game ends (the draw it accepts), however
    // long the page's steps take on a busy machine; it is stopped below if it does not end.
    const bot = spawn(cli, ['bot', '--server', udp, '--quick', 'alquerque', '--nick', 'Bot', '--moves', '2',
      '--linger', '600', '--think-ms', '200', '--timeout', '900', '--accept-draws'], { stdio: ['ignore', 'pipe', 'pipe'] });
    bot.stdout.on('data', (d) => botOut.push(String(d)));
    bot.stderr.on('data', (d) => botOut.push(String(d)));
    const botDone = new Promise((done) => bot.on('exit', (code) => done(code)));
    // In a tab of its own, as the phone below, opened before the last one closes and brought
    // to the front (see above).
    const online = await context.newPage();
    await page.close();
    page = online;
    await page.bringToFront();
    watch(page, 'online');
    await page.goto(`${base}?online=quick&game=alquerque&nick=Tablet`, { waitUntil: 'commit' });
    // Like a person, the test taps once the page is ready (its cover gone).
    s = await until(page, 'an online game', (s) => s.online?.game != null && s.game != null && s.ready_ms != null, 60000);
    check(
      'the browser signs in over WebSocket and is matched with the bot',
      s.online.phase === 'signed-in' && s.online.nickname === 'Tablet' && s.game.players.includes('remote'),
      `${s.online.phase} ${s.online.nickname} ${s.game.players}`,
    );
    const mine = s.online.game[1];
    let played = 0;
    const deadline = Date.now() + 60000;
    while (Date.now() < deadline) {
      s = await state(page);
      const ours = s.game?.moves.filter((_, i) => (i % 2 === 0) === (mine === 'first')).length ?? 0;
      const theirs = (s.game?.moves.length ?? 0) - ours;
      if (ours >= 2 && theirs >= 2) break;
      if (s.game?.interactive && s.game.legal.length > 0 && ours === played) {
        const m = s.game.legal[0];
        await tapMove(page, m);
        played += 1;
      }
      await page.waitForTimeout(100);
    }
    const moves = s.game?.moves ?? [];
    check('moves go both ways between the browser and the bot', moves.length >= 4, moves.join(' '));
    // The bot stays seated (--linger): the board of the game in progress.
    await settledShot(page, path.join(out, 'alquerque-online.png'), 'alquerque');
    // A quick phrase, tapped on the panel, reaches the bot and comes back to the page.
    // In this low window the panel scrolls: down to the chat's quick phrases, as a person would.
    s = await until(page, 'the panel\'s buttons', (s) => s.taps?.offer_draw != null, 10000);
    const panelPoint = s.taps.offer_draw;
    for (let i = 0; i < 12; i++) {
      s = await state(page);
      if (s.taps?.phrase_good_game != null) break;
      await wheelAt(page, panelPoint, 120);
      await page.waitForTimeout(150);
    }
    s = await until(page, 'the quick phrases on the panel', (s) => s.taps?.phrase_good_game != null, 10000);
    s = await clickUntil(page, 'phrase_good_game', 'the phrase in the page\'s chat', (s) => (s.online?.chat ?? []).some((l) => /^Tablet: Phrase\(GoodGame\)$/.test(l)))
      .catch((e) => ({ error: String(e) }));
    check('a tapped quick phrase is said in the game', !s.error, s.error ?? s.online.chat.join(' | '));
    // A draw offered with the panel's button: the bot (--accept-draws) accepts it.
    // Back up to the buttons.
    for (let i = 0; i < 12; i++) {
      s = await state(page);
      if (s.taps?.offer_draw != null) break;
      await wheelAt(page, panelPoint, -120);
      await page.waitForTimeout(150);
    }
    s = await until(page, 'the draw offer button', (s) => s.taps?.offer_draw != null, 10000);
    s = await clickUntil(page, 'offer_draw', 'the game to end drawn', (s) => s.game?.outcome != null).catch((e) => ({ error: String(e) }));
    check(
      'a draw offered on the panel and accepted ends the game drawn by agreement',
      !s.error && s.game.outcome[0] === 'draw' && s.game.outcome[1] === 'Agreement',
      s.error ?? JSON.stringify(s.game.outcome),
    );
    const botCode = await Promise.race([botDone, new Promise((done) => setTimeout(() => done('still running'), 20000))]);
    if (botCode === 'still running') bot.kill();
    const botLog = botOut.join('');
    const tail = `${botCode}: ${botLog.trim().split('\n').slice(-4).join(' | ')}`;
    check('the bot saw the browser\'s moves and finished', botCode === 0 && /\(opponent\)/.test(botLog), tail);
    check(
      'the bot heard the phrase and was offered the draw',
      /chat Tablet: Phrase\(GoodGame\)/.test(botLog) && /draw offered by/.test(botLog) && /game over: None by Agreement/.test(botLog),
      tail,
    );
    // After the game: back to the lobby from the game-over card, the person's own profile with
    // the game, and its replay.
    s = await until(page, 'the game-over card\'s lobby button', (s) => s.taps?.back_lobby != null, 15000);
    s = await clickUntil(page, 'back_lobby', 'the lobby with the profile button', (s) => s.screen === 'online' && s.taps?.my_profile != null);
    s = await clickUntil(page, 'my_profile', 'the profile with a recent game', (s) => s.screen === 'profile' && s.taps?.recent_game != null)
      .catch((e) => ({ error: String(e) }));
    check('the own profile lists the game just played', !s.error, s.error ?? s.screen);
    if (s.error) await page.screenshot({ path: path.join(out, 'profile-failed.png') });
    if (!s.error) {
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(out, 'profile.png') });
      s = await clickUntil(page, 'recent_game', 'the replay', (s) => s.screen === 'analysis').catch((e) => ({ error: String(e) }));
      check('a recent game of the profile opens in the replay and analysis', !s.error, s.error ?? s.screen);
    }

    // Turn-based play between two browsers (two profiles: two players). The first page makes an
    // open challenge on the lobby's form; the second opens its link; each plays a move in turn,
    // and the other's count of games waiting (page title, badge, notices) becomes one.
    {
      const challenger = await context.newPage();
      await page.close();
      page = challenger;
      await page.bringToFront();
      watch(page, 'challenger');
      await page.goto(`${base}?online=lobby&nick=Ann`, { waitUntil: 'commit' });
      s = await until(page, 'the lobby, signed in', (s) => s.online?.phase === 'signed-in' && s.taps?.my_profile != null, 60000);
      // The form is below the fold: the lobby scrolls to it, as a person would, the wheel turned
      // over the lobby's list (where "My profile" is when it is signed in).
      const over = s.taps.my_profile;
      const scrollTo = async (name) => {
        for (let i = 0; i < 15 && s.taps?.[name] == null; i++) {
          await wheelAt(page, over, 120);
          await page.waitForTimeout(150);
          s = await state(page);
        }
      };
      await scrollTo('challenge_open');
      // A little further, so that the form opens in sight under its heading.
      await wheelAt(page, over, 120);
      await page.waitForTimeout(150);
      s = await state(page);
      if (s.taps?.challenge_open == null) {
        await wheelAt(page, over, -120);
        await page.waitForTimeout(150);
        s = await state(page);
      }
      s = await clickUntil(page, 'challenge_open', 'the challenge form', (s) => s.taps?.challenge_form != null || s.taps?.challenge_send != null)
        .catch((e) => ({ error: String(e) }));
      if (!s.error) await scrollTo('challenge_send');
      s = await clickUntil(page, 'challenge_send', 'the challenge listed with its code', (s) => (s.turns?.mine ?? []).length === 1)
        .catch((e) => ({ error: String(e) }));
      check('an open turn-based challenge is made on the lobby\'s form', !s.error, s.error ?? s.turns.mine.join());
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(out, 'challenge-made.png') });
      const code = s.turns?.mine?.[0];
      if (code) {
        const other = await launch(mkdtempSync(path.join(os.tmpdir(), 'ludus-chromium-other-')));
        const accepter = await other.newPage();
        watch(accepter, 'accepter');
        await accepter.goto(`${base}?challenge=${code}&nick=Bea`, { waitUntil: 'commit' });
        const onBoard = (s) => s.online?.game != null && s.game != null && s.ready_ms != null;
        let [sa, sb] = [await until(page, 'the challenger\'s game on the board', onBoard, 60000).catch((e) => ({ error: String(e) })),
          await until(accepter, 'the accepted game on the board', onBoard, 60000).catch((e) => ({ error: String(e) }))];
        check('the link accepts the challenge: both pages have the game', !sa.error && !sb.error && sa.online.game[0] === sb.online.game[0],
          sa.error ?? sb.error ?? `${sa.online.game} ${sb.online.game}`);
        if (sb.error) await accepter.screenshot({ path: path.join(out, 'challenge-accept-failed.png') });
        // Two moves, one each: after each, the waiting page counts one game and says so in its title.
        for (let k = 0; k < 2 && !sa.error && !sb.error; k++) {
          // The page whose turn it is, once its board is still and takes a move.
          let pick = null;
          for (let t = 0; t < 300 && !pick; t++) {
            [sa, sb] = [await state(page), await state(accepter)];
            if (sa.game?.interactive && sa.game.legal.length > 0) pick = [page, accepter, sa];
            else if (sb.game?.interactive && sb.game.legal.length > 0) pick = [accepter, page, sb];
            else await page.waitForTimeout(100);
          }
          if (!check(`turn-based move ${k + 1}: a page can move`, pick != null, `${sa.game?.moves} | ${sb.game?.moves}`)) break;
          const [mover, waiter, ms] = pick;
          const before = ms.game.moves.length;
          await tapMove(mover, ms.game.legal[0]);
          const w = await until(waiter, 'the waiting page\'s count', (s) => s.turns?.count === 1 && (s.game?.moves.length ?? 0) > before, 30000)
            .catch((e) => ({ error: String(e) }));
          const title = await waiter.title();
          check(`turn-based move ${k + 1}: the other page counts one game waiting, in its title`, !w.error && /^\(1\) Ludus/.test(title),
            w.error ?? title);
        }
        await other.close();
      }
    }
  } else {
    console.log('     (no LUDUS_UDP_ADDR / LUDUS_CLI: the online step is skipped)');
  }

  // The title screen on a phone (390x844, portrait, touch): everything shows without scrolling.
  {
    const phone = await context.newPage();
    watch(phone, 'phone title');
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${base}?screen=title`, { waitUntil: 'commit' });
    const t = await until(phone, 'the title screen on a phone', (s) => s.screen === 'title' && s.ready_ms != null
      && s.title_fits != null, 60000);
    check('the title screen fits a phone (390x844) without scrolling', t.title_fits === true, JSON.stringify(t.title_fits));
    const file = path.join(out, 'title-phone.png');
    await phone.waitForTimeout(300);
    await phone.screenshot({ path: file });
    screenshotCheck(file, 'title');
    await phone.close();
  }

  // 6. Offline. After the visits above, the service worker holds this version of the bundle: a
  // second visit starts from it, and with no network at all the game still opens and plays.
  {
    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      const cached = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) cached.push(new URL(request.url).pathname);
      }
      return { active: registration.active?.state, controlled: !!navigator.serviceWorker.controller, cached };
    });
    const wasmName = await page.evaluate(() => document.documentElement.dataset.wasm);
    check(
      'a service worker keeps the bundle after the first visit',
      worker.active === 'activated' && worker.controlled && worker.cached.some((p) => p.endsWith(wasmName)),
      `${worker.active}, controlled ${worker.controlled}, ${worker.cached.length} files kept`,
    );
    // The online game's page would only try to reconnect once the network goes.
    const second = await context.newPage();
    await page.close();
    watch(second, 'second visit');
    await second.goto(`${base}?game=alquerque&level=easy`, { waitUntil: 'commit' });
    const again = await until(second, 'the first interactive frame of a second visit', (s) => s.ready_ms != null, 60000);
    const fromWorker = await second.evaluate(() =>
      performance.getEntriesByType('resource').filter((e) => /\.wasm$/.test(e.name)).map((e) => e.workerStart > 0));
    console.log(stepsLine(`game second visit in the test (code from the service worker: ${fromWorker.join() || 'not fetched'})`,
      await startSteps(second, again)));
    await context.setOffline(true);
    const offline = await context.newPage();
    await second.close();
    await offline.bringToFront();
    // Offline, the page's own request for ludus-server.json fails, as it should: only the
    // game's errors count here.
    const offlineProblems = [];
    offline.on('pageerror', (e) => offlineProblems.push(`uncaught: ${e.message}`));
    await offline.goto(`${base}?game=alquerque&level=easy`, { waitUntil: 'commit' });
    let o = await until(offline, 'the first interactive frame offline', (s) => s.ready_ms != null, 60000);
    console.log(`READY_MS_OFFLINE ${Math.round(o.ready_ms)}`);
    o = await until(offline, 'a person to move offline', (s) => s.game?.interactive && s.game.legal.length > 0
      && s.game.moves.length === 0);
    const first = o.game.legal[0];
    await tapMove(offline, first);
    o = await until(offline, 'the computer to answer offline', (s) => s.game.moves.length >= 2 && s.game.interactive, 30000);
    check(
      'offline: the game opens, a move against Easy is played and answered',
      o.game.moves[0] === first.notation && o.game.moves.length === 2,
      o.game.moves.join(' '),
    );
    await offline.goto(`${base}?online=quick&game=alquerque&nick=Tablet`, { waitUntil: 'commit' });
    o = await until(offline, 'the online screen to tell there is no network', (s) => s.online?.no_network
      && ['reconnecting', 'failed'].includes(s.online.phase), 30000).catch((e) => ({ error: String(e) }));
    check(
      'offline: the online screen says there is no network (and keeps trying)',
      !o.error && o.online.no_network,
      o.error ?? `${o.online.phase}`,
    );
    await offline.screenshot({ path: path.join(out, 'online-offline.png') });
    check('offline: no uncaught errors', offlineProblems.length === 0, offlineProblems.join(' | '));
    await offline.close();
    await context.setOffline(false);
  }

  // 7. A blind player: the page's document for screen readers, read through Chromium's
  // accessibility tree, plays a whole game of Alquerque against Easy without touching the
  // canvas: the first move with the grid's arrow keys and Enter, the rest typed in the move
  // field; the computer's replies and the end are read from the live region.
  await screenReaderGame();

  // 8. Two versions: the service worker never runs a page of one version with the code of
  // another. Version 1 is this bundle; version 2 the same code with one more section in the
  // module (web/test.sh makes it with web/package.sh). Both are served in turn at one address.
  const site = process.env.LUDUS_SITE_LINK ?? '';
  const v2 = process.env.LUDUS_V2 ?? '';
  if (site && v2) await twoVersions(site, process.env.LUDUS_V1, v2);
  else console.log('     (no LUDUS_SITE_LINK / LUDUS_V2: the two-version step is skipped)');

  check('no console errors, uncaught exceptions or failed requests', problems.length === 0, problems.join('\n     '));
} catch (e) {
  check('the browser test ran to the end', false, e.stack ?? String(e));
  // What the page showed and held when it stopped, for whoever reads the failure.
  for (const p of context.pages()) {
    const file = path.join(out, `failure-${context.pages().indexOf(p)}.png`);
    await p.screenshot({ path: file }).catch(() => {});
    const last = await state(p).catch(() => null);
    console.log(`     ${file}; the page's last state: ${JSON.stringify(last)}`);
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`screenshots in ${out}`);
console.log(`taps tapped again (the page did not see the first): ${tapsRepeated}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
