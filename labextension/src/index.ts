/** Wiring only: the side panel, its commands and the editor context menu (shortcuts: schema/plugin.json). */
import { ILabShell, JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { FileEditor } from '@jupyterlab/fileeditor';
import { NotebookPanel } from '@jupyterlab/notebook';
import { Contents } from '@jupyterlab/services';
import { searchIcon } from '@jupyterlab/ui-components';

import { CodeTracePanel, EditorSource, Location } from './panel';
import { wordAt } from './view';

const OPEN = 'codetrace:open';
const TRACE_CURSOR = 'codetrace:trace-under-cursor';
const TRACE_POINTER = 'codetrace:trace-at-pointer';

/** Where the last right-click happened: the context menu traces that word, not the caret's. */
let pointer: { x: number; y: number; target: Element } | null = null;

/** A traced position, and the document it is in. */
interface Traced {
  location: Location;
  source: EditorSource;
}

/**
 * The code of a document as the server indexes it: a file's text, or a notebook's cells (each
 * code cell's source; other cells count only by their place, since they shift cell numbers).
 */
type Code = string[];

function lines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

function joined(source: unknown): string {
  return Array.isArray(source) ? source.join('') : typeof source === 'string' ? source : '';
}

/** The saved code, from the contents service (what the server reads too). */
function savedCode(model: Contents.IModel): Code | null {
  if (model.type === 'notebook') {
    const cells: any[] = model.content?.cells ?? [];
    return cells.map(cell => (cell.cell_type === 'code' ? joined(cell.source) : `(${cell.cell_type})`));
  }
  return model.format === 'text' && typeof model.content === 'string' ? [model.content] : null;
}

/** The code the editor holds now, in the same shape. */
function currentCode(widget: any): Code {
  if (widget instanceof NotebookPanel) {
    return widget.content.widgets.map(cell =>
      cell.model.type === 'code' ? cell.model.sharedModel.getSource() : `(${cell.model.type})`);
  }
  return [widget.content.editor.model.sharedModel.getSource()];
}

/**
 * The document of `widget` as the panel needs it: whether its code differs from the saved file
 * (and at the traced line), and how to save it. JupyterLab marks a notebook dirty for a kernel
 * or metadata change too: only a difference in the code counts.
 */
function editorSource(app: JupyterFrontEnd, widget: any, location: Location): EditorSource {
  const context = widget.context;
  return {
    dirty: Boolean(context?.model?.dirty),
    compare: async () => {
      const saved = savedCode(await app.serviceManager.contents.get(context.path, { content: true }));
      const current = currentCode(widget);
      if (saved === null) {
        return { edited: true, lineEdited: true };
      }
      const unify = (code: Code) => code.map(text => lines(text).join('\n'));
      const [was, now] = [unify(saved), unify(current)];
      const edited = was.length !== now.length || was.some((text, index) => text !== now[index]);
      const at = location.cell ?? 0;
      const line = (code: string[]) => (at < code.length ? lines(code[at])[location.line - 1] : undefined);
      return { edited, lineEdited: line(was) !== line(now) };
    },
    save: () => context.save()
  };
}

function cursorLocation(app: JupyterFrontEnd): Traced | null {
  const widget = app.shell.currentWidget as any;
  if (!widget) {
    return null;
  }
  const path: string | undefined = widget.context?.path;
  if (widget.content instanceof FileEditor && path) {
    const editor = widget.content.editor;
    const position = editor.getCursorPosition();
    const location = { file: path, line: position.line + 1, column: position.column + 1 };
    return { location, source: editorSource(app, widget, location) };
  }
  if (widget instanceof NotebookPanel && path) {
    const notebook = widget.content;
    const cell = notebook.activeCell;
    if (!cell?.editor) {
      return null;
    }
    const position = cell.editor.getCursorPosition();
    const location = { file: path, line: position.line + 1, column: position.column + 1, cell: notebook.activeCellIndex };
    return { location, source: editorSource(app, widget, location) };
  }
  return null;
}

/** The word under the last right-click in an editor or a notebook cell, and its location. */
function pointerWord(app: JupyterFrontEnd): { word: string; location: Location; source: EditorSource } | null {
  if (!pointer) {
    return null;
  }
  const { x, y, target } = pointer;
  for (const widget of app.shell.widgets('main') as IterableIterator<any>) {
    if (!widget.node.contains(target) || !widget.context?.path) {
      continue;
    }
    let editor: FileEditor['editor'] | null | undefined = null;
    let cell: number | undefined;
    if (widget.content instanceof FileEditor) {
      editor = widget.content.editor;
    } else if (widget instanceof NotebookPanel) {
      cell = widget.content.widgets.findIndex(c => c.node.contains(target));
      editor = cell >= 0 ? widget.content.widgets[cell].editor : null;
    }
    const position = editor?.getPositionForCoordinate({ left: x, right: x, top: y, bottom: y });
    if (!editor || !position) {
      return null;
    }
    const found = wordAt(editor.getLine(position.line) ?? '', position.column);
    if (!found) {
      return null;
    }
    const location = { file: widget.context.path, line: position.line + 1, column: found.start + 1, cell };
    return { word: found.word, location, source: editorSource(app, widget, location) };
  }
  return null;
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter_codetrace:plugin',
  description: 'Code Trace: search symbols, definitions, references, call trees and paths.',
  autoStart: true,
  requires: [ILabShell, IDocumentManager],
  optional: [ICommandPalette],
  activate: (app: JupyterFrontEnd, shell: ILabShell, docs: IDocumentManager, palette: ICommandPalette | null) => {
    const open = async (location: Location) => {
      const widget: any = docs.openOrReveal(location.file);
      if (!widget) {
        return;
      }
      await widget.context?.ready;
      await widget.revealed;
      if (widget.content instanceof FileEditor) {
        const editor = widget.content.editor;
        editor.setCursorPosition({ line: location.line - 1, column: Math.max((location.column ?? 1) - 1, 0) });
        editor.revealPosition?.({ line: location.line - 1, column: 0 });
        editor.focus();
      } else if (widget instanceof NotebookPanel && location.cell !== undefined && location.cell !== null) {
        widget.content.activeCellIndex = location.cell;
        const cell = widget.content.activeCell;
        cell?.editor?.setCursorPosition({ line: location.line - 1, column: Math.max((location.column ?? 1) - 1, 0) });
        await widget.content.scrollToItem(location.cell);
      }
    };
    const panel = new CodeTracePanel(location => void open(location));
    panel.title.icon = searchIcon;
    shell.add(panel, 'left', { rank: 650 });

    app.commands.addCommand(OPEN, {
      label: 'Code Trace: Open Panel',
      execute: () => {
        shell.activateById(panel.id);
        panel.focusSearch();
      }
    });
    app.commands.addCommand(TRACE_CURSOR, {
      label: 'Trace Symbol Under Cursor',
      execute: async () => {
        const traced = cursorLocation(app);
        if (!traced) {
          return;
        }
        shell.activateById(panel.id);
        await panel.showDefinitionAt(traced.location, traced.source);
      }
    });
    app.commands.addCommand(TRACE_POINTER, {
      label: () => {
        const found = pointerWord(app);
        return found ? `Trace ${found.word}` : 'Trace Symbol';
      },
      caption: 'Show the right-clicked name in the Code Trace panel',
      isEnabled: () => pointerWord(app) !== null,
      execute: async () => {
        const found = pointerWord(app);
        if (!found) {
          return;
        }
        shell.activateById(panel.id);
        await panel.showDefinitionAt(found.location, found.source);
      }
    });
    // Capture phase on window: recorded before JupyterLab opens its menu and asks for the label.
    window.addEventListener(
      'contextmenu',
      event => {
        pointer = event.target instanceof Element ? { x: event.clientX, y: event.clientY, target: event.target } : null;
      },
      true
    );
    // Key bindings live in schema/plugin.json (Accel-Shift-O, Accel-Shift-Y): users can remap them
    // in Settings → Keyboard Shortcuts, and tests check them against JupyterLab's own keymap.
    app.contextMenu.addItem({ command: TRACE_POINTER, selector: '.jp-FileEditor', rank: 1 });
    app.contextMenu.addItem({ command: TRACE_POINTER, selector: '.jp-Notebook .jp-Cell', rank: 1 });
    palette?.addItem({ command: OPEN, category: 'Code Trace' });
    palette?.addItem({ command: TRACE_CURSOR, category: 'Code Trace' });
  }
};

export default plugin;
