/**
 * The "Code Trace" side panel: symbol search, the symbol view (definition card, references,
 * call trees, types, paths diagram) and the index status. Plain DOM in a Lumino widget; every
 * answer comes from the REST routes (no resolution logic here).
 */
import { Message } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

import { showDiagram } from './diagram';
import { renderDoc } from './doc';
import { pageInto } from './pager';
import { Match, SymbolPicker } from './picker';
import { requestAPI, requestWhenIndexed } from './request';
import {
  Location,
  describeLocation,
  exactMatch,
  fromContentsPath,
  groupByFile,
  matchSymbol,
  nameSpan,
  statusTitle,
  suggestionsTitle,
  toContentsPath,
  waitingMessage
} from './view';
import { Definition, Graph, Trace } from './types';
import { libraryLabel } from './navmodel';

export type { Location };

export type Opener = (location: Location) => void;

/**
 * The document a cursor position comes from, as JupyterLab holds it: the panel answers from
 * the saved file (the server reads the disk), so it must know when the editor differs from it.
 */
export interface EditorSource {
  /** JupyterLab marks the document dirty (a notebook also for kernel or metadata changes). */
  dirty: boolean;
  /** Compare the editor's code with the saved file's: any difference, and one at the traced line. */
  compare: () => Promise<{ edited: boolean; lineEdited: boolean }>;
  /** Save the document through JupyterLab, as Ctrl-S does. */
  save: () => Promise<void>;
}

const SAVE_KEYS = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘S' : 'Ctrl-S';

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') {
      node.className = value;
    } else {
      node.setAttribute(key, value);
    }
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child);
    }
  }
  return node;
}

const HIDE_TESTS_KEY = 'jupyter_codetrace:hide-tests';

function baseName(path: string): string {
  return path.split('/').pop() ?? path;
}

function readFlag(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
}

export class CodeTracePanel extends Widget {
  private searchInput: HTMLInputElement;
  private results: HTMLUListElement;
  private picker: SymbolPicker;
  private announce: HTMLDivElement;
  private view: HTMLDivElement;
  private status: HTMLDivElement;
  private hideTests = readFlag(HIDE_TESTS_KEY);
  private shown = 0; // which showSymbol/showDefinitionAt call the view belongs to
  private contentsPath: string | null = ''; // the traced root in JupyterLab's file tree
  private statusReady: Promise<void>;
  private statusPolls = 0; // status requests while indexing (the delay grows with them)
  private pollWhenShown = false; // an indexing status check waits for the panel to be shown

  constructor(private open: Opener) {
    super();
    this.id = 'jp-codetrace-panel';
    this.addClass('jp-CodeTrace');
    this.title.caption = 'Code Trace';
    this.status = el('div', { class: 'jp-CodeTrace-status', role: 'status', 'aria-live': 'polite' });
    this.searchInput = el('input', {
      class: 'jp-CodeTrace-search jp-mod-styled',
      type: 'search',
      placeholder: 'Search symbols…',
      'aria-label': 'Search symbols'
    });
    this.results = el('ul', { class: 'jp-CodeTrace-results', 'aria-label': 'Matching symbols' });
    this.picker = new SymbolPicker({
      input: this.searchInput,
      list: this.results,
      limit: 30,
      onPick: match => void this.showSymbol(matchSymbol(match), match.file),
      // Enter in the search box opens the best match, as in any symbol search.
      onEnter: matches => matches[0] ?? null,
      onMessage: message => {
        if (message) {
          this.results.replaceChildren(el('li', { class: 'jp-CodeTrace-empty', role: 'option' }, message));
        }
        const count = this.picker?.matches.length ?? 0;
        this.announce.textContent = message ?? `${count} matching symbol${count === 1 ? '' : 's'}`;
      }
    });
    // Screen readers hear how many symbols matched (the list itself is not a live region).
    this.announce = el('div', { class: 'jp-CodeTrace-sr-only', 'aria-live': 'polite' });
    this.view = el('div', { class: 'jp-CodeTrace-view', 'aria-label': 'Symbol view' });
    this.node.append(this.status, this.searchInput, this.announce, this.results, this.view);
    this.statusReady = this.refreshStatus();
  }

