/**
 * A search box with a list of matching symbols (an ARIA combobox with its listbox): typing
 * searches through the symbols route, arrow keys move through the matches, Enter or a click
 * picks one. Used by the panel's main search and by its *Paths to…* box.
 */
import { requestWhenIndexed } from './request';
import { Symbols } from './types';
import { matchSymbol, statusTitle, waitingMessage } from './view';

export type Match = Symbols['symbols'][number];

const DEBOUNCE_MS = 200;
let pickers = 0;

export interface PickerOptions {
  input: HTMLInputElement;
  list: HTMLUListElement;
  limit: number;
  /** Called with the chosen match. */
  onPick: (match: Match) => void;
  /**
   * Enter without a highlighted match: return the match to take, or a message to show instead.
   * The main search takes the first match; *Paths to…* only a name typed exactly.
   */
  onEnter: (matches: Match[], text: string) => Match | string | null;
  /** Called when a search could not run or found nothing (a message for people, or null). */
  onMessage: (message: string | null) => void;
}

export class SymbolPicker {
  matches: Match[] = [];
  private active = -1;
  private searched: string | null = null;
  private pending: Promise<void> | null = null;
  private timer: number | undefined;
  private sequence = 0;
  private readonly prefix: string;

  constructor(private options: PickerOptions) {
    const { input, list } = options;
    this.prefix = `jp-codetrace-picker-${++pickers}`;
    list.id = `${this.prefix}-list`;
    list.setAttribute('role', 'listbox');
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', list.id);
    input.setAttribute('aria-expanded', 'false');
    input.addEventListener('input', () => this.schedule());
    input.addEventListener('keydown', event => void this.onKey(event));
  }

  /** Search now for `text` (also what typing does, after a short pause). */
  search(text: string): Promise<void> {
    window.clearTimeout(this.timer);
    this.options.input.value = text;
    this.pending = this.run(text);
    return this.pending;
  }

  clear(): void {
    this.sequence++;
    this.matches = [];
    this.searched = null;
    this.render();
  }

  /** Take the match that Enter would take (used by a button next to the box). */
  async commit(): Promise<void> {
    const text = this.options.input.value;
    if (!text.trim()) {
      return;
    }
    if (this.searched !== text) {
      await this.search(text); // Enter before the pause ran out: search first, then decide
    }
    if (this.active >= 0) {
      this.pick(this.active);
      return;
    }
    const choice = this.options.onEnter(this.matches, text);
    if (typeof choice === 'string') {
      this.options.onMessage(choice);
    } else if (choice) {
      this.pick(this.matches.indexOf(choice));
    }
  }

  private schedule(): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.search(this.options.input.value), DEBOUNCE_MS);
  }

  private async run(text: string): Promise<void> {
    const sequence = ++this.sequence;
    if (!text.trim()) {
      this.clear();
      this.options.onMessage(null);
      return;
    }
    const { status, body } = await requestWhenIndexed<Symbols & { message?: string }>(
      'symbols',
      { query: text, limit: this.options.limit },
      {
        isCurrent: () => sequence === this.sequence,
        onWait: (answer, delay) => this.options.onMessage(waitingMessage(answer, delay))
      }
    );
    if (sequence !== this.sequence) {
      return; // a newer search has started: its answer wins
    }
    this.searched = text;
    this.matches = status === 200 ? body.symbols ?? [] : [];
    this.active = -1;
    this.render();
    if (status === 503) {
      this.options.onMessage(`${statusTitle('indexing')}: type again in a moment.`);
    } else {
      this.options.onMessage(this.matches.length ? null : `No symbol matches “${text}”.`);
    }
  }

  private render(): void {
    const { input, list } = this.options;
    list.replaceChildren(
      ...this.matches.map((match, index) => {
        const item = document.createElement('li');
        item.id = `${this.prefix}-${index}`;
        item.className = 'jp-CodeTrace-match';
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', 'false');
        const kind = document.createElement('span');
        kind.className = `jp-CodeTrace-kind jp-CodeTrace-kind-${match.kind}`;
        kind.title = match.kind;
        kind.textContent = match.kind[0].toUpperCase();
        const name = document.createElement('span');
        name.className = 'jp-CodeTrace-name';
        name.textContent = matchSymbol(match);
        const file = document.createElement('span');
        file.className = 'jp-CodeTrace-file';
        file.textContent = `${match.file}:${match.line}`;
        item.append(kind, name, file);
        item.title = `${matchSymbol(match)} — ${match.file}:${match.line}`;
        // mousedown would move the focus away from the box before the click lands
        item.addEventListener('mousedown', event => event.preventDefault());
        item.addEventListener('click', () => this.pick(index));
        return item;
      })
    );
    input.setAttribute('aria-expanded', String(this.matches.length > 0));
    this.highlight(-1);
  }

  private highlight(index: number): void {
    this.active = index;
    const { input, list } = this.options;
    list.querySelectorAll('li[role="option"]').forEach((li, i) => {
      li.classList.toggle('jp-mod-active', i === index);
      li.setAttribute('aria-selected', String(i === index));
      if (i === index) {
        li.scrollIntoView({ block: 'nearest' });
      }
    });
    if (index >= 0) {
      input.setAttribute('aria-activedescendant', `${this.prefix}-${index}`);
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  private pick(index: number): void {
    const match = this.matches[index];
    if (match) {
      this.highlight(index);
      this.options.onPick(match);
    }
  }

  private async onKey(event: KeyboardEvent): Promise<void> {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (this.pending) {
        await this.pending;
      }
      const count = this.matches.length;
      if (count) {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.highlight(this.active < 0 && step < 0 ? count - 1 : (this.active + step + count) % count);
      }
    } else if (event.key === 'Enter') {
      event.preventDefault();
      await this.commit();
    } else if (event.key === 'Escape' && this.matches.length) {
      event.preventDefault();
      this.clear();
    }
  }
}
