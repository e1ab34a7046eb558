/**
 * Navigation from the editor: go to a definition (modifier-click, F12, the palette and the
 * context menu, in the three modes), the chooser when an answer has rivals, back and forward,
 * the hover card, and read-only tabs for library code. Every answer comes from the REST routes
 * (`definition`, `library-source`); editor.ts turns CodeMirror events into calls here.
 */
import { EditorView } from '@codemirror/view';
import { JupyterFrontEnd } from '@jupyterlab/application';
import { MainAreaWidget, Notification } from '@jupyterlab/apputils';
import { CodeEditor, CodeEditorWrapper, IEditorServices } from '@jupyterlab/codeeditor';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { FileEditor } from '@jupyterlab/fileeditor';
import { NotebookPanel } from '@jupyterlab/notebook';
import { CommandRegistry } from '@lumino/commands';
import { Widget } from '@lumino/widgets';

import { EditorHooks, WordAt, revealAndFlash, setUnderline, wordAtPos } from './editor';
import {
  LibraryInfo,
  LspPolicy,
  Modifier,
  NavigationHistory,
  Place,
  Target,
  describeTarget,
  docExcerpt,
  isModifierKey,
  libraryLabel,
  libraryTitle,
  modifierHeld,
  navigationTargets,
  signatureLine
} from './navmodel';
import { requestAPI, requestWhenIndexed } from './request';
import { fromContentsPath, statusTitle, toContentsPath } from './view';

export type Mode = 'definition' | 'declaration' | 'type_definition';

/** The user's choices (Settings → Code Trace), as navigation uses them. */
export interface NavSettings {
  /** Modifier-click goes to the definition. */
  click: boolean;
  /** Holding the modifier underlines what a click would reach. */
  underline: boolean;
  /** A card with the signature and docs after the pointer rests on a name. */
  hoverCard: boolean;
  /** Milliseconds the pointer rests before the card is asked for. */
  hoverDelay: number;
  modifier: Modifier;
  /** With jupyterlab-lsp installed: leave it the gestures it also answers, or keep both. */
  jupyterlabLsp: 'defer' | 'both';
}

export const DEFAULT_SETTINGS: NavSettings = {
  click: true,
  underline: true,
  hoverCard: true,
  hoverDelay: 500,
  modifier: 'Accel',
  jupyterlabLsp: 'defer'
};

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const CACHE_MS = 10_000; // the hover card and the underline reuse an answer this long
const UNDERLINE_DELAY_MS = 40;
const HIDE_GRACE_MS = 250; // time to move the pointer from a name onto its card

/**
 * Unsaved buffers: a file editor with unsaved changes sends its text with the request (POST, since
 * a file does not fit a URL); the server answers from it without touching the file, and from the
 * disk again once a request comes without it (the file saved or reverted). A notebook sends its
 * cells (their sources, in order, without outputs) as a notebook document, so cell numbers hold.
 */

/** A document an editor belongs to: a project file or notebook (JupyterLab path), or a library file. */
interface EditorDocument {
  widget: Widget;
  /** JupyterLab path of a project document; the root-relative file of a library tab. */
  path: string;
  cell?: number;
  library?: LibraryInfo | null;
  /** The editor's text while it has unsaved changes (undefined when the disk holds it). */
  text?: () => string | undefined;
}

/** A position the definition route answers for. */
interface Query {
  file: string;
  line: number;
  column: number;
  cell?: number;
  text?: string;
}

interface Answer {
  status: number;
  body: any;
}

function cmView(editor: CodeEditor.IEditor | null | undefined): EditorView | null {
  const view = (editor as any)?.editor;
  return view && typeof view.dispatch === 'function' && view.state ? (view as EditorView) : null;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, ...children: (Node | string | null)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  node.append(...children.filter((child): child is Node | string => child !== null));
  return node;
}

/** A timer and a request that a newer one replaces (the hover card, the underline). */
class Pending {
  private timer: number | undefined;
  private controller: AbortController | null = null;

