// Unit tests of the panel's state (src/request.ts, src/picker.ts, src/panel.ts; issue 22): a stale
// answer is dropped, a failed request is shown and the next one recovers, a 503 "indexing" answer
// is asked again and no longer once the panel is gone. The real modules run, compiled here to
// build-test/state/; only the network (fetch) and the browser (a small DOM, window's timers) are
// stand-ins, so each test decides when an answer arrives and when a retry's wait is over.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const here = path.resolve(__dirname, '..');
const out = path.join(here, 'build-test', 'state');

// ------------------------------------------------------------------ the browser, as far as needed

class FakeNode {
  constructor(tag, text) {
    this.tagName = tag ? tag.toUpperCase() : '#text';
    this.children = [];
    this.parentNode = null;
    this.attributes = new Map();
    this.listeners = new Map();
    this.style = {};
    this.dataset = {};
    this.hidden = false;
    this.open = false;
    this.disabled = false;
    this.value = '';
    this.checked = false;
    this._text = text ?? '';
    const node = this;
    this.classList = {
      add: (...names) => names.forEach(n => node._classes().includes(n) || node._setClasses([...node._classes(), n])),
      remove: (...names) => node._setClasses(node._classes().filter(n => !names.includes(n))),
      contains: name => node._classes().includes(name),
      toggle: (name, force) => {
        const on = force === undefined ? !node._classes().includes(name) : force;
        on ? node.classList.add(name) : node.classList.remove(name);
        return on;
      }
    };
  }
  _classes() { return (this.attributes.get('class') || '').split(/\s+/).filter(Boolean); }
  _setClasses(names) { this.attributes.set('class', names.join(' ')); }
  get className() { return this.attributes.get('class') || ''; }
  set className(value) { this.attributes.set('class', value); }
  get id() { return this.attributes.get('id') || ''; }
  set id(value) { this.attributes.set('id', value); }
  get title() { return this.attributes.get('title') || ''; }
  set title(value) { this.attributes.set('title', value); }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  hasAttribute(name) { return this.attributes.has(name); }
  removeAttribute(name) { this.attributes.delete(name); }
  addEventListener(type, listener) { (this.listeners.get(type) || this.listeners.set(type, []).get(type)).push(listener); }
  removeEventListener(type, listener) {
    this.listeners.set(type, (this.listeners.get(type) || []).filter(l => l !== listener));
  }
  dispatchEvent(event) { (this.listeners.get(event.type) || []).forEach(l => l(event)); return true; }
  _adopt(child) {
    const node = typeof child === 'string' ? new FakeNode(null, child) : child;
    if (node.parentNode) {
      node.parentNode.removeChild(node);
    }
    node.parentNode = this;
    return node;
  }
  append(...nodes) { nodes.forEach(n => this.children.push(this._adopt(n))); }
  appendChild(node) { this.append(node); return node; }
  prepend(...nodes) { this.children.unshift(...nodes.map(n => this._adopt(n))); }
  insertBefore(node, before) {
    const adopted = this._adopt(node);
    const index = before ? this.children.indexOf(before) : -1;
    index < 0 ? this.children.push(adopted) : this.children.splice(index, 0, adopted);
    return adopted;
  }
  removeChild(node) { this.children = this.children.filter(c => c !== node); node.parentNode = null; return node; }
  remove() { this.parentNode?.removeChild(this); }
  replaceChildren(...nodes) { this.children.forEach(c => { c.parentNode = null; }); this.children = []; this.append(...nodes); }
  get childElementCount() { return this.children.filter(c => c.tagName !== '#text').length; }
  get firstChild() { return this.children[0] ?? null; }
  get textContent() { return this.tagName === '#text' ? this._text : this.children.map(c => c.textContent).join(''); }
  set textContent(value) {
    if (this.tagName === '#text') {
      this._text = String(value);
    } else {
      this.replaceChildren(...(value === '' || value === null ? [] : [String(value)]));
    }
  }
  contains(node) { for (let n = node; n; n = n.parentNode) { if (n === this) return true; } return false; }
  scrollIntoView() {}
  focus() {}
  blur() {}
  getBoundingClientRect() { return { top: 0, left: 0, width: 0, height: 0, right: 0, bottom: 0 }; }
  _descendants() { return this.children.flatMap(c => (c.tagName === '#text' ? [] : [c, ...c._descendants()])); }
  _matches(compound) {
    const m = /^([a-z0-9]*)((?:\.[\w-]+)*)((?:\[[\w-]+(?:="[^"]*")?\])*)$/i.exec(compound);
    if (!m) throw new Error(`selector not understood by the test DOM: ${compound}`);
    if (m[1] && this.tagName !== m[1].toUpperCase()) return false;
    for (const name of m[2].split('.').filter(Boolean)) if (!this.classList.contains(name)) return false;
    for (const [, name, , value] of m[3].matchAll(/\[([\w-]+)(=\"([^"]*)\")?\]/g)) {
      if (!this.hasAttribute(name) || (value !== undefined && this.getAttribute(name) !== value)) return false;
    }
    return true;
  }
  querySelectorAll(selector) {
    const parts = selector.trim().split(/\s+/);
    return this._descendants().filter(node => {
      if (!node._matches(parts[parts.length - 1])) return false;
      let at = node.parentNode;
      for (let i = parts.length - 2; i >= 0; i--) {
        while (at && at !== this && !at._matches(parts[i])) at = at.parentNode;
        if (!at || at === this) return false;
        at = at.parentNode;
      }
      return true;
    });
  }
  querySelector(selector) { return this.querySelectorAll(selector)[0] ?? null; }
}

/** An <a>: JupyterLab's URLExt.parse reads a URL's parts through one, as browsers do. */
class FakeAnchor extends FakeNode {
  constructor() { super('a'); this._url = null; }
  set href(value) { this._url = new URL(value, 'http://localhost:8888/lab'); }
  get href() { return this._url ? this._url.href : ''; }
  toString() { return this.href; }
}
for (const part of ['protocol', 'host', 'hostname', 'port', 'pathname', 'search', 'hash', 'origin']) {
  Object.defineProperty(FakeAnchor.prototype, part, { get() { return this._url ? this._url[part] : ''; } });
}

/** window.setTimeout and clearTimeout that run only when a test says so. */
const timers = {
  pending: new Map(),
  next: 1,
  set(fn, ms) { const id = this.next++; this.pending.set(id, { fn, ms }); return id; },
  clear(id) { this.pending.delete(id); },
  /** Run the timers set so far (not the ones they set): one retry wait, one debounce. */
  fire(filter = () => true) {
    const due = [...this.pending].filter(([, t]) => filter(t));
    due.forEach(([id]) => this.pending.delete(id));
    due.forEach(([, t]) => t.fn());
    return due.map(([, t]) => t.ms);
  },
  reset() { this.pending.clear(); }
};

const storage = new Map();
globalThis.navigator = globalThis.navigator ?? { platform: 'Linux', userAgent: 'node' };
globalThis.document = {
  createElement: tag => (tag === 'a' ? new FakeAnchor() : new FakeNode(tag)),
  createTextNode: text => new FakeNode(null, text),
  getElementById: () => null,
  querySelector: () => null,
  addEventListener() {},
  removeEventListener() {},
  cookie: '',
  body: new FakeNode('body'),
  documentElement: new FakeNode('html')
};
globalThis.window = {
  setTimeout: (fn, ms) => timers.set(fn, ms),
  clearTimeout: id => timers.clear(id),
  localStorage: { getItem: k => storage.get(k) ?? null, setItem: (k, v) => storage.set(k, String(v)) },
  addEventListener() {},
  removeEventListener() {},
  location: { href: 'http://localhost:8888/lab', origin: 'http://localhost:8888', protocol: 'http:', host: 'localhost:8888',
    hostname: 'localhost', port: '8888', pathname: '/lab', search: '', hash: '' },
  document: globalThis.document,
  navigator: globalThis.navigator
};
globalThis.location = globalThis.window.location;
for (const name of ['HTMLElement', 'Element', 'Node', 'HTMLInputElement', 'Event', 'MouseEvent', 'DragEvent', 'KeyboardEvent']) {
  globalThis[name] = globalThis[name] ?? FakeNode;
}
globalThis.WebSocket = globalThis.WebSocket ?? class WebSocket {}; // never opened: the panel speaks REST only
globalThis.requestAnimationFrame = globalThis.requestAnimationFrame ?? (fn => setImmediate(fn));
globalThis.cancelAnimationFrame = globalThis.cancelAnimationFrame ?? (() => {});

// ------------------------------------------------------------------ the network

/**
 * Every request goes to `server.answer(route, params)`: a test sets it to return (or hold)
 * a Response. `server.asked` lists what was asked, in order.
 */
const server = { asked: [], answer: null };
globalThis.fetch = async request => {
  const url = new URL(request.url);
  const route = url.pathname.replace(/^\/codetrace\/api\//, '');
  const params = Object.fromEntries([...url.searchParams].filter(([key]) => !/^\d+$/.test(key)));
  server.asked.push({ route, params });
  return server.answer(route, params);
};

function json(status, body, headers = {}) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

const READY = { state: 'ready', files: 3, total: 3, done: 3, languages: { python: 3 }, contents_path: '' };
const INDEXING = { status: 'indexing', message: 'The project is being indexed; retry shortly.', progress: { state: 'indexing', done: 1, total: 4 } };

function deferred() {
  let resolve, reject;
  const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

/** Let every pending promise chain run (responses parsed, views drawn). */
async function settle() {
  for (let i = 0; i < 20; i++) {
    await new Promise(resolve => setImmediate(resolve));
  }
}

function match(name, file = 'shop/orders.py', line = 1) {
  return { name, kind: 'function', file, line, column: 5, container: null, signature: '()', score: 90, exported: true };
}

function trace(name) {
  return {
    status: 'found',
    definition: { status: 'found', name, kind: 'function', file: 'shop/orders.py', line: 3, column: 5, path: [name],
      exported: true, resolution: 'scope', members: [], resolved_from: [] },
    references: { total: 0, files: 0, locations: [] },
    calls: { incoming: [], outgoing: [] },
    types: { hierarchy: { extends: [], implements: [], subtypes: [] } }
  };
}

// ------------------------------------------------------------------ the real modules

execFileSync(process.execPath, [
  path.join(here, 'node_modules', 'typescript', 'bin', 'tsc'),
  'src/request.ts', 'src/picker.ts', 'src/panel.ts',
  '--module', 'commonjs', '--target', 'ES2018', '--lib', 'DOM,ES2018', '--strict', '--skipLibCheck',
  '--esModuleInterop', '--outDir', out
], { cwd: here, stdio: 'inherit' });

const { PageConfig } = require('@jupyterlab/coreutils');
PageConfig.setOption('baseUrl', 'http://localhost:8888/');
PageConfig.setOption('appendToken', 'false');
const { requestAPI, requestWhenIndexed } = require(path.join(out, 'request.js'));
const { CodeTracePanel } = require(path.join(out, 'panel.js'));
const { ServerConnection } = require('@jupyterlab/services');

/** A panel over a server whose status is ready; `routes` answer the rest. */
async function newPanel(routes) {
  server.asked = [];
  timers.reset();
  server.answer = (route, params) => (route === 'status' ? json(200, READY) : routes(route, params));
  const panel = new CodeTracePanel(() => {});
  await settle();
  return panel;
}

/** A panel whose answers wait until the test resolves them: `held` maps the value of the
 *  request's `key` parameter (the query, the symbol) to its pending answer. */
async function panelHoldingAnswers(key) {
  const held = new Map();
  const panel = await newPanel((route, params) => {
    const answer = deferred();
    held.set(params[key], answer);
    return answer.promise;
  });
  return { panel, held };
}

const names = panel => panel.node.querySelectorAll('.jp-CodeTrace-match .jp-CodeTrace-name').map(n => n.textContent);
const resultsText = panel => panel.node.querySelector('.jp-CodeTrace-results').textContent;
const viewOf = panel => panel.node.querySelector('.jp-CodeTrace-view');

// ------------------------------------------------------------------ request.ts

test('requestAPI gives a 404 not-found body as data and throws on a 500 with its message', async () => {
  server.answer = route => (route === 'trace'
    ? json(404, { status: 'symbol_not_found', message: 'Symbol nope is not defined.' })
    : json(500, { status: 'error', message: 'the cache is unreadable' }));
  const answer = await requestAPI('trace', { symbol: 'nope' });
  assert.equal(answer.status, 404);
  assert.equal(answer.body.status, 'symbol_not_found');
  await assert.rejects(requestAPI('symbols', { query: 'x' }),
    error => error instanceof ServerConnection.ResponseError && /cache is unreadable/.test(error.message));
});

test('requestWhenIndexed asks again after each 503, waiting as Retry-After says, until answered', async () => {
  timers.reset();
  server.asked = [];
  let calls = 0;
  server.answer = () => (++calls < 3 ? json(503, INDEXING, { 'Retry-After': '2' }) : json(200, { status: 'found', symbols: [] }));
  const waits = [];
  const pending = requestWhenIndexed('symbols', { query: 'order' }, { onWait: (body, delay) => waits.push([body.progress.done, delay]) });
  await settle();
  assert.deepEqual(timers.fire(), [2000]);
  await settle();
  assert.deepEqual(timers.fire(), [4000]); // doubled at each attempt
  const answer = await pending;
  assert.equal(answer.status, 200);
  assert.deepEqual(waits, [[1, 2000], [1, 4000]]);
  assert.equal(server.asked.length, 3);
});

test('requestWhenIndexed stops asking once the answer is no longer wanted', async () => {
  timers.reset();
  server.asked = [];
  server.answer = () => json(503, INDEXING, { 'Retry-After': '1' });
  let wanted = true;
  const pending = requestWhenIndexed('trace', { symbol: 'total' }, { isCurrent: () => wanted });
  await settle();
  wanted = false;
  timers.fire();
  const answer = await pending;
  assert.equal(answer.status, 503);
  await settle();
  assert.equal(server.asked.length, 1, 'no request after the wait once nobody wants the answer');
  assert.equal(timers.pending.size, 0);
});

// ------------------------------------------------------------------ the search box (panel + picker)

test('an older search answer arriving after a newer one is dropped', async () => {
  const { panel, held } = await panelHoldingAnswers('query');
  const first = panel.search('ord');
  const second = panel.search('order');
  await settle();
  held.get('order').resolve(json(200, { status: 'found', symbols: [match('place_order')], truncated: false }));
  await second;
  held.get('ord').resolve(json(200, { status: 'found', symbols: [match('ordinal'), match('order_total')], truncated: false }));
  await first;
  await settle();
  assert.deepEqual(names(panel), ['place_order']);
  panel.dispose();
});

test('a failed search says so in the list, and the next search recovers', async () => {
  let fail = true;
  const panel = await newPanel(() => {
    if (fail) {
      return Promise.reject(new TypeError('Failed to fetch'));
    }
    return json(200, { status: 'found', symbols: [match('place_order')], truncated: false });
  });
  await panel.search('order'); // resolves: the failure is shown, not thrown at the caller
  assert.match(resultsText(panel), /failed/i);
  assert.deepEqual(names(panel), []);
  fail = false;
  await panel.search('order');
  assert.deepEqual(names(panel), ['place_order']);
  assert.doesNotMatch(resultsText(panel), /failed/i);
  panel.dispose();
});

test('a search during indexing is asked again after the wait, saying so meanwhile', async () => {
  let indexed = false;
  const panel = await newPanel(() => (indexed
    ? json(200, { status: 'found', symbols: [match('place_order')], truncated: false })
    : json(503, INDEXING, { 'Retry-After': '1' })));
  const pending = panel.search('order');
  await settle();
  assert.match(resultsText(panel), /Still indexing the project \(1 of 4 files\)/);
  indexed = true;
  timers.fire(t => t.ms === 1000);
  await pending;
  assert.deepEqual(names(panel), ['place_order']);
  panel.dispose();
});

// ------------------------------------------------------------------ the symbol view

test('an older symbol answer arriving after a newer one is dropped', async () => {
  const { panel, held } = await panelHoldingAnswers('symbol');
  const first = panel.showSymbol('total');
  const second = panel.showSymbol('place_order');
  await settle();
  held.get('place_order').resolve(json(200, trace('place_order')));
  await second;
  held.get('total').resolve(json(200, trace('total')));
  await first;
  const heading = viewOf(panel).querySelector('.jp-CodeTrace-card h3');
  assert.match(heading.textContent, /place_order/);
  panel.dispose();
});

test('a failed trace shows the error instead of "Tracing…", and the next one recovers', async () => {
  let fail = true;
  const panel = await newPanel(() => (fail ? json(500, { status: 'error', message: 'the cache is unreadable' })
    : json(200, trace('total'))));
  await panel.showSymbol('total'); // resolves: the failure is shown, not thrown at the caller
  const view = viewOf(panel);
  assert.equal(view.querySelector('.jp-CodeTrace-loading'), null, 'still saying "Tracing total…"');
  assert.match(view.textContent, /cache is unreadable/);
  assert.equal(view.querySelector('[role="alert"]')?.getAttribute('data-status'), 'error');
  fail = false;
  await panel.showSymbol('total');
  assert.match(view.querySelector('.jp-CodeTrace-card h3').textContent, /total/);
  assert.equal(view.querySelector('[role="alert"]'), null);
  panel.dispose();
});

test('a trace during indexing waits, says so, and draws the answer once indexed', async () => {
  let indexed = false;
  const panel = await newPanel(() => (indexed ? json(200, trace('total')) : json(503, INDEXING, { 'Retry-After': '1' })));
  const pending = panel.showSymbol('total');
  await settle();
  assert.match(viewOf(panel).textContent, /Still indexing the project \(1 of 4 files\); tracing again in 1 s/);
  indexed = true;
  timers.fire(t => t.ms === 1000);
  await pending;
  assert.match(viewOf(panel).querySelector('.jp-CodeTrace-card h3').textContent, /total/);
  panel.dispose();
});

test('a disposed panel stops asking again while the project is indexed', async () => {
  const panel = await newPanel(() => json(503, INDEXING, { 'Retry-After': '1' }));
  let done = 0;
  void panel.showSymbol('total').then(() => done++);
  void panel.search('order').then(() => done++);
  await settle();
  const asked = () => server.asked.filter(a => a.route !== 'status').map(a => a.route);
  assert.deepEqual(asked(), ['trace', 'symbols']);
  panel.dispose();
  timers.fire(); // the waits end: nobody wants the answers any more
  await settle();
  assert.deepEqual(asked(), ['trace', 'symbols'], 'asked again after the panel was disposed');
  assert.equal(done, 2, 'the trace and the search end (with the 503) instead of waiting on');
  assert.equal(timers.pending.size, 0, 'a retry is still scheduled');
});
