/**
 * The CodeMirror 6 side of editor navigation, installed in every JupyterLab editor (file
 * editors, notebook cells, the read-only library tabs) through the editor extension registry:
 * modifier-click, the underline of what a modifier-hover can reach, the hover card's pointer
 * tracking, the brief highlight of a line navigation landed on, and the keys of Code Trace
 * commands taken before CodeMirror's own keymap. What those gestures do lives in navigator.ts.
 */
import { Extension, Prec, StateEffect, StateField } from '@codemirror/state';
import { Decoration, DecorationSet, EditorView, ViewPlugin, ViewUpdate } from '@codemirror/view';

import { codePointColumn, utf16Column } from './navmodel';
import { wordAt } from './view';

/** A name in an editor: its document offsets and where it starts in its line (1-based, code points). */
export interface WordAt {
  from: number;
  to: number;
  word: string;
  line: number;
  column: number;
}

/** What the extension asks of the navigator. */
export interface EditorHooks {
  /** Modifier-click on `word`: go to its definition. */
  click(view: EditorView, word: WordAt, event: MouseEvent): void;
  /** Whether the event holds the navigation modifier (and clicks are on). */
  wantsClick(event: MouseEvent | KeyboardEvent): boolean;
  /** The pointer rests on `word` (or left any word: null), with or without the modifier. */
  pointer(view: EditorView, word: WordAt | null, event: MouseEvent): void;
  /** The pointer left the editor. */
  leave(view: EditorView, event: MouseEvent): void;
  /** A keydown in the editor: true when a Code Trace command took it. */
  key(view: EditorView, event: KeyboardEvent): boolean;
  /** The document changed (answers cached for it are stale). */
  changed(view: EditorView): void;
}

/** The name at document offset `pos`, or null (blanks, keywords are still names: the server decides). */
export function wordAtPos(view: EditorView, pos: number): WordAt | null {
  const line = view.state.doc.lineAt(pos);
  const found = wordAt(line.text, codePointColumn(line.text, pos - line.from));
  if (!found) {
    return null;
  }
  const from = line.from + utf16Column(line.text, found.start);
  return { from, to: from + found.word.length, word: found.word, line: line.number, column: found.start + 1 };
}

/** The name under the pointer, only when the pointer is on its letters (not past the line's end). */
export function wordAtPointer(view: EditorView, x: number, y: number): WordAt | null {
  const pos = view.posAtCoords({ x, y });
  if (pos === null) {
    return null;
  }
  const word = wordAtPos(view, pos);
  if (!word) {
    return null;
  }
  const start = view.coordsAtPos(word.from, 1);
  const end = view.coordsAtPos(word.to, -1);
  if (!start || !end || x < start.left - 1 || x > end.right + 1 || y < start.top - 1 || y > end.bottom + 1) {
    return null;
  }
  return word;
}

/** Underline a range (what a modifier-click would follow), or nothing. */
export const setUnderline = StateEffect.define<{ from: number; to: number } | null>();
/** Highlight a line for a moment (where navigation landed), or nothing. */
export const setFlash = StateEffect.define<number | null>();

const underlineMark = Decoration.mark({ class: 'jp-CodeTrace-navigable' });
// Two alike highlights taken in turn: landing on the same line again restarts the animation.
const flashLines = [
  Decoration.line({ class: 'jp-CodeTrace-flash jp-CodeTrace-flash-a' }),
  Decoration.line({ class: 'jp-CodeTrace-flash jp-CodeTrace-flash-b' })
];
let flashes = 0;

export const underlineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, transaction) {
    value = value.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(setUnderline)) {
        value = effect.value && effect.value.to > effect.value.from
          ? Decoration.set([underlineMark.range(effect.value.from, effect.value.to)])
          : Decoration.none;
      }
    }
    return value;
  },
  provide: field => EditorView.decorations.from(field)
});

export const flashField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, transaction) {
    value = value.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(setFlash)) {
        value = effect.value === null ? Decoration.none : Decoration.set([flashLines[++flashes % 2].range(effect.value)]);
      }
    }
    return value;
  },
  provide: field => EditorView.decorations.from(field)
});

const FLASH_MS = 1500;

/**
 * Put the cursor at 1-based `line`/`column` (code points), scroll it to the middle of the view
 * and highlight its line for a moment. Works in any CodeMirror view, with or without the
 * extension installed (the fields are added when missing).
 */
export function revealAndFlash(view: EditorView, line: number, column = 1): void {
  const doc = view.state.doc;
  const target = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const pos = target.from + Math.min(utf16Column(target.text, Math.max(column - 1, 0)), target.length);
  const effects: StateEffect<unknown>[] = [];
  if (view.state.field(flashField, false) === undefined) {
    effects.push(StateEffect.appendConfig.of([flashField, underlineField]));
  }
  if (effects.length) {
    view.dispatch({ effects });
  }
  view.dispatch({
    selection: { anchor: pos },
    effects: [EditorView.scrollIntoView(pos, { y: 'center' }), setFlash.of(target.from)]
  });
  const timers = flashTimers.get(view);
  if (timers !== undefined) {
    window.clearTimeout(timers);
  }
  flashTimers.set(view, window.setTimeout(() => {
    flashTimers.delete(view);
    try {
      view.dispatch({ effects: setFlash.of(null) });
    } catch {
      // the editor was closed meanwhile
    }
  }, FLASH_MS));
}

const flashTimers = new WeakMap<EditorView, number>();

/** The extension for one editor, calling `hooks` (one navigator serves every editor). */
export function navigationExtension(hooks: EditorHooks): Extension {
  const pointer = ViewPlugin.fromClass(
    class {
      constructor(readonly view: EditorView) {}

      update(update: ViewUpdate): void {
        if (update.docChanged) {
          hooks.changed(update.view);
        }
      }
    },
    {
      eventHandlers: {
        mousemove(event: MouseEvent, view: EditorView) {
          hooks.pointer(view, wordAtPointer(view, event.clientX, event.clientY), event);
          return false;
        },
        mouseleave(event: MouseEvent, view: EditorView) {
          hooks.leave(view, event);
          return false;
        }
      }
    }
  );
  return [
    underlineField,
    flashField,
    pointer,
    // Ahead of CodeMirror's own handlers: a modifier-click must not add a cursor (Ctrl-click)
    // or start a rectangular selection (Alt-drag), and keys bound to Code Trace commands must
    // reach them even where CodeMirror binds the same keys (Alt-ArrowLeft: cursorSyntaxLeft).
    Prec.highest(
      EditorView.domEventHandlers({
        mousedown(event: MouseEvent, view: EditorView) {
          if (event.button !== 0 || !hooks.wantsClick(event)) {
            return false;
          }
          const word = wordAtPointer(view, event.clientX, event.clientY);
          if (!word) {
            return false;
          }
          hooks.click(view, word, event);
          return true; // handled: CodeMirror prevents the default and does nothing more
        },
        keydown(event: KeyboardEvent, view: EditorView) {
          return hooks.key(view, event);
        }
      })
    )
  ];
}
