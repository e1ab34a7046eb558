/**
 * Editor navigation logic with no DOM, CodeMirror or server in it (unit-tested by
 * test/navmodel.test.cjs): the back/forward history, modifier keys, column conversions, library
 * labels, the chooser's targets, hover-card text and the jupyterlab-lsp policy.
 */

/** What a result says about library code (standard library, installed package, node_modules). */
export interface LibraryInfo {
  kind: string;
  package: string;
  version?: string | null;
}

/** A place navigation can go to, or come back to. */
export interface Place {
  /** A JupyterLab path (contents path) for project files; the root-relative file for libraries. */
  path: string;
  /** 1-based line and column (column in code points, as the server counts). */
  line: number;
  column: number;
  cell?: number | null;
  /** Set for a library file (opened read-only): `path` is then the file as results name it. */
  library?: LibraryInfo | null;
}

/**
 * A short history of where navigation came from, as browsers and IDEs keep it: going somewhere
 * new records where you were and forgets the forward half; back and forward trade places.
 */
export class NavigationHistory {
  private past: Place[] = [];
  private future: Place[] = [];

  constructor(readonly limit = 50) {}

  get canGoBack(): boolean {
    return this.past.length > 0;
  }

  get canGoForward(): boolean {
    return this.future.length > 0;
  }

  /** Remember `from` before jumping away from it. */
  record(from: Place): void {
    const last = this.past[this.past.length - 1];
    if (!last || !samePlace(last, from)) {
      this.past.push(from);
    }
    if (this.past.length > this.limit) {
      this.past.splice(0, this.past.length - this.limit);
    }
    this.future = [];
  }

  /** The place to go back to (null when none); `current` becomes the way forward again. */
  back(current: Place | null): Place | null {
    const place = this.past.pop() ?? null;
    if (place && current) {
      this.future.push(current);
    }
    return place;
  }

  forward(current: Place | null): Place | null {
    const place = this.future.pop() ?? null;
    if (place && current) {
      this.past.push(current);
    }
    return place;
  }
}

export function samePlace(a: Place, b: Place): boolean {
  return a.path === b.path && a.line === b.line && (a.cell ?? null) === (b.cell ?? null) && a.column === b.column;
}

/** The key held with a click to go to a definition: Accel is Cmd on a Mac, Ctrl elsewhere. */
export type Modifier = 'Accel' | 'Alt';