  start(delay: number, run: (signal: AbortSignal) => Promise<void>): void {
    this.cancel();
    const controller = new AbortController();
    this.controller = controller;
    this.timer = window.setTimeout(() => {
      void run(controller.signal).catch(() => undefined); // aborted or failed: nothing to show
    }, delay);
  }

  cancel(): void {
    window.clearTimeout(this.timer);
    this.timer = undefined;
    this.controller?.abort();
    this.controller = null;
  }
}

export class Navigator implements EditorHooks {
  readonly history = new NavigationHistory(50);
  settings: NavSettings = { ...DEFAULT_SETTINGS };
  lsp: LspPolicy = { detected: false, click: true, hover: true };

  private cache = new Map<string, { at: number; answer: Answer }>();
  private generation = new WeakMap<EditorView, number>();
  private libraryTabs = new Map<string, MainAreaWidget<CodeEditorWrapper>>();
  private libraryOf = new WeakMap<Widget, { file: string; library: LibraryInfo }>();
  private libraryCount = 0;
  private hoverWork = new Pending();
  private underlineWork = new Pending();
  private hovered: { view: EditorView; word: WordAt } | null = null;
  private underlined: { view: EditorView; from: number; to: number } | null = null;
  private lastPointer: { view: EditorView; x: number; y: number } | null = null;
  private card: HTMLElement | null = null;
  private cardFor: { view: EditorView; from: number } | null = null;
  private hideTimer: number | undefined;
  private popup: HTMLElement | null = null;
  private popupClose: (() => void) | null = null;

  constructor(
    private app: JupyterFrontEnd,
    private docs: IDocumentManager,
    private editors: IEditorServices | null,
    /** Where the traced root sits in JupyterLab's file tree ('' its root, null outside it). */
    private root: () => Promise<string | null>
  ) {
    window.addEventListener('keydown', event => this.onWindowKey(event, true), true);
    window.addEventListener('keyup', event => this.onWindowKey(event, false), true);
    window.addEventListener('blur', () => this.clearUnderline());
    // The card sits where the name was: anything that moves the page or clicks elsewhere closes it.
    const outsideCard = (event: Event) => {
      if (this.card && !(event.target instanceof Node && this.card.contains(event.target))) {
        this.hideHover();
      }
    };
    window.addEventListener('scroll', outsideCard, true);
    window.addEventListener('mousedown', outsideCard, true);
  }

  /** Modifier-click and its underline are on (settings, and jupyterlab-lsp's choice). */
  private get clicking(): boolean {
    return this.settings.click && this.lsp.click;
  }

  private get hovering(): boolean {
    return this.settings.hoverCard && this.lsp.hover;
  }

  // ---- the editor extension's hooks -------------------------------------------------------

  wantsClick(event: MouseEvent | KeyboardEvent): boolean {
    return this.clicking && modifierHeld(event, this.settings.modifier, MAC);
  }

  click(view: EditorView, word: WordAt, event: MouseEvent): void {
    this.hideHover();
    void this.goTo(view, word, 'definition');
  }

  pointer(view: EditorView, word: WordAt | null, event: MouseEvent): void {
    this.lastPointer = { view, x: event.clientX, y: event.clientY };
    this.updateUnderline(view, word, this.wantsClick(event) && this.settings.underline);
    const same = word && this.hovered && this.hovered.view === view && this.hovered.word.from === word.from;
    if (same) {
      window.clearTimeout(this.hideTimer);
      return;
    }
    this.hovered = word ? { view, word } : null;
    this.hoverWork.cancel();
    if (this.card && !(word && this.cardFor?.view === view && this.cardFor.from === word.from)) {
      if (word) {
        this.hideHover(); // another name: its own card will come
      } else {
        this.scheduleHide(); // off the name: a moment to reach the card below it
      }
    }
    if (word && this.hovering && !this.popup) {
      this.hoverWork.start(this.settings.hoverDelay, signal => this.showHover(view, word, signal));
    }
  }

  leave(view: EditorView, event: MouseEvent): void {
    if (this.lastPointer?.view === view) {
      this.lastPointer = null;
    }
    this.clearUnderline();
    this.hovered = null;
    this.hoverWork.cancel();
    if (this.card && !(event.relatedTarget instanceof Node && this.card.contains(event.relatedTarget))) {
      this.scheduleHide();
    }
  }