  /** Index status: a progress bar while indexing, counts when done, errors visible. */
  async refreshStatus(): Promise<void> {
    try {
      const { body } = await requestAPI<any>('status');
      this.contentsPath = body.contents_path ?? null;
      this.status.replaceChildren();
      if (body.state === 'indexing' || body.state === 'idle') {
        const bar = el('progress', { max: String(body.total || 1), value: String(body.done || 0) });
        this.status.append(`Indexing… ${body.done}/${body.total || '?'} `, bar);
        // asked again while indexing only, less often as it goes on, and not while the panel is hidden
        this.statusPolls += 1;
        const delay = Math.min(1000 * 2 ** Math.floor(this.statusPolls / 5), 10_000);
        window.setTimeout(() => void (this.isVisible ? this.refreshStatus() : this.refreshWhenShown()), delay);
      } else if (body.state === 'error') {
        this.status.append(el('span', { class: 'jp-CodeTrace-error' }, `Indexing failed: ${body.error}`));
      } else {
        const languages = Object.entries(body.languages ?? {})
          .map(([name, count]) => `${name} ${count}`)
          .join(' · ');
        const where = this.contentsPath ? ` in ${this.contentsPath}/` : '';
        this.status.append(`${body.files} files indexed${where} (${languages})`);
      }
    } catch (error) {
      this.status.textContent = `Code Trace server extension unavailable: ${error}`;
    }
  }

  /**
   * Open a result's location: its file is relative to the traced root, not to JupyterLab's; a
   * library file (with `library`) is no file of JupyterLab's at all and goes as the result names it.
   */
  private openAt(location: Location): void {
    this.open(location.library ? location : { ...location, file: toContentsPath(this.contentsPath, location.file) });
  }

  /** Where the traced root sits in JupyterLab's file tree ('' its root, null outside it). */
  async contentsRoot(): Promise<string | null> {
    await this.statusReady;
    return this.contentsPath;
  }

  /**
   * The references of the name at a cursor position (Shift-F12 in an editor): the symbol view
   * with its references open and in sight, the focus on the first one.
   */
  async showReferencesAt(where: Location, source?: EditorSource): Promise<void> {
    await this.showDefinitionAt(where, source);
    const refs = this.view.querySelector<HTMLDetailsElement>('.jp-CodeTrace-refs');
    if (!refs) {
      return;
    }
    refs.open = true;
    refs.scrollIntoView({ block: 'start' });
    (refs.querySelector<HTMLElement>('.jp-CodeTrace-ref a') ?? refs.querySelector<HTMLElement>('summary'))?.focus();
  }

  focusSearch(): void {
    this.searchInput.focus();
  }

