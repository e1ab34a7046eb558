/** View logic of the panel with no DOM or server in it: unit-tested by test/view.test.ts. */

export interface Location {
  file: string;
  line: number;
  column?: number;
  cell?: number | null;
  /** Library code (standard library, a package, node_modules): opened read-only, never as a project file. */
  library?: { kind: string; package: string; version?: string | null } | null;
}

/**
 * Where a location reads "file:line" (or "file cell N:line" for notebooks, N from 1); `short` keeps only
 * the file's name, for links beside a name that already says where it is.
 */
export function describeLocation(location: Location, short = false): string {
  // Cells are numbered from 1, as JupyterLab's status bar shows them; the index sent is 0-based.
  const cell = location.cell !== undefined && location.cell !== null ? ` cell ${location.cell + 1}` : '';
  const file = short ? location.file.split('/').pop() : location.file;
  return `${file}${cell}:${location.line}`;
}

/** Group reference locations by file, optionally without test files. */
export function groupByFile<T extends { file: string; test?: boolean }>(
  items: T[],
  hideTests: boolean
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    if (hideTests && item.test) {
      continue;
    }
    const group = groups.get(item.file) ?? [];
    group.push(item);
    groups.set(item.file, group);
  }
  return groups;
}


/** The symbol a search match stands for: `Container.name`, as the trace route takes it. */
export function matchSymbol(match: { name: string; container?: string | null }): string {
  return match.container ? `${match.container}.${match.name}` : match.name;
}

const WORD_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * The identifier in `text` at 0-based `column` (or ending just before it, since a click on the
 * right half of a word's last letter lands after it): its text and 0-based start, or null.
 */
export function wordAt(text: string, column: number): { word: string; start: number } | null {
  const chars = Array.from(text); // code points, as editor columns count them
  let at = Math.min(Math.max(column, 0), chars.length);
  if (!(at < chars.length && WORD_CHAR.test(chars[at]))) {
    if (at > 0 && WORD_CHAR.test(chars[at - 1])) {
      at -= 1;
    } else {
      return null;
    }
  }
  let start = at;
  let end = at + 1;
  while (start > 0 && WORD_CHAR.test(chars[start - 1])) {
    start -= 1;
  }
  while (end < chars.length && WORD_CHAR.test(chars[end])) {
    end += 1;
  }
  const word = chars.slice(start, end).join('');
  // A number is no symbol to trace.
  return /^\p{N}/u.test(word) ? null : { word, start };
}

/**
 * The one search match that `text` names exactly (`name` or `Container.name`), or null when none
 * or several do: a typed name is never silently swapped for the closest fuzzy match.
 */
export function exactMatch<T extends { name: string; container?: string | null }>(matches: T[], text: string): T | null {
  const wanted = text.trim();
  const exact = matches.filter(match => matchSymbol(match) === wanted);
  return exact.length === 1 ? exact[0] : null;
}

/** What each not-found or error status means, in words for people (the code stays in a tooltip). */
const STATUS_TITLES: Record<string, string> = {
  file_not_indexed: 'This file is not indexed',
  reference_not_found: 'No name to trace here',
  no_name: 'No name to trace here',
  symbol_not_found: 'No symbol by that name',
  unresolved: 'Could not follow this name to its definition',
  builtin: 'A built-in of the language',
  no_path: 'No path connects these symbols',
  same_symbol: 'That is the same symbol',
  invalid_request: 'The request could not be answered',
  forbidden: 'Outside the project',
  indexing: 'Still indexing the project',
  error: 'Something went wrong'
};

export function statusTitle(status: string): string {
  return STATUS_TITLES[status] ?? status.replace(/_/g, ' ');
}

/** How suggestions read for each status: names on the line are not "did you mean" guesses. */
export function suggestionsTitle(status: string): string {
  if (status === 'reference_not_found') {
    return 'Names on this line:';
  }
  if (status === 'file_not_indexed' || status === 'unresolved') {
    return 'Found elsewhere:';
  }
  return 'Did you mean:';
}

/**
 * Milliseconds to wait before asking again while the project is indexed: the server's
 * Retry-After (default half a second), doubled at each attempt, at most ten seconds.
 */
export function retryDelay(attempt: number, retryAfterSeconds?: number | null): number {
  const base = retryAfterSeconds && retryAfterSeconds > 0 ? retryAfterSeconds * 1000 : 500;
  return Math.min(base * 2 ** attempt, 10_000);
}

/** "Still indexing the project (3 of 17 files); searching again in 2 s…" */
export function waitingMessage(body: any, delay: number, doing = 'searching'): string {
  const progress = body?.progress;
  const files = progress?.total ? ` (${progress.done ?? 0} of ${progress.total} files)` : '';
  return `Still indexing the project${files}; ${doing} again in ${Math.max(1, Math.round(delay / 1000))} s…`;
}

/**
 * A result's root-relative `file` as a path of JupyterLab's file tree, given where the traced
 * root sits in it (`contentsPath`: '' for the server's root, null when outside it).
 */
export function toContentsPath(contentsPath: string | null, file: string): string {
  return contentsPath ? `${contentsPath}/${file}` : file;
}

/** The reverse: a JupyterLab path as a root-relative file, or null when it is outside the root. */
export function fromContentsPath(contentsPath: string | null, path: string): string | null {
  if (!contentsPath) {
    return path;
  }
  return path.startsWith(`${contentsPath}/`) ? path.slice(contentsPath.length + 1) : null;
}

/** A rectangle of drawing units, as an SVG viewBox. */
export interface ViewBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The whole drawing, padded to the box's proportions (centred) so that zooming fills the box. */
export function fitView(drawing: ViewBox, boxWidth: number, boxHeight: number): ViewBox {
  const aspect = boxWidth > 0 && boxHeight > 0 ? boxWidth / boxHeight : drawing.width / drawing.height;
  let { width, height } = drawing;
  if (width / height > aspect) {
    height = width / aspect;
  } else {
    width = height * aspect;
  }
  return { x: drawing.x - (width - drawing.width) / 2, y: drawing.y - (height - drawing.height) / 2, width, height };
}

/**
 * Zoom by `factor` (> 1 magnifies) keeping the drawing point (cx, cy) where it is on screen;
 * never smaller than 1/16 of the fitted view, never beyond it.
 */
export function zoomView(view: ViewBox, factor: number, cx: number, cy: number, fit: ViewBox): ViewBox {
  const width = Math.min(fit.width, Math.max(fit.width / 16, view.width / factor));
  const scale = width / view.width;
  const height = view.height * scale;
  return { x: cx - (cx - view.x) * scale, y: cy - (cy - view.y) * scale, width, height };
}

/**
 * Where `name` is in a reference's `context` (its line, trimmed of indentation) for the column
 * the engine gave (1-based, on the untrimmed line): the last whole-word occurrence that starts at
 * or before it (trimming only moves text left), else the first. [start, end) in UTF-16 units.
 */
export function nameSpan(context: string, name: string, column: number): [number, number] | null {
  if (!name || !context) {
    return null;
  }
  const isWord = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_$]/u.test(ch);
  const found: number[] = [];
  for (let at = context.indexOf(name); at >= 0; at = context.indexOf(name, at + 1)) {
    if (!isWord(context[at - 1]) && !isWord(context[at + name.length])) {
      found.push(at);
    }
  }
  if (!found.length) {
    return null;
  }
  const before = found.filter(at => Array.from(context.slice(0, at)).length <= column - 1);
  const start = before.length ? before[before.length - 1] : found[0];
  return [start, start + name.length];
}