  key(view: EditorView, event: KeyboardEvent): boolean {
    if (!isModifierKey(event.key, this.settings.modifier, MAC)) {
      this.hideHover();
    }
    return this.runBoundCommand(event);
  }

  changed(view: EditorView): void {
    this.generation.set(view, (this.generation.get(view) ?? 0) + 1);
    this.clearUnderline();
  }

  /**
   * A key bound to a Code Trace command (Settings → Keyboard Shortcuts) runs it from inside an
   * editor even where CodeMirror binds the same key: Alt-ArrowLeft is CodeMirror's
   * cursorSyntaxLeft, which would otherwise take it first. Taking it here also stops JupyterLab
   * from running the command a second time (the event's default is prevented).
   */
  private runBoundCommand(event: KeyboardEvent): boolean {
    const keystroke = CommandRegistry.keystrokeForKeydownEvent(event);
    if (!keystroke) {
      return false;
    }
    const target = event.target instanceof Element ? event.target : null;
    for (const binding of this.app.commands.keyBindings) {
      if (!binding.command.startsWith('codetrace:') || binding.keys.length !== 1 || binding.keys[0] !== keystroke) {
        continue;
      }
      if (!target?.closest(binding.selector) || !this.app.commands.isEnabled(binding.command, binding.args)) {
        continue;
      }
      void this.app.commands.execute(binding.command, binding.args);
      return true;
    }
    return false;
  }

  // ---- where an editor is -----------------------------------------------------------------

  /** The document `view` edits: a file editor, a notebook's code cell or a library tab. */
  private locate(view: EditorView): EditorDocument | null {
    for (const widget of this.app.shell.widgets('main') as IterableIterator<any>) {
      if (!widget.node.contains(view.dom)) {
        continue;
      }
      const library = this.libraryOf.get(widget);
      if (library) {
        return { widget, path: library.file, library: library.library };
      }
      const path: string | undefined = widget.context?.path;
      if (!path) {
        return null;
      }
      if (widget.content instanceof FileEditor) {
        const text = () => (widget.context?.model?.dirty ? view.state.doc.toString() : undefined);
        return { widget, path, text };
      }
      if (widget instanceof NotebookPanel) {
        const cell = widget.content.widgets.findIndex(c => c.node.contains(view.dom));
        if (cell < 0 || widget.content.widgets[cell].model.type !== 'code') {
          return null;
        }
        // an unsaved notebook goes as its cells (sources only: outputs can be large)
        const text = () => (widget.context?.model?.dirty ? notebookText(widget) : undefined);
        return { widget, path, cell, text };
      }
      return null;
    }
    return null;
  }

  /** The server's view of a position in `doc`, or null when the document is outside the traced root. */
  private async query(doc: EditorDocument, line: number, column: number): Promise<Query | null> {
    const file = doc.library ? doc.path : fromContentsPath(await this.root(), doc.path);
    if (file === null) {
      return null;
    }
    return { file, line, column, cell: doc.cell, text: doc.text ? doc.text() : undefined };
  }

  private placeOf(doc: EditorDocument, line: number, column: number): Place {
    return { path: doc.path, line, column, cell: doc.cell ?? null, library: doc.library ?? null };
  }

  /** Where the caret is in the focused document (for the history), or null. */
  currentPlace(): Place | null {
    const view = this.caretView();
    const doc = view && this.locate(view);
    if (!view || !doc) {
      return null;
    }
    const head = view.state.selection.main.head;
    const line = view.state.doc.lineAt(head);
    return this.placeOf(doc, line.number, Array.from(line.text.slice(0, head - line.from)).length + 1);
  }

  /** The editor of the current main-area widget that holds the caret: file, active cell, library tab. */
  caretView(): EditorView | null {
    const widget: any = this.app.shell.currentWidget;
    if (!widget) {
      return null;
    }
    if (widget instanceof NotebookPanel) {
      return cmView(widget.content.activeCell?.editor);
    }
    if (widget.content instanceof FileEditor || widget.content instanceof CodeEditorWrapper) {
      return cmView(widget.content.editor);
    }
    return null;
  }