  /** Shown from its sidebar tab, the shortcut or the palette: ready to type a name. */
  /** Check the index status once the panel is shown again (it waits while hidden). */
  private refreshWhenShown(): void {
    this.pollWhenShown = true;
  }

  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    if (this.pollWhenShown) {
      this.pollWhenShown = false;
      void this.refreshStatus();
    }
  }

  protected onActivateRequest(msg: Message): void {
    super.onActivateRequest(msg);
    this.focusSearch();
  }

  search(query: string): Promise<void> {
    return this.picker.search(query);
  }

  /** The symbol view: definition card, references, call trees, types, paths. */
  async showSymbol(symbol: string, file?: string, note?: HTMLElement): Promise<void> {
    const sequence = ++this.shown;
    const loading = el('div', { class: 'jp-CodeTrace-loading' }, `Tracing ${symbol}…`);
    this.view.replaceChildren(loading);
    let answer;
    try {
      answer = await requestWhenIndexed<Trace & any>(
        'trace',
        { symbol, file, references: true, calls: true, types: true },
        this.waitOptions(sequence, loading, 'tracing')
      );
    } catch (error) {
      this.renderFailure(sequence, `Tracing ${symbol}`, error);
      return;
    }
    const { body } = answer;
    if (sequence === this.shown) {
      this.renderTrace(body);
      if (note) {
        this.view.prepend(note);
      }
    }
  }

  /**
   * Fill the panel from a definition found at a cursor position (a JupyterLab path). With
   * `source`, the document it comes from: when it has unsaved edits the answer comes from the
   * saved file, which the panel says, or, if the saved file cannot answer for that line, offers
   * to save it first.
   */
  async showDefinitionAt(where: Location, source?: EditorSource): Promise<void> {
    const sequence = ++this.shown;
    await this.statusReady;
    const file = fromContentsPath(this.contentsPath, where.file);
    if (file === null) {
      this.renderNotFound({
        status: 'file_not_indexed',
        message: `${where.file} is outside the traced repository (${this.contentsPath}/).`
      });
      return;
    }
    const location = { ...where, file };
    const loading = el('div', { class: 'jp-CodeTrace-loading' }, `Looking up ${describeLocation(location)}…`);
    this.view.replaceChildren(loading);
    let unsaved: EditorSource | undefined;
    if (source?.dirty) {
      // The server reads the saved file: a line that differs there cannot be answered from it.
      const diff = await source.compare().catch(() => ({ edited: true, lineEdited: false }));
      if (sequence !== this.shown) {
        return;
      }
      unsaved = diff.edited ? source : undefined;
      if (diff.lineEdited) {
        this.renderUnsaved(where, source, 'changed');
        return;
      }
    }
    let answer;
    try {
      answer = await requestWhenIndexed<Definition & any>(
        'definition',
        { file: location.file, line: location.line, column: location.column, cell: location.cell ?? undefined },
        this.waitOptions(sequence, loading, 'looking')
      );
    } catch (error) {
      this.renderFailure(sequence, `Looking up ${describeLocation(location)}`, error);
      return;
    }
    const { status, body } = answer;
    if (sequence !== this.shown) {
      return; // something else was asked for meanwhile
    }
    if (body.status !== 'found') {
      if (unsaved) {
        this.renderUnsaved(where, unsaved, 'unanswered');
      } else if (status === 400) {
        // No name at the cursor (a blank, a keyword, a number): the server's "symbol is required".
        this.renderNotFound({
          status: 'no_name',
          message: `There is no name at ${describeLocation(location)} to trace: put the cursor on one.`
        });
      } else {
        this.renderNotFound(body);
      }
      return;
    }
    const note = unsaved
      ? el('p', { class: 'jp-CodeTrace-unsaved-note', role: 'note' },
          `${baseName(where.file)} has unsaved edits: this answer comes from the saved version.`)
      : undefined;
    await this.showSymbol(body.path.join('.') || body.name, body.file, note);
  }

  /**
   * The document has unsaved edits and the saved file cannot answer for this position: say so,
   * and offer to save it (through JupyterLab, as Ctrl-S does) and trace again.
   */
  private renderUnsaved(where: Location, source: EditorSource, why: 'changed' | 'unanswered'): void {
    const name = baseName(where.file);
    const place = describeLocation({ ...where, file: name });
    const reason = why === 'changed'
      ? `${place} is not the same in the saved version, and answers come from the saved version.`
      : `Answers come from the saved version, which has nothing to trace at ${place}.`;
    const button = el('button', { class: 'jp-mod-styled jp-mod-accept jp-CodeTrace-save' }, 'Save and trace');
    const problem = el('p', { class: 'jp-CodeTrace-meta', 'aria-live': 'polite' });
    button.addEventListener('click', async () => {
      button.disabled = true;
      button.textContent = 'Saving…';
      try {
        await source.save();
      } catch (error) {
        button.disabled = false;
        button.textContent = 'Save and trace';
        problem.textContent = `${name} could not be saved: ${error instanceof Error ? error.message : error}`;
        return;
      }
      await this.showDefinitionAt(where); // saved: the disk and the editor agree now
    });
    this.view.replaceChildren(
      el(
        'div',
        { class: 'jp-CodeTrace-unsaved', role: 'alert', 'data-status': 'unsaved' },
        el('strong', {}, `${name} has unsaved edits`),
        el('p', {}, reason),
        el('p', {}, `Save the file (${SAVE_KEYS}) to trace it.`),
        button,
        problem
      )
    );
  }

  /** A request that failed (server error, network): said in the view, unless something else was asked for since. */
  private renderFailure(sequence: number, doing: string, error: unknown): void {
    if (sequence === this.shown && !this.isDisposed) {
      this.renderNotFound({ status: 'error', message: `${doing} failed: ${error instanceof Error ? error.message : error}` });
    }
  }

  /** Closed: answers still on their way, or waiting for the index, are no longer wanted. */
  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.shown++;
    this.picker.clear();
    super.dispose();
  }

  /** While indexing: say so in the view and ask again, unless another symbol was asked for. */
  private waitOptions(sequence: number, loading: HTMLElement, doing: string) {
    return {
      isCurrent: () => sequence === this.shown,
      onWait: (body: any, delay: number) => {
        loading.textContent = waitingMessage(body, delay, doing);
      }
    };
  }

  renderNotFound(body: any): void {
    const status = String(body.status ?? 'error');
    const suggestions = el('ul', { class: 'jp-CodeTrace-suggestions', 'aria-label': suggestionsTitle(status) });
    for (const suggestion of body.suggestions ?? []) {
      const name = suggestion.name ?? suggestion.file;
      const button = el('button', { class: 'jp-CodeTrace-suggestion jp-mod-styled' }, name);
      button.addEventListener('click', () => void (suggestion.name ? this.search(suggestion.name) : this.openAt(suggestion)));
      suggestions.append(el('li', {}, button));
    }
    this.view.replaceChildren(
      el(
        'div',
        { class: 'jp-CodeTrace-notfound', role: 'alert', 'data-status': status, title: `status: ${status}` },
        el('strong', {}, statusTitle(status)),
        el('div', {}, body.message ?? '')
      )
    );
    if (suggestions.childElementCount) {
      this.view.append(el('div', {}, suggestionsTitle(status), suggestions));
    }
  }

  private link(location: Location, label: string): HTMLAnchorElement {
    const anchor = el('a', { class: 'jp-CodeTrace-link', href: '#', title: `Open ${describeLocation(location)}` }, label);
    anchor.addEventListener('click', event => {
      event.preventDefault();
      this.openAt(location);
    });
    return anchor;
  }

  renderTrace(body: any): void {
    if (body.status !== 'found') {
      this.renderNotFound(body);
      return;
    }
    const d = body.definition;
    const card = el(
      'section',
      { class: 'jp-CodeTrace-card', 'aria-label': 'Definition' },
      el('h3', {}, el('span', { class: 'jp-CodeTrace-badge' }, d.kind), ' ', d.qualified_name || d.name),
      this.link({ file: d.file, line: d.line, column: d.column, cell: d.cell ?? undefined, library: d.library ?? null },
        d.library ? `${describeLocation(d)} — ${libraryLabel(d.library)}` : describeLocation(d)),
      d.signature ? el('code', { class: 'jp-CodeTrace-signature' }, `${d.name}${d.signature}`) : null,
      d.doc ? renderDoc(d.doc, d.language ?? '') : null,
      el('div', { class: 'jp-CodeTrace-meta' }, d.exported ? 'exported' : 'not exported', ` · resolved by ${d.resolution}`),
      d.resolved_from?.length
        ? el('ol', { class: 'jp-CodeTrace-chain', 'aria-label': 'Resolved from' },
            ...d.resolved_from.map((step: any) => el('li', {}, el('code', {}, step.file), ` ${step.via}`)))
        : null,
      d.code ? el('pre', { class: 'jp-CodeTrace-code' }, d.code) : null
    );
    this.view.replaceChildren(card);
    if (body.note) {
      this.view.append(el('p', { class: 'jp-CodeTrace-meta' }, body.note));
    }
    if (d.members?.length) {
      this.view.append(this.renderMembers(d));
    }
    this.view.append(this.renderReferences(body.references, d.name ?? ''));
    this.view.append(this.renderCalls('Callers', body.calls?.incoming ?? []));
    this.view.append(this.renderCalls('Callees', body.calls?.outgoing ?? []));
    this.view.append(this.renderTypes(body.types));
    this.view.append(this.renderPaths(d));
  }

  private renderReferences(refs: any, name: string): HTMLElement {
    const section = el('details', { class: 'jp-CodeTrace-refs', open: '' });
    const draw = () => {
      const list = el('div', {});
      // A page of references at a time; a file's group continues across pages.
      const groups = groupByFile<any>(refs?.locations ?? [], this.hideTests);
      const rows = ([] as any[]).concat(...groups.values());
      let group: HTMLElement | null = null;
      let groupFile: string | null = null;
      pageInto<any>({
        list,
        items: rows,
        noun: 'references',
        draw: ref =>
          el(
            'div',
            { class: 'jp-CodeTrace-ref' },
            el('span', { class: `jp-CodeTrace-badge jp-CodeTrace-usage-${ref.usage}` }, ref.usage),
            this.link(ref, describeLocation(ref, true)), // the group's heading names the folder
            codeWithName(ref.context ?? '', name, ref.column)
          ),
        place: (row, ref, _index, before) => {
          if (!group || ref.file !== groupFile) {
            groupFile = ref.file;
            const count = groups.get(ref.file)?.length ?? 0;
            group = el('div', { class: 'jp-CodeTrace-refgroup' },
              el('div', { class: 'jp-CodeTrace-file' }, ref.file,
                el('span', { class: 'jp-CodeTrace-count' }, ` (${count})`)));
            list.insertBefore(group, before);
          }
          group.append(row);
        }
      });
      return list;
    };
    const toggle = el('input', { type: 'checkbox', 'aria-label': 'Hide tests' });
    toggle.checked = this.hideTests; // the choice holds for every symbol shown after it
    const body = el('div', {}, draw());
    toggle.addEventListener('change', () => {
      this.hideTests = toggle.checked;
      try {
        window.localStorage.setItem(HIDE_TESTS_KEY, String(this.hideTests));
      } catch {
        // storage may be disabled: the choice then lasts for this page only
      }
      body.replaceChildren(draw());
    });
    section.append(
      el('summary', {}, `References (${refs?.total ?? 0} in ${refs?.files ?? 0} files)`),
      el('label', { class: 'jp-CodeTrace-toggle' }, toggle, ' hide tests'),
      body
    );
    return section;
  }

  /**
   * A call tree as VS Code's Call Hierarchy draws it: the arrow and the name expand a node, a
   * separate file:line link opens it. Subtrees are drawn the first time they are opened.
   */
  private renderCalls(title: string, tree: any[]): HTMLElement {
    const root = el('div', { role: 'tree', 'aria-label': title });
    const draw = (entries: any[], into: HTMLElement) =>
      pageInto<any>({ list: into, items: entries, draw: drawNode, noun: title.toLowerCase(), role: 'treeitem' });
    const drawNode = (entry: any): HTMLElement => {
      const mark = entry.cycle ? ' (cycle)' : entry.seen ? ' (see above)' : '';
      const name = el('span', { class: 'jp-CodeTrace-node-name', title: entry.symbol }, entry.symbol);
      const row = el('div', { class: 'jp-CodeTrace-node-row' });
      const node = el('div', { class: 'jp-CodeTrace-node', role: 'treeitem' }, row);
      if (entry.children?.length) {
        const twisty = el('button', { class: 'jp-CodeTrace-twisty', 'aria-label': `Expand ${entry.symbol}` });
        const children = el('div', { class: 'jp-CodeTrace-children', role: 'group' });
        children.hidden = true;
        let drawn = false;
        const toggle = () => {
          const open = children.hidden;
          if (open && !drawn) {
            drawn = true;
            draw(entry.children, children);
          }
          children.hidden = !open;
          node.setAttribute('aria-expanded', String(open));
          twisty.setAttribute('aria-label', `${open ? 'Collapse' : 'Expand'} ${entry.symbol}`);
        };
        node.setAttribute('aria-expanded', 'false');
        twisty.addEventListener('click', toggle);
        name.addEventListener('click', toggle);
        name.classList.add('jp-mod-expandable');
        row.append(twisty, name);
        node.append(children);
      } else {
        row.append(el('span', { class: 'jp-CodeTrace-twisty-space' }), name);
      }
      if (mark) {
        row.append(el('span', { class: 'jp-CodeTrace-meta' }, mark));
      }
      if (entry.external) {
        row.append(el('span', { class: 'jp-CodeTrace-meta jp-CodeTrace-goto' }, 'external'));
      } else {
        const location = { file: entry.file, line: entry.line, cell: entry.cell };
        const goto = this.link(location, describeLocation(location, true));
        goto.classList.add('jp-CodeTrace-goto');
        goto.title = `Open ${describeLocation(location)}`;
        row.append(goto);
      }
      return node;
    };
    draw(tree, root);
    return el('details', { class: 'jp-CodeTrace-calls', open: '' }, el('summary', {}, `${title} (${tree.length})`), root);
  }

  private renderTypes(types: any): HTMLElement {
    const section = el('details', { class: 'jp-CodeTrace-types' }, el('summary', {}, 'Type hierarchy'));
    const h = types?.hierarchy;
    const list = el('ul', {});
    const rows: [string, any][] = [];
    for (const [label, items] of [['extends', h?.extends ?? []], ['implements', h?.implements ?? []], ['subtype', h?.subtypes ?? []]] as [string, any[]][]) {
      rows.push(...items.map(item => [label, item] as [string, any]));
    }
    pageInto<[string, any]>({
      list,
      items: rows,
      noun: 'types',
      wrapper: 'li',
      draw: ([label, item]) => el('li', { class: 'jp-CodeTrace-type' }, `${label} `, this.link(item, item.symbol), ` (${item.file})`)
    });
    section.append(rows.length ? list : el('div', { class: 'jp-CodeTrace-meta' }, 'no supertypes or subtypes'));
    return section;
  }

  /** A class's (or a module's…) members; each traces `Owner.member`. */
  private renderMembers(d: any): HTMLElement {
    const owner = d.path?.join('.') || d.name;
    const list = el('ul', { class: 'jp-CodeTrace-member-list', 'aria-label': `Members of ${owner}` });
    pageInto<any>({
      list,
      items: d.members,
      noun: 'members',
      wrapper: 'li',
      draw: member => {
        const name = el('button', { class: 'jp-CodeTrace-member-name', title: `Trace ${owner}.${member.name}` }, member.name);
        name.addEventListener('click', () => void this.showSymbol(`${owner}.${member.name}`, d.file));
        return el(
          'li',
          { class: 'jp-CodeTrace-member' },
          el('span', { class: 'jp-CodeTrace-badge' }, member.kind),
          name,
          member.signature ? el('code', { class: 'jp-CodeTrace-meta' }, member.signature) : null
        );
      }
    });
    return el('details', { class: 'jp-CodeTrace-members' }, el('summary', {}, `Members (${d.members.length})`), list);
  }

  private renderPaths(d: any): HTMLElement {
    const input = el('input', { class: 'jp-mod-styled', type: 'text', placeholder: 'to symbol…', 'aria-label': 'Paths to symbol' });
    const button = el('button', { class: 'jp-mod-styled jp-CodeTrace-paths-button' }, 'Paths to…');
    const choices = el('ul', { class: 'jp-CodeTrace-choices', 'aria-label': 'Target symbols' });
    const message = el('div', { class: 'jp-CodeTrace-meta jp-CodeTrace-paths-message', 'aria-live': 'polite' });
    const diagram = el('div', { class: 'jp-CodeTrace-diagram', tabindex: '0', 'aria-label': 'Path diagram' });
    const draw = async (target: Match) => {
      const toSymbol = matchSymbol(target);
      input.value = toSymbol;
      picker.clear();
      message.textContent = `Paths to ${toSymbol} (${target.file}:${target.line})…`;
      diagram.replaceChildren();
      const params = { from_file: d.file, from_symbol: d.path.join('.') || d.name, to_file: target.file, to_symbol: toSymbol };
      let svg;
      try {
        svg = await requestWhenIndexed<string>('paths', { ...params, format: 'svg' }, {
          isCurrent: () => !this.isDisposed,
          onWait: (body, delay) => {
            message.textContent = waitingMessage(body, delay, 'drawing');
          }
        });
      } catch (error) {
        message.textContent = `Paths to ${toSymbol} failed: ${error instanceof Error ? error.message : error}`;
        return;
      }
      message.textContent = `Paths to ${toSymbol} (${target.file}:${target.line})`;
      if (svg.status === 200) {
        showDiagram(diagram, svg.text);
      } else {
        const graph = svg.body as unknown as Graph & { message?: string };
        diagram.textContent = `${statusTitle(graph.status ?? 'no_path')}. ${graph.message ?? ''}`;
      }
      diagram.scrollIntoView({ block: 'nearest' });
    };
    const picker = new SymbolPicker({
      input,
      list: choices,
      limit: 10,
      onPick: match => void draw(match),
      // Only a name typed exactly is taken on Enter: a fuzzy "closest" symbol is a wrong answer.
      onEnter: (matches, text) =>
        exactMatch(matches, text) ??
        (matches.length ? `No symbol is named exactly “${text.trim()}”: pick one from the list.` : null),
      onMessage: text => {
        message.textContent = text ?? '';
      }
    });
    button.addEventListener('click', () => void picker.commit());
    return el(
      'section',
      { class: 'jp-CodeTrace-paths' },
      el('div', { class: 'jp-CodeTrace-row' }, input, button),
      choices,
      message,
      diagram
    );
  }
}

/** A reference's line of code with the name itself marked (as an editor's references view shows it). */
function codeWithName(context: string, name: string, column: number): HTMLElement {
  const span = nameSpan(context, name, column);
  if (!span) {
    return el('code', {}, context);
  }
  return el('code', {}, context.slice(0, span[0]), el('mark', { class: 'jp-CodeTrace-name' }, context.slice(span[0], span[1])),
    context.slice(span[1]));
}

