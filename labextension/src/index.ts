/** Wiring only: the side panel, its commands and the editor context menu (shortcuts: schema/plugin.json). */
import { ILabShell, JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { FileEditor } from '@jupyterlab/fileeditor';
import { NotebookPanel } from '@jupyterlab/notebook';
import { searchIcon } from '@jupyterlab/ui-components';

import { CodeTracePanel, Location } from './panel';

const OPEN = 'codetrace:open';
const TRACE_CURSOR = 'codetrace:trace-under-cursor';

function cursorLocation(app: JupyterFrontEnd): Location | null {
  const widget = app.shell.currentWidget as any;
  if (!widget) {
    return null;
  }
  const path: string | undefined = widget.context?.path;
  if (widget.content instanceof FileEditor && path) {
    const position = widget.content.editor.getCursorPosition();
    return { file: path, line: position.line + 1, column: position.column + 1 };
  }
  if (widget instanceof NotebookPanel && path) {
    const notebook = widget.content;
    const cell = notebook.activeCell;
    if (!cell) {
      return null;
    }
    const position = cell.editor?.getCursorPosition() ?? { line: 0, column: 0 };
    return { file: path, line: position.line + 1, column: position.column + 1, cell: notebook.activeCellIndex };
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
        const location = cursorLocation(app);
        if (!location) {
          return;
        }
        shell.activateById(panel.id);
        await panel.showDefinitionAt(location);
      }
    });
    // Key bindings live in schema/plugin.json (Accel-Shift-O, Accel-Shift-Y): users can remap them
    // in Settings → Keyboard Shortcuts, and tests check them against JupyterLab's own keymap.
    app.contextMenu.addItem({ command: TRACE_CURSOR, selector: '.jp-FileEditor', rank: 1 });
    app.contextMenu.addItem({ command: TRACE_CURSOR, selector: '.jp-Notebook .jp-Cell', rank: 1 });
    palette?.addItem({ command: OPEN, category: 'Code Trace' });
    palette?.addItem({ command: TRACE_CURSOR, category: 'Code Trace' });
  }
};

export default plugin;