  // ---- answers ----------------------------------------------------------------------------

  private cacheKey(view: EditorView, query: Query, mode: Mode): string {
    return [mode, query.file, query.cell ?? '', query.line, query.column, this.generation.get(view) ?? 0].join('\u0000');
  }

  /**
   * The definition route's answer for a name. The hover card and the underline reuse an answer
   * for a few seconds; a click or F12 (`fresh`) always asks the server, which answers from disk.
   */
  private async lookup(view: EditorView, query: Query, mode: Mode, signal?: AbortSignal, fresh = false): Promise<Answer> {
    const key = this.cacheKey(view, query, mode);
    const cached = this.cache.get(key);
    if (!fresh && cached && performance.now() - cached.at < CACHE_MS) {
      return cached.answer;
    }
    const params = {
      file: query.file,
      line: query.line,
      column: query.column,
      cell: query.cell,
      mode: mode === 'definition' ? undefined : mode,
      ...(query.text !== undefined ? { text: query.text } : {})
    };
    const response =
      query.text !== undefined
        ? await requestAPI<any>('definition', params, { method: 'POST', signal })
        : signal
          ? await requestAPI<any>('definition', params, { signal })
          : await requestWhenIndexed<any>('definition', params);
    const answer = { status: response.status, body: response.body };
    if (response.status === 200 || response.status === 404) {
      if (this.cache.size > 500) {
        this.cache.clear();
      }
      this.cache.set(key, { at: performance.now(), answer });
    }
    return answer;
  }

  // ---- go to definition -------------------------------------------------------------------

  /** Go from the name at document offset `pos` of `view` (the caret, a right-click). */
  async goToAt(view: EditorView, pos: number, mode: Mode): Promise<void> {
    const word = wordAtPos(view, pos);
    if (!word) {
      this.say(view, pos, 'No name here to go to: put the cursor on one.');
      return;
    }
    await this.goTo(view, word, mode);
  }

  /** Look `word` up and go to what it names: straight there, or through the chooser. */
  async goTo(view: EditorView, word: WordAt, mode: Mode): Promise<void> {
    this.closePopup();
    const doc = this.locate(view);
    if (!doc) {
      return;
    }
    const query = await this.query(doc, word.line, word.column);
    if (!query) {
      this.say(view, word.from, `${doc.path} is outside the traced repository.`);
      return;
    }
    const { status, body } = await this.lookup(view, query, mode, undefined, true);
    if (body?.status !== 'found') {
      const what = status === 400 ? 'No name here to go to' : statusTitle(String(body?.status ?? 'error'));
      this.say(view, word.from, body?.message ? `${what}: ${body.message}` : what);
      return;
    }
    const from = this.placeOf(doc, word.line, word.column);
    const targets = navigationTargets(body);
    if (body.mode_resolution === 'fell_back_to_definition') {
      const kind = mode === 'declaration' ? 'declaration' : 'type definition';
      Notification.info(`${word.word} has no separate ${kind}: going to its definition.`, { autoClose: 4000 });
    }
    if (targets.length > 1) {
      this.choose(view, word, targets, target => void this.jump(from, target));
      return;
    }
    await this.jump(from, targets[0]);
  }

  private async jump(from: Place, target: Target): Promise<void> {
    this.history.record(from);
    await this.openTarget(target);
  }

  /** Open a result's location (root-relative file, or library file). */
  async openTarget(target: Target): Promise<boolean> {
    if (target.library) {
      return this.openLibrary(target.file, target.library, target.line, target.column ?? 1);
    }
    const root = await this.root();
    return this.openPlace({
      path: toContentsPath(root, target.file),
      line: target.line,
      column: target.column ?? 1,
      cell: target.cell ?? null
    });
  }

