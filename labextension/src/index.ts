/**
 * Wiring only: the side panel, editor navigation (navigator.ts, editor.ts), their commands, the
 * editor context menu and the settings (shortcuts and options: schema/plugin.json).
 */
import { EditorView } from '@codemirror/view';
import { ILabShell, JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { IEditorServices } from '@jupyterlab/codeeditor';
import { EditorExtensionRegistry, IEditorExtensionRegistry } from '@jupyterlab/codemirror';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { FileEditor } from '@jupyterlab/fileeditor';
import { NotebookPanel } from '@jupyterlab/notebook';
import { Contents } from '@jupyterlab/services';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { searchIcon } from '@jupyterlab/ui-components';

import { navigationExtension } from './editor';
import { lspPolicy } from './navmodel';
import { DEFAULT_SETTINGS, Mode, NavSettings, Navigator } from './navigator';
import { CodeTracePanel, EditorSource, Location } from './panel';
import { wordAt } from './view';

const OPEN = 'codetrace:open';
const TRACE_CURSOR = 'codetrace:trace-under-cursor';
const TRACE_POINTER = 'codetrace:trace-at-pointer';
const GO_TO: Record<Mode, string> = {
  definition: 'codetrace:go-to-definition',
  declaration: 'codetrace:go-to-declaration',
  type_definition: 'codetrace:go-to-type-definition'
};
const GO_TO_LABEL: Record<Mode, string> = {
  definition: 'Go to Definition',
  declaration: 'Go to Declaration',
  type_definition: 'Go to Type Definition'
};
const FIND_REFERENCES = 'codetrace:find-references';
const BACK = 'codetrace:navigate-back';
const FORWARD = 'codetrace:navigate-forward';
const PLUGIN_ID = 'jupyter_codetrace:plugin';

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

/** The editor and the document offset under the last right-click, for the context menu's entries. */
function pointerView(): { view: EditorView; pos: number } | null {
  if (!pointer) {
    return null;
  }
  const host = pointer.target.closest('.cm-editor');
  const view = host instanceof HTMLElement ? EditorView.findFromDOM(host) : null;
  const pos = view?.posAtCoords({ x: pointer.x, y: pointer.y });
  return view && pos !== null && pos !== undefined ? { view, pos } : null;
}

/** The settings as navigation reads them; anything missing or of the wrong type keeps its default. */
function readSettings(composite: Record<string, any>): NavSettings {
  const pick = <K extends keyof NavSettings>(key: K, type: string): NavSettings[K] =>
    typeof composite[key] === type ? composite[key] : DEFAULT_SETTINGS[key];
  return {
    click: pick('click', 'boolean'),
    underline: pick('underline', 'boolean'),
    hoverCard: pick('hoverCard', 'boolean'),
    hoverDelay: Math.max(50, pick('hoverDelay', 'number')),
    modifier: composite.modifier === 'Alt' ? 'Alt' : 'Accel',
    jupyterlabLsp: composite.jupyterlabLsp === 'both' ? 'both' : 'defer'
  };
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description: 'Code Trace: search symbols, definitions, references, call trees and paths; navigation in the editor.',
  autoStart: true,
  requires: [ILabShell, IDocumentManager],
  optional: [ICommandPalette, IEditorExtensionRegistry, IEditorServices, ISettingRegistry],
  activate: (
    app: JupyterFrontEnd,
    shell: ILabShell,
    docs: IDocumentManager,
    palette: ICommandPalette | null,
    extensions: IEditorExtensionRegistry | null,
    editors: IEditorServices | null,
    settingRegistry: ISettingRegistry | null
  ) => {
    const open = async (location: Location) => {
      if (location.library) {
        // Library code: a read-only tab from the library-source route, never the file browser.
        await navigation.openLibrary(location.file, location.library, location.line, location.column ?? 1);
        return;
      }
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

    // Editor navigation: one navigator, a CodeMirror extension in every editor JupyterLab makes.
    const navigation = new Navigator(app, docs, editors, () => panel.contentsRoot());
    if (extensions) {
      extensions.addExtension({
        name: 'jupyter_codetrace:navigation',
        factory: () => EditorExtensionRegistry.createImmutableExtension(navigationExtension(navigation))
      });
    }
    const applySettings = (composite: Record<string, any>) => {
      navigation.settings = readSettings(composite);
      navigation.lsp = lspPolicy(app.listPlugins?.() ?? [], navigation.settings.jupyterlabLsp);
    };
    applySettings({});
    if (settingRegistry) {
      void settingRegistry
        .load(PLUGIN_ID)
        .then(settings => {
          applySettings(settings.composite as Record<string, any>);
          settings.changed.connect(() => applySettings(settings.composite as Record<string, any>));
        })
        .catch(error => console.warn('Code Trace: settings could not be loaded, defaults apply.', error));
    }
    // jupyterlab-lsp activates its plugins on its own schedule: look again once everything started.
    void app.restored.then(() => {
      navigation.lsp = lspPolicy(app.listPlugins?.() ?? [], navigation.settings.jupyterlabLsp);
    });

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
    for (const mode of Object.keys(GO_TO) as Mode[]) {
      app.commands.addCommand(GO_TO[mode], {
        label: GO_TO_LABEL[mode],
        caption: `${GO_TO_LABEL[mode]} of the name under the cursor (or the right-clicked one)`,
        execute: async args => {
          // From the context menu: the right-clicked name; from a key or the palette: the caret's.
          const at = args?.pointer ? pointerView() : null;
          const view = at?.view ?? navigation.caretView();
          if (view) {
            await navigation.goToAt(view, at?.pos ?? view.state.selection.main.head, mode);
          }
        }
      });
    }
    app.commands.addCommand(FIND_REFERENCES, {
      label: 'Find References',
      caption: 'Show the references of the name under the cursor in the Code Trace panel',
      execute: async args => {
        const found = args?.pointer ? pointerWord(app) : cursorLocation(app);
        if (!found) {
          return;
        }
        shell.activateById(panel.id);
        await panel.showReferencesAt(found.location, found.source);
      }
    });
    app.commands.addCommand(BACK, {
      label: 'Navigate Back',
      caption: 'Return to where the last Go to Definition started',
      execute: () => navigation.back()
    });
    app.commands.addCommand(FORWARD, {
      label: 'Navigate Forward',
      caption: 'Go forward again after Navigate Back',
      execute: () => navigation.forward()
    });
    // Capture phase on window: recorded before JupyterLab opens its menu and asks for the label.
    window.addEventListener(
      'contextmenu',
      event => {
        pointer = event.target instanceof Element ? { x: event.clientX, y: event.clientY, target: event.target } : null;
      },
      true
    );
    // Key bindings live in schema/plugin.json (Accel-Shift-O, Accel-Shift-Y, F12, Shift-F12,
    // Alt-ArrowLeft/Right): users can remap them in Settings → Keyboard Shortcuts, and tests check
    // them against JupyterLab's own keymap.
    for (const selector of ['.jp-FileEditor', '.jp-Notebook .jp-Cell']) {
      app.contextMenu.addItem({ command: TRACE_POINTER, selector, rank: 1 });
      app.contextMenu.addItem({ command: GO_TO.definition, selector, rank: 1, args: { pointer: true } });
      app.contextMenu.addItem({ command: GO_TO.declaration, selector, rank: 1, args: { pointer: true } });
      app.contextMenu.addItem({ command: GO_TO.type_definition, selector, rank: 1, args: { pointer: true } });
      app.contextMenu.addItem({ command: FIND_REFERENCES, selector, rank: 1, args: { pointer: true } });
    }
    // Library tabs are read-only code: going further from there works, tracing in the panel does not.
    for (const mode of Object.keys(GO_TO) as Mode[]) {
      app.contextMenu.addItem({ command: GO_TO[mode], selector: '.jp-CodeTrace-library', rank: 1, args: { pointer: true } });
    }
    palette?.addItem({ command: OPEN, category: 'Code Trace' });
    palette?.addItem({ command: TRACE_CURSOR, category: 'Code Trace' });
    for (const command of [GO_TO.definition, GO_TO.declaration, GO_TO.type_definition, FIND_REFERENCES, BACK, FORWARD]) {
      palette?.addItem({ command, category: 'Code Trace' });
    }
  }
};

export default plugin;
