// Unit tests of editor navigation's logic (src/navmodel.ts, compiled to build-test/ by `jlpm test`).
const test = require('node:test');
const assert = require('node:assert/strict');
const {
  NavigationHistory, modifierHeld, isModifierKey, codePointColumn, utf16Column, libraryLabel, libraryTitle,
  navigationTargets, describeTarget, docExcerpt, signatureLine, lspPolicy
} = require('../build-test/navmodel.js');

const at = (path, line, extra = {}) => ({ path, line, column: 1, ...extra });

test('history: back returns where navigation started, forward goes again', () => {
  const history = new NavigationHistory();
  history.record(at('a.py', 3));
  const back = history.back(at('b.py', 9));
  assert.deepEqual(back, at('a.py', 3));
  assert.deepEqual(history.forward(at('a.py', 3)), at('b.py', 9));
  assert.deepEqual(history.back(at('b.py', 9)), at('a.py', 3));
});

test('history: a new jump forgets the forward half; empty history gives null', () => {
  const history = new NavigationHistory();
  assert.equal(history.back(at('x.py', 1)), null);
  history.record(at('a.py', 1));
  history.back(at('b.py', 1));
  history.record(at('a.py', 1));
  assert.equal(history.canGoForward, false);
});

test('history: is bounded and keeps the newest places', () => {
  const history = new NavigationHistory(3);
  for (let line = 1; line <= 5; line++) {
    history.record(at('a.py', line));
  }
  const lines = [];
  for (let place = history.back(null); place; place = history.back(null)) {
    lines.push(place.line);
  }
  assert.deepEqual(lines, [5, 4, 3]);
});

test('history: the same place twice in a row is kept once', () => {
  const history = new NavigationHistory();
  history.record(at('nb.ipynb', 2, { cell: 1 }));
  history.record(at('nb.ipynb', 2, { cell: 1 }));
  history.back(null);
  assert.equal(history.canGoBack, false);
});

const keys = (over = {}) => ({ ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...over });

test('modifierHeld: Accel is Ctrl off a Mac and Cmd on a Mac, alone', () => {
  assert.equal(modifierHeld(keys({ ctrlKey: true }), 'Accel', false), true);
  assert.equal(modifierHeld(keys({ metaKey: true }), 'Accel', false), false);
  assert.equal(modifierHeld(keys({ metaKey: true }), 'Accel', true), true);
  assert.equal(modifierHeld(keys({ ctrlKey: true }), 'Accel', true), false);
  assert.equal(modifierHeld(keys({ ctrlKey: true, shiftKey: true }), 'Accel', false), false);
  assert.equal(modifierHeld(keys({ ctrlKey: true, altKey: true }), 'Accel', false), false);
});

test('modifierHeld: Alt alone when Alt is chosen', () => {
  assert.equal(modifierHeld(keys({ altKey: true }), 'Alt', false), true);
  assert.equal(modifierHeld(keys({ altKey: true, ctrlKey: true }), 'Alt', false), false);
  assert.equal(isModifierKey('Alt', 'Alt', false), true);
  assert.equal(isModifierKey('Control', 'Accel', false), true);
  assert.equal(isModifierKey('Meta', 'Accel', true), true);
  assert.equal(isModifierKey('Control', 'Accel', true), false);
});

test('columns: code points for the server, UTF-16 for the editor', () => {
  const line = 'x = "😀" + naïve';
  const utf16 = line.indexOf('naïve');
  assert.equal(codePointColumn(line, utf16), utf16 - 1); // the emoji is two UTF-16 units
  assert.equal(utf16Column(line, utf16 - 1), utf16);
  assert.equal(utf16Column('ab', 10), 2);
});

test('library labels read as the results show them', () => {
  assert.equal(libraryLabel({ kind: 'stdlib', package: 'python', version: '3.11' }), 'stdlib 3.11');
  assert.equal(libraryLabel({ kind: 'package', package: 'networkx', version: '3.4.2' }), 'networkx 3.4.2');
  assert.equal(libraryLabel({ kind: 'package', package: 'lodash' }), 'lodash');
  assert.equal(libraryTitle('json/__init__.py', { kind: 'stdlib', package: 'python', version: '3.11' }),
    'json/__init__.py — stdlib 3.11 (read-only)');
});

test('navigationTargets: the answer first, then its candidates, each place once', () => {
  const result = {
    status: 'found', name: 'area_of', kind: 'function', file: 'a.py', line: 1, column: 5, resolution: 'name-only',
    candidates: [{ file: 'b.py', line: 1, column: 5, kind: 'function', name: 'area_of' }, { file: 'a.py', line: 1, column: 5 }]
  };
  const targets = navigationTargets(result);
  assert.deepEqual(targets.map(t => t.file), ['a.py', 'b.py']);
  assert.equal(navigationTargets({ status: 'unresolved', message: 'x' }).length, 0);
  const lib = navigationTargets({ status: 'found', name: 'dumps', file: 'json/__init__.py', line: 183,
    library: { kind: 'stdlib', package: 'python', version: '3.11' } });
  assert.equal(describeTarget(lib[0]), 'json/__init__.py:183 — stdlib 3.11');
  assert.equal(describeTarget({ file: 'nb.ipynb', line: 1, cell: 2 }), 'nb.ipynb cell 3:1');
});

test('docExcerpt: the first paragraph, a few lines, says when it cut', () => {
  assert.deepEqual(docExcerpt(null), { text: '', more: false });
  assert.deepEqual(docExcerpt('One line.'), { text: 'One line.', more: false });
  assert.deepEqual(docExcerpt('First.\n\nSecond.'), { text: 'First.', more: true });
  const long = docExcerpt('a\nb\nc\nd\ne\nf', 4);
  assert.equal(long.text, 'a\nb\nc\nd');
  assert.equal(long.more, true);
  assert.equal(docExcerpt('x'.repeat(300), 4, 50).text.length, 50);
});

test('signatureLine: name and signature, or kind and name', () => {
  assert.equal(signatureLine({ name: 'dumps', signature: '(obj, **kw)' }), 'dumps(obj, **kw)');
  assert.equal(signatureLine({ name: 'Order', kind: 'class', signature: null }), 'class Order');
});

test('lspPolicy: without jupyterlab-lsp everything is on', () => {
  assert.deepEqual(lspPolicy(['@jupyterlab/lsp-extension:manager'], 'defer'), { detected: false, click: true, hover: true });
});

test('lspPolicy: with it, its gestures are left to it unless both are chosen', () => {
  const ids = ['@jupyter-lsp/jupyterlab-lsp:plugin', '@jupyter-lsp/jupyterlab-lsp:jump_to', '@jupyter-lsp/jupyterlab-lsp:hover'];
  assert.deepEqual(lspPolicy(ids, 'defer'), { detected: true, click: false, hover: false });
  assert.deepEqual(lspPolicy(ids.slice(0, 2), 'defer'), { detected: true, click: false, hover: true });
  assert.deepEqual(lspPolicy(ids, 'both'), { detected: true, click: true, hover: true });
});
