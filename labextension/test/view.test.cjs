// Unit tests of the panel's view logic (src/view.ts, compiled to build-test/ by `jlpm test`).
const test = require('node:test');
const assert = require('node:assert/strict');
const { describeLocation, groupByFile, matchSymbol, wordAt, exactMatch, statusTitle, suggestionsTitle, retryDelay, waitingMessage, toContentsPath, fromContentsPath, fitView, zoomView } = require('../build-test/view.js');

test('describeLocation reads file:line', () => {
  assert.equal(describeLocation({ file: 'a/b.py', line: 3 }), 'a/b.py:3');
});

test('describeLocation keeps only the file name when short', () => {
  assert.equal(describeLocation({ file: 'a/b.py', line: 3 }, true), 'b.py:3');
});

test('describeLocation names the cell of a notebook position', () => {
  assert.equal(describeLocation({ file: 'nb.ipynb', line: 2, cell: 0 }), 'nb.ipynb cell 1:2'); // as JupyterLab counts
});

const refs = [
  { file: 'a.py', line: 1, test: false },
  { file: 'tests/test_a.py', line: 4, test: true },
  { file: 'a.py', line: 9, test: false }
];

test('groupByFile keeps the order of first appearance and groups lines', () => {
  const groups = groupByFile(refs, false);
  assert.deepEqual([...groups.keys()], ['a.py', 'tests/test_a.py']);
  assert.deepEqual(groups.get('a.py').map(r => r.line), [1, 9]);
});

test('groupByFile hides test files on request', () => {
  assert.deepEqual([...groupByFile(refs, true).keys()], ['a.py']);
});

test('matchSymbol joins the container', () => {
  assert.equal(matchSymbol({ name: 'save', container: 'User' }), 'User.save');
  assert.equal(matchSymbol({ name: 'main', container: null }), 'main');
});

test('wordAt finds the identifier under or just before a column', () => {
  const line = "order = service.place_order(Order('x'))";
  assert.deepEqual(wordAt(line, 16), { word: 'place_order', start: 16 });
  assert.deepEqual(wordAt(line, 22), { word: 'place_order', start: 16 });
  assert.deepEqual(wordAt(line, 27), { word: 'place_order', start: 16 }); // on '(' right after it
  assert.equal(wordAt(line, 6), null); // on '='
  assert.equal(wordAt('f(10)', 3), null); // a number
  assert.deepEqual(wordAt('x = größe', 6), { word: 'größe', start: 4 });
});

test('exactMatch takes only a unique exact name, never the closest fuzzy match', () => {
  const matches = [
    { name: 'total', container: 'pricing', file: 'pricing.hpp' },
    { name: 'total', container: 'pricing', file: 'pricing.cpp' },
    { name: 'round_money', container: null, file: 'pricing.py' },
    { name: 'round_money', container: 'pricing', file: 'pricing.hpp' }
  ];
  assert.equal(exactMatch(matches, 'zzznotasymbol'), null);
  assert.equal(exactMatch(matches, 'round_money').file, 'pricing.py');
  assert.equal(exactMatch(matches, ' pricing.round_money ').file, 'pricing.hpp');
  assert.equal(exactMatch(matches, 'pricing.total'), null); // two files: the user picks
  assert.equal(exactMatch(matches, 'round_'), null);
});

test('statusTitle words every status for people', () => {
  assert.equal(statusTitle('file_not_indexed'), 'This file is not indexed');
  assert.equal(statusTitle('some_new_status'), 'some new status');
  for (const status of ['file_not_indexed', 'reference_not_found', 'symbol_not_found', 'unresolved', 'builtin',
    'no_path', 'same_symbol']) {
    assert.ok(!statusTitle(status).includes('_'), status);
  }
});

test('suggestionsTitle does not call the names on a line guesses', () => {
  assert.equal(suggestionsTitle('reference_not_found'), 'Names on this line:');
  assert.equal(suggestionsTitle('symbol_not_found'), 'Did you mean:');
});

test('retryDelay backs off from Retry-After up to ten seconds', () => {
  assert.deepEqual([0, 1, 2, 3].map(a => retryDelay(a, 2)), [2000, 4000, 8000, 10000]);
  assert.equal(retryDelay(0), 500);
  assert.equal(retryDelay(10, null), 10000);
});

test('waitingMessage says how far indexing is and when the panel asks again', () => {
  assert.equal(waitingMessage({ progress: { done: 3, total: 17 } }, 2000),
    'Still indexing the project (3 of 17 files); searching again in 2 s…');
  assert.equal(waitingMessage({}, 400, 'tracing'), 'Still indexing the project; tracing again in 1 s…');
});

test('contents paths map to and from the traced root', () => {
  assert.equal(toContentsPath('fixtures/demo', 'inventory/cli.py'), 'fixtures/demo/inventory/cli.py');
  assert.equal(toContentsPath('', 'inventory/cli.py'), 'inventory/cli.py');
  assert.equal(toContentsPath(null, 'inventory/cli.py'), 'inventory/cli.py');
  assert.equal(fromContentsPath('fixtures/demo', 'fixtures/demo/inventory/cli.py'), 'inventory/cli.py');
  assert.equal(fromContentsPath('fixtures/demo', 'notebooks/01.ipynb'), null);
  assert.equal(fromContentsPath('fixtures/demo', 'fixtures/demolition/a.py'), null);
  assert.equal(fromContentsPath('', 'a/b.py'), 'a/b.py');
});

test('fitView pads a wide drawing to the box and keeps it centred', () => {
  const view = fitView({ x: 0, y: 0, width: 1000, height: 100 }, 200, 100);
  assert.deepEqual(view, { x: 0, y: -200, width: 1000, height: 500 });
});

test('zoomView keeps the point under the pointer and stays between 1/16 and the fit', () => {
  const fit = { x: 0, y: 0, width: 800, height: 400 };
  const zoomed = zoomView(fit, 2, 400, 200, fit);
  assert.deepEqual(zoomed, { x: 200, y: 100, width: 400, height: 200 });
  assert.equal(zoomView(zoomed, 0.1, 400, 200, fit).width, 800);
  assert.equal(zoomView(fit, 1000, 0, 0, fit).width, 50);
});

test('nameSpan marks the occurrence the column names, on a line trimmed of its indentation', () => {
  const { nameSpan } = require('../build-test/view.js');
  // `    total = total + price(total)` trimmed; the engine's column 13 is the second `total`
  const context = 'total = total + price(total)';
  assert.deepEqual(nameSpan(context, 'total', 13), [8, 13]);
  assert.deepEqual(nameSpan(context, 'total', 5), [0, 5]);
  assert.deepEqual(nameSpan(context, 'total', 99), [22, 27]);
  assert.deepEqual(nameSpan('subtotal = 1', 'total', 1), null);   // whole words only
  assert.deepEqual(nameSpan('', 'x', 1), null);
});