  /** Open a place (JupyterLab path or library file) with its line revealed and highlighted. */
  async openPlace(place: Place): Promise<boolean> {
    if (place.library) {
      return this.openLibrary(place.path, place.library, place.line, place.column);
    }
    const widget: any = this.docs.openOrReveal(place.path);
    if (!widget) {
      return false;
    }
    await widget.context?.ready;
    await widget.revealed;
    if (widget.content instanceof FileEditor) {
      const editor = widget.content.editor;
      const view = cmView(editor);
      if (view) {
        revealAndFlash(view, place.line, place.column);
      } else {
        editor.setCursorPosition({ line: place.line - 1, column: Math.max(place.column - 1, 0) });
      }
      editor.focus();
      return true;
    }
    if (widget instanceof NotebookPanel) {
      const notebook = widget.content;
      const index = place.cell ?? 0;
      if (index >= notebook.widgets.length) {
        return false;
      }
      notebook.activeCellIndex = index;
      await notebook.scrollToItem(index, 'center');
      const cell = notebook.widgets[index];
      await cell.ready;
      notebook.mode = 'edit';
      const view = cmView(cell.editor);
      if (view) {
        revealAndFlash(view, place.line, place.column);
      }
      cell.editor?.focus();
      return true;
    }
    return false;
  }

  /**
   * Library code (the standard library, an installed package, node_modules) in a read-only tab,
   * from the library-source route: never a file JupyterLab would let you edit or save.
   */
  async openLibrary(file: string, library: LibraryInfo, line: number, column = 1): Promise<boolean> {
    let widget = this.libraryTabs.get(file);
    if (!widget || widget.isDisposed) {
      if (!this.editors) {
        Notification.error('Library code cannot be shown: no editor services in this JupyterLab.');
        return false;
      }
      const { status, body } = await requestAPI<any>('library-source', { file });
      if (status !== 200 || typeof body?.text !== 'string') {
        Notification.error(`${file} could not be opened: ${body?.message ?? `error ${status}`}`, { autoClose: 6000 });
        return false;
      }
      const info: LibraryInfo = body.library ?? library;
      const model = new CodeEditor.Model({ mimeType: this.editors.mimeTypeService.getMimeTypeByFilePath(file) });
      model.sharedModel.setSource(body.text);
      const content = new CodeEditorWrapper({
        factory: this.editors.factoryService.newDocumentEditor,
        model,
        editorOptions: { config: { readOnly: true, lineNumbers: true } }
      });
      content.addClass('jp-CodeTrace-library-editor');
      const tab = new MainAreaWidget<CodeEditorWrapper>({ content });
      tab.id = `jp-codetrace-library-${++this.libraryCount}`;
      tab.addClass('jp-CodeTrace-library');
      tab.title.label = libraryTitle(file, info);
      tab.title.caption = `${file} from ${libraryLabel(info)}: library code, read-only`;
      tab.title.closable = true;
      tab.node.dataset.file = file;
      tab.disposed.connect(() => {
        this.libraryTabs.delete(file);
        model.dispose();
      });
      this.libraryTabs.set(file, tab);
      this.libraryOf.set(tab, { file, library: info });
      this.app.shell.add(tab, 'main');
      widget = tab;
    }
    this.app.shell.activateById(widget.id);
    await widget.revealed;
    const view = cmView(widget.content.editor);
    if (view) {
      revealAndFlash(view, line, column);
    }
    widget.content.editor.focus();
    return true;
  }

  async back(): Promise<void> {
    const place = this.history.back(this.currentPlace());
    if (place) {
      await this.openPlace(place);
    }
  }

  async forward(): Promise<void> {
    const place = this.history.forward(this.currentPlace());
    if (place) {
      await this.openPlace(place);
    }
  }

  // ---- the underline ----------------------------------------------------------------------

  private updateUnderline(view: EditorView, word: WordAt | null, wanted: boolean): void {
    if (!wanted || !word || !this.clicking) {
      this.clearUnderline();
      return;
    }
    if (this.underlined?.view === view && this.underlined.from === word.from) {
      return;
    }
    this.clearUnderline();
    this.underlineWork.start(UNDERLINE_DELAY_MS, async signal => {
      const doc = this.locate(view);
      const query = doc && (await this.query(doc, word.line, word.column));
      if (!query) {
        return;
      }
      const { body } = await this.lookup(view, query, 'definition', signal);
      if (signal.aborted || body?.status !== 'found') {
        return;
      }
      view.dispatch({ effects: setUnderline.of({ from: word.from, to: word.to }) });
      this.underlined = { view, from: word.from, to: word.to };
    });
  }