export interface ModifierState {
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** Whether exactly the navigation modifier is held (Ctrl-Shift-click keeps its own meaning). */
export function modifierHeld(event: ModifierState, modifier: Modifier, mac: boolean): boolean {
  if (event.shiftKey) {
    return false;
  }
  if (modifier === 'Alt') {
    return event.altKey && !event.ctrlKey && !event.metaKey;
  }
  const accel = mac ? event.metaKey : event.ctrlKey;
  const other = mac ? event.ctrlKey : event.metaKey;
  return accel && !other && !event.altKey;
}

/** Whether a key event is the modifier key itself being pressed or released. */
export function isModifierKey(key: string, modifier: Modifier, mac: boolean): boolean {
  if (modifier === 'Alt') {
    return key === 'Alt';
  }
  return key === (mac ? 'Meta' : 'Control');
}

/** A 0-based UTF-16 offset in `text` as a 0-based count of code points (what the server counts). */
export function codePointColumn(text: string, utf16: number): number {
  return Array.from(text.slice(0, Math.max(0, utf16))).length;
}

/** The reverse: a 0-based code point column as a UTF-16 offset, clamped to the line. */
export function utf16Column(text: string, codePoints: number): number {
  return Array.from(text).slice(0, Math.max(0, codePoints)).join('').length;
}

/** "stdlib 3.11", "networkx 3.4.2", "lodash": what a library is, in the results' short form. */
export function libraryLabel(library: LibraryInfo): string {
  const name = library.kind === 'stdlib' ? 'stdlib' : library.package;
  return library.version ? `${name} ${library.version}` : name;
}

/** The read-only tab's title: `json/__init__.py — stdlib 3.11 (read-only)`. */
export function libraryTitle(file: string, library: LibraryInfo): string {
  return `${file} — ${libraryLabel(library)} (read-only)`;
}

/** A definition result or one of its candidates, as far as navigation needs it. */
export interface Target {
  file: string;
  line: number;
  column?: number;
  cell?: number | null;
  name?: string | null;
  kind?: string | null;
  library?: LibraryInfo | null;
}

/**
 * Where a found definition can lead: the answer first, then its rival candidates (name-only
 * matches, ambiguous members), each place once. More than one → the chooser, never a silent pick.
 */
export function navigationTargets(result: any): Target[] {
  if (!result || result.status !== 'found' || !result.file) {
    return [];
  }
  const targets: Target[] = [];
  const seen = new Set<string>();
  for (const item of [result, ...(Array.isArray(result.candidates) ? result.candidates : [])]) {
    if (!item || typeof item.file !== 'string' || typeof item.line !== 'number') {
      continue;
    }
    const key = `${item.file}\u0000${item.cell ?? ''}\u0000${item.line}`;
    if (seen.has(key)) {
      continue;
    }
    seen.add(key);
    targets.push({
      file: item.file,
      line: item.line,
      column: item.column,
      cell: item.cell ?? null,
      name: item.qualified_name || item.name || null,
      kind: item.kind ?? null,
      library: item.library ?? null
    });
  }
  return targets;
}

/** "inventory/pricing.py:26", "notebooks/explore.ipynb cell 3:1", "json/__init__.py:183 — stdlib 3.11". */
export function describeTarget(target: Target): string {
  const cell = target.cell !== undefined && target.cell !== null ? ` cell ${target.cell + 1}` : '';
  const where = `${target.file}${cell}:${target.line}`;
  return target.library ? `${where} — ${libraryLabel(target.library)}` : where;
}

/**
 * The first lines of a doc comment for the hover card: the first paragraph, at most `maxLines`
 * lines of at most `width` characters; `more` says something was left out.
 */
export function docExcerpt(doc: string | null | undefined, maxLines = 4, width = 200): { text: string; more: boolean } {
  const text = (doc ?? '').replace(/\r\n?/g, '\n').trim();
  if (!text) {
    return { text: '', more: false };
  }
  const paragraphs = text.split(/\n\s*\n/);
  const lines = paragraphs[0].split('\n').map(line => line.trim());
  let more = paragraphs.length > 1 || lines.length > maxLines;
  const kept = lines.slice(0, maxLines).map(line => {
    if (line.length > width) {
      more = true;
      return `${line.slice(0, width - 1)}…`;
    }
    return line;
  });
  return { text: kept.join('\n'), more };
}

/** The signature line of a hover card: `dumps(obj, *, skipkeys=False, …)`, `class Order`. */
export function signatureLine(result: any): string {
  const name = result?.name ?? '';
  if (result?.signature) {
    return `${name}${result.signature}`;
  }
  return result?.kind ? `${result.kind} ${name}` : name;
}

/** Which of our editor gestures step aside for jupyterlab-lsp's own. */
export interface LspPolicy {
  /** jupyterlab-lsp's plugins were found. */
  detected: boolean;
  /** Our modifier-click (and its underline) is on. */
  click: boolean;
  /** Our hover card is on. */
  hover: boolean;
}

/** jupyterlab-lsp's plugin ids start with this (`…:jump_to`, `…:hover`). */
export const LSP_PLUGIN_PREFIX = '@jupyter-lsp/jupyterlab-lsp';

/**
 * With jupyterlab-lsp installed, its jump-to (a modifier-click) and hover would answer the same
 * gestures as ours: by default ("defer") we leave them those gestures; "both" keeps ours too.
 */
export function lspPolicy(pluginIds: readonly string[], choice: 'defer' | 'both'): LspPolicy {
  const lsp = pluginIds.filter(id => id.startsWith(LSP_PLUGIN_PREFIX));
  const detected = lsp.length > 0;
  if (!detected || choice === 'both') {
    return { detected, click: true, hover: true };
  }
  const has = (name: string) => lsp.some(id => id.endsWith(`:${name}`));
  return { detected, click: !has('jump_to'), hover: !has('hover') };
}
