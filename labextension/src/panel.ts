/**
 * The "Code Trace" side panel: symbol search, the symbol view (definition card, references,
 * call trees, types, paths diagram) and the index status. Plain DOM in a Lumino widget; every
 * answer comes from the REST routes (no resolution logic here).
 */
import { Widget } from '@lumino/widgets';

import { requestAPI } from './request';
import { Location, describeLocation, groupByFile, matchSymbol } from './view';
import { Definition, Graph, Symbols, Trace } from './types';

export type { Location };

export type Opener = (location: Location) => void;

const DEBOUNCE_MS = 200;

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

export class CodeTracePanel extends Widget {
  private searchInput: HTMLInputElement;
  private results: HTMLUListElement;
  private view: HTMLDivElement;
  private status: HTMLDivElement;
  private timer: number | undefined;
  private active = -1;
  private matches: any[] = [];
  private hideTests = false;

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
    this.results = el('ul', { class: 'jp-CodeTrace-results', role: 'listbox', 'aria-label': 'Matching symbols' });
    this.view = el('div', { class: 'jp-CodeTrace-view', 'aria-label': 'Symbol view' });
    this.node.append(this.status, this.searchInput, this.results, this.view);
    this.searchInput.addEventListener('input', () => this.scheduleSearch());
    this.searchInput.addEventListener('keydown', event => this.onKey(event));
    void this.refreshStatus();
  }

  /** Index status: a progress bar while indexing, counts when done, errors visible. */
  async refreshStatus(): Promise<void> {
    try {
      const { body } = await requestAPI<any>('status');
      this.status.replaceChildren();
      if (body.state === 'indexing' || body.state === 'idle') {
        const bar = el('progress', { max: String(body.total || 1), value: String(body.done || 0) });
        this.status.append(`Indexing… ${body.done}/${body.total || '?'} `, bar);
        window.setTimeout(() => void this.refreshStatus(), 1000);
      } else if (body.state === 'error') {
        this.status.append(el('span', { class: 'jp-CodeTrace-error' }, `Indexing failed: ${body.error}`));
      } else {
        const languages = Object.entries(body.languages ?? {})
          .map(([name, count]) => `${name} ${count}`)
          .join(' · ');
        this.status.append(`${body.files} files indexed (${languages})`);
      }
    } catch (error) {
      this.status.textContent = `Code Trace server extension unavailable: ${error}`;
    }
  }

  focusSearch(): void {
    this.searchInput.focus();
  }

  private scheduleSearch(): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.search(this.searchInput.value), DEBOUNCE_MS);
  }

  async search(query: string): Promise<void> {
    this.searchInput.value = query;
    this.results.replaceChildren();
    this.matches = [];
    this.active = -1;
    if (!query.trim()) {
      return;
    }
    const { status, body } = await requestAPI<Symbols & { message?: string }>('symbols', { query, limit: 30 });
    if (status === 503) {
      this.results.append(el('li', { class: 'jp-CodeTrace-empty' }, 'Still indexing, try again in a moment.'));
      return;
    }
    this.matches = body.symbols ?? [];
    if (!this.matches.length) {
      this.results.append(el('li', { class: 'jp-CodeTrace-empty' }, `No symbol matches “${query}”.`));
      return;
    }
    this.matches.forEach((match, index) => {
      const item = el(
        'li',
        { class: 'jp-CodeTrace-match', role: 'option', tabindex: '-1', 'data-index': String(index) },
        el('span', { class: `jp-CodeTrace-kind jp-CodeTrace-kind-${match.kind}`, title: match.kind }, match.kind[0].toUpperCase()),
        el('span', { class: 'jp-CodeTrace-name' }, match.container ? `${match.container}.${match.name}` : match.name),
        el('span', { class: 'jp-CodeTrace-file' }, `${match.file}:${match.line}`)
      );
      item.addEventListener('click', () => void this.select(index));
      this.results.append(item);
    });
  }

  private onKey(event: KeyboardEvent): void {
    if (!this.matches.length) {
      return;
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + this.matches.length) % this.matches.length;
      this.results.querySelectorAll('li').forEach((li, i) => {
        li.classList.toggle('jp-mod-active', i === this.active);
        li.setAttribute('aria-selected', String(i === this.active));
      });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void this.select(Math.max(this.active, 0));
    }
  }

  private async select(index: number): Promise<void> {
    const match = this.matches[index];
    const symbol = matchSymbol(match);
    await this.showSymbol(symbol, match.file);
  }

  /** The symbol view: definition card, references, call trees, types, paths. */
  async showSymbol(symbol: string, file?: string): Promise<void> {
    this.view.replaceChildren(el('div', { class: 'jp-CodeTrace-loading' }, `Tracing ${symbol}…`));
    const { body } = await requestAPI<Trace & any>('trace', {
      symbol,
      file,
      references: true,
      calls: true,
      types: true
    });
    this.renderTrace(body);
  }

  /** Fill the panel from a definition found at a cursor position. */
  async showDefinitionAt(location: Location): Promise<void> {
    const { body } = await requestAPI<Definition & any>('definition', {
      file: location.file,
      line: location.line,
      column: location.column,
      cell: location.cell ?? undefined
    });
    if (body.status !== 'found') {
      this.renderNotFound(body);
      return;
    }
    await this.showSymbol(body.path.join('.') || body.name, body.file);
  }

  renderNotFound(body: any): void {
    const suggestions = el('ul', { class: 'jp-CodeTrace-suggestions', 'aria-label': 'Did you mean' });
    for (const suggestion of body.suggestions ?? []) {
      const name = suggestion.name ?? suggestion.file;
      const button = el('button', { class: 'jp-CodeTrace-suggestion jp-mod-styled' }, name);
      button.addEventListener('click', () => void (suggestion.name ? this.search(suggestion.name) : this.open(suggestion)));
      suggestions.append(el('li', {}, button));
    }
    this.view.replaceChildren(
      el('div', { class: 'jp-CodeTrace-notfound', role: 'alert' }, el('strong', {}, `${body.status}: `), body.message ?? '')
    );
    if (suggestions.childElementCount) {
      this.view.append(el('div', {}, 'Did you mean:', suggestions));
    }
  }

  private link(location: Location, label: string): HTMLAnchorElement {
    const anchor = el('a', { class: 'jp-CodeTrace-link', href: '#', title: `Open ${describeLocation(location)}` }, label);
    anchor.addEventListener('click', event => {
      event.preventDefault();
      this.open(location);
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
      this.link({ file: d.file, line: d.line, column: d.column, cell: d.cell ?? undefined }, describeLocation(d)),
      d.signature ? el('code', { class: 'jp-CodeTrace-signature' }, `${d.name}${d.signature}`) : null,
      d.doc ? el('p', { class: 'jp-CodeTrace-doc' }, d.doc) : null,
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
    this.view.append(this.renderReferences(body.references));
    this.view.append(this.renderCalls('Callers', body.calls?.incoming ?? []));
    this.view.append(this.renderCalls('Callees', body.calls?.outgoing ?? []));
    this.view.append(this.renderTypes(body.types));
    this.view.append(this.renderPaths(d));
  }

  private renderReferences(refs: any): HTMLElement {
    const section = el('details', { class: 'jp-CodeTrace-refs', open: '' });
    const draw = () => {
      const list = el('div', {});
      for (const [file, items] of groupByFile<any>(refs?.locations ?? [], this.hideTests)) {
        const group = el('div', { class: 'jp-CodeTrace-refgroup' }, el('div', { class: 'jp-CodeTrace-file' }, file));
        for (const ref of items) {
          group.append(
            el(
              'div',
              { class: 'jp-CodeTrace-ref' },
              el('span', { class: `jp-CodeTrace-badge jp-CodeTrace-usage-${ref.usage}` }, ref.usage),
              this.link(ref, describeLocation(ref)),
              el('code', {}, ref.context)
            )
          );
        }
        list.append(group);
      }
      return list;
    };
    const toggle = el('input', { type: 'checkbox', 'aria-label': 'Hide tests' });
    const body = el('div', {}, draw());
    toggle.addEventListener('change', () => {
      this.hideTests = toggle.checked;
      body.replaceChildren(draw());
    });
    section.append(
      el('summary', {}, `References (${refs?.total ?? 0} in ${refs?.files ?? 0} files)`),
      el('label', { class: 'jp-CodeTrace-toggle' }, toggle, ' hide tests'),
      body
    );
    return section;
  }

  private renderCalls(title: string, tree: any[]): HTMLElement {
    const section = el('details', { class: 'jp-CodeTrace-calls', open: '' }, el('summary', {}, `${title} (${tree.length})`));
    const draw = (entries: any[], into: HTMLElement) => {
      for (const entry of entries) {
        const label = entry.external
          ? el('span', { class: 'jp-CodeTrace-meta' }, `${entry.symbol} (external)`)
          : this.link({ file: entry.file, line: entry.line, cell: entry.cell }, `${entry.symbol} — ${entry.file}`);
        if (entry.children?.length) {
          // Lazily drawn: the subtree is built the first time it is opened.
          const node = el('details', { class: 'jp-CodeTrace-node' }, el('summary', {}, label));
          let drawn = false;
          node.addEventListener('toggle', () => {
            if (!drawn && node.open) {
              drawn = true;
              draw(entry.children, node);
            }
          });
          into.append(node);
        } else {
          const mark = entry.cycle ? ' (cycle)' : entry.seen ? ' (see above)' : '';
          into.append(el('div', { class: 'jp-CodeTrace-leaf' }, label, mark));
        }
      }
    };
    draw(tree, section);
    return section;
  }

  private renderTypes(types: any): HTMLElement {
    const section = el('details', { class: 'jp-CodeTrace-types' }, el('summary', {}, 'Type hierarchy'));
    const h = types?.hierarchy;
    const list = el('ul', {});
    for (const [label, items] of [['extends', h?.extends ?? []], ['implements', h?.implements ?? []], ['subtype', h?.subtypes ?? []]] as [string, any[]][]) {
      for (const item of items) {
        list.append(el('li', {}, `${label} `, this.link(item, item.symbol), ` (${item.file})`));
      }
    }
    section.append(list.childElementCount ? list : el('div', { class: 'jp-CodeTrace-meta' }, 'no supertypes or subtypes'));
    return section;
  }

  private renderPaths(d: any): HTMLElement {
    const input = el('input', { class: 'jp-mod-styled', type: 'text', placeholder: 'to symbol…', 'aria-label': 'Paths to symbol' });
    const button = el('button', { class: 'jp-mod-styled jp-CodeTrace-paths-button' }, 'Paths to…');
    const diagram = el('div', { class: 'jp-CodeTrace-diagram', tabindex: '0', 'aria-label': 'Path diagram' });
    let scale = 1;
    diagram.addEventListener('wheel', event => {
      if (!event.ctrlKey) {
        return;
      }
      event.preventDefault();
      scale = Math.min(4, Math.max(0.25, scale * (event.deltaY < 0 ? 1.1 : 0.9)));
      const svg = diagram.querySelector('svg');
      if (svg) {
        svg.style.transform = `scale(${scale})`;
      }
    });
    button.addEventListener('click', async () => {
      const target = input.value.trim();
      if (!target) {
        return;
      }
      const found = await requestAPI<Symbols>('symbols', { query: target, limit: 1 });
      const best = found.body.symbols?.[0];
      if (!best) {
        diagram.textContent = `No symbol matches “${target}”.`;
        return;
      }
      const toSymbol = matchSymbol(best);
      const params = { from_file: d.file, from_symbol: d.path.join('.') || d.name, to_file: best.file, to_symbol: toSymbol };
      const svg = await requestAPI<string>('paths', { ...params, format: 'svg' });
      if (svg.status === 200) {
        diagram.innerHTML = svg.text;
      } else {
        const graph = svg.body as unknown as Graph & { message?: string };
        diagram.textContent = graph.message ?? 'No path found.';
      }
    });
    return el('section', { class: 'jp-CodeTrace-paths' }, el('div', { class: 'jp-CodeTrace-row' }, input, button), diagram);
  }
}