  private clearUnderline(): void {
    this.underlineWork.cancel();
    if (this.underlined) {
      const { view } = this.underlined;
      this.underlined = null;
      try {
        view.dispatch({ effects: setUnderline.of(null) });
      } catch {
        // the editor is gone
      }
    }
  }

  /** The modifier pressed or released while the pointer rests on a name. */
  private onWindowKey(event: KeyboardEvent, down: boolean): void {
    if (!isModifierKey(event.key, this.settings.modifier, MAC)) {
      return;
    }
    if (!down) {
      this.clearUnderline();
      return;
    }
    const at = this.lastPointer;
    if (at && at.view.dom.isConnected && this.settings.underline) {
      const pos = at.view.posAtCoords({ x: at.x, y: at.y });
      const word = pos === null ? null : wordAtPos(at.view, pos);
      this.updateUnderline(at.view, word, this.wantsClick(event));
    }
  }

  // ---- the hover card ---------------------------------------------------------------------

  private async showHover(view: EditorView, word: WordAt, signal: AbortSignal): Promise<void> {
    const doc = this.locate(view);
    const query = doc && (await this.query(doc, word.line, word.column));
    if (!query || signal.aborted) {
      return;
    }
    const { body } = await this.lookup(view, query, 'definition', signal);
    if (signal.aborted || body?.status !== 'found' || this.hovered?.view !== view || this.hovered.word.from !== word.from) {
      return;
    }
    const box = view.coordsAtPos(word.from, 1);
    if (!box) {
      return;
    }
    this.hideHover();
    const card = this.hoverCard(body);
    document.body.append(card);
    this.place(card, box.left, box.bottom + 2, box.top - 2);
    this.card = card;
    this.cardFor = { view, from: word.from };
  }

  private hoverCard(result: any): HTMLElement {
    const card = el('div', 'jp-CodeTrace-hover');
    card.setAttribute('role', 'tooltip');
    const head = el('div', 'jp-CodeTrace-hover-head',
      result.kind ? el('span', 'jp-CodeTrace-badge', result.kind) : null,
      el('code', 'jp-CodeTrace-hover-signature', signatureLine(result)));
    card.append(head);
    const doc = docExcerpt(result.doc);
    if (doc.text) {
      card.append(el('div', 'jp-CodeTrace-hover-doc', doc.text + (doc.more ? ' …' : '')));
    }
    const where = describeTarget({ file: result.file, line: result.line, cell: result.cell ?? null, library: result.library ?? null });
    const link = el('a', 'jp-CodeTrace-hover-where', where);
    link.setAttribute('href', '#');
    link.title = `Go to ${where}`;
    link.addEventListener('click', event => {
      event.preventDefault();
      const from = this.currentPlace();
      this.hideHover();
      const [target] = navigationTargets(result);
      if (target) {
        if (from) {
          this.history.record(from);
        }
        void this.openTarget(target);
      }
    });
    const meta = el('div', 'jp-CodeTrace-hover-meta', link);
    if (result.resolution) {
      meta.append(el('span', 'jp-CodeTrace-hover-resolution', ` · ${result.resolution}`));
    }
    card.append(meta);
    card.addEventListener('mouseenter', () => window.clearTimeout(this.hideTimer));
    card.addEventListener('mouseleave', () => this.scheduleHide());
    return card;
  }

  private scheduleHide(): void {
    window.clearTimeout(this.hideTimer);
    this.hideTimer = window.setTimeout(() => this.hideHover(), HIDE_GRACE_MS);
  }

  hideHover(): void {
    window.clearTimeout(this.hideTimer);
    this.card?.remove();
    this.card = null;
    this.cardFor = null;
  }

  /** Put a floating element at (x, below) or, without room underneath, above `above`. */
  private place(node: HTMLElement, x: number, below: number, above: number): void {
    node.style.left = '0px';
    node.style.top = '0px';
    const { width, height } = node.getBoundingClientRect();
    const left = Math.max(4, Math.min(x, window.innerWidth - width - 4));
    const top = below + height > window.innerHeight - 4 && above - height > 4 ? above - height : below;
    node.style.left = `${left}px`;
    node.style.top = `${top}px`;
  }

  // ---- the chooser and messages -----------------------------------------------------------

  /** Several places a name may lead to: a small list at the name, arrows and Enter or a click. */
  private choose(view: EditorView, word: WordAt, targets: Target[], pick: (target: Target) => void): void {
    const list = el('div', 'jp-CodeTrace-chooser');
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', `Definitions of ${word.word}`);
    list.tabIndex = 0;
    const title = el('div', 'jp-CodeTrace-chooser-title', `${targets.length} definitions of ${word.word}`);
    list.append(title);
    let active = 0;
    const options = targets.map((target, index) => {
      const option = el('div', 'jp-CodeTrace-chooser-option',
        target.kind ? el('span', 'jp-CodeTrace-badge', target.kind) : null,
        el('span', 'jp-CodeTrace-chooser-name', target.name ?? word.word),
        el('span', 'jp-CodeTrace-chooser-where', describeTarget(target)));
      option.setAttribute('role', 'option');
      option.id = `jp-codetrace-chooser-${index}`;
      option.addEventListener('mousedown', event => event.preventDefault());
      option.addEventListener('click', () => choose(index));
      list.append(option);
      return option;
    });
    const highlight = (index: number) => {
      active = (index + options.length) % options.length;
      options.forEach((option, i) => {
        option.classList.toggle('jp-mod-active', i === active);
        option.setAttribute('aria-selected', String(i === active));
      });
      list.setAttribute('aria-activedescendant', options[active].id);
    };
    const choose = (index: number) => {
      this.closePopup();
      pick(targets[index]);
    };
    list.addEventListener('keydown', event => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        highlight(active + (event.key === 'ArrowDown' ? 1 : -1));
      } else if (event.key === 'Enter') {
        choose(active);
      } else if (event.key === 'Escape') {
        this.closePopup();
        view.focus();
      } else {
        return;
      }
      event.preventDefault();
      event.stopPropagation();
    });
    highlight(0);
    this.openPopup(view, word.from, list);
    list.focus();
  }

  /** A short message at a position of the editor (nothing to go to, and why). */
  private say(view: EditorView, pos: number, message: string): void {
    const note = el('div', 'jp-CodeTrace-editor-message', message);
    note.setAttribute('role', 'status');
    this.openPopup(view, pos, note);
    const shown = note;
    window.setTimeout(() => {
      if (this.popup === shown) {
        this.closePopup();
      }
    }, 4000);
  }

  private openPopup(view: EditorView, pos: number, node: HTMLElement): void {
    this.closePopup();
    this.hideHover();
    document.body.append(node);
    const box = view.coordsAtPos(pos, 1) ?? { left: 100, top: 100, bottom: 100 };
    this.place(node, box.left, box.bottom + 2, box.top - 2);
    const outside = (event: Event) => {
      if (!(event.target instanceof Node && node.contains(event.target))) {
        this.closePopup();
      }
    };
    const key = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        this.closePopup();
      }
    };
    window.addEventListener('mousedown', outside, true);
    window.addEventListener('keydown', key, true);
    view.scrollDOM.addEventListener('scroll', outside, { passive: true });
    this.popup = node;
    this.popupClose = () => {
      window.removeEventListener('mousedown', outside, true);
      window.removeEventListener('keydown', key, true);
      view.scrollDOM.removeEventListener('scroll', outside);
      node.remove();
    };
  }

  closePopup(): void {
    const close = this.popupClose;
    this.popup = null;
    this.popupClose = null;
    close?.();
  }
}

/** The notebook's current cells as an nbformat document without outputs (what the engine reads). */
function notebookText(panel: NotebookPanel): string {
  const cells = panel.content.widgets.map(cell => {
    const type = cell.model.type;
    const source = cell.model.sharedModel.getSource();
    return type === 'code'
      ? { cell_type: type, source, metadata: {}, outputs: [], execution_count: null }
      : { cell_type: type, source, metadata: {} };
  });
  return JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 });
}

