/**
 * A search box with a list of matching symbols (an ARIA combobox with its listbox): typing
 * searches through the symbols route, arrow keys move through the matches, Enter or a click
 * picks one. Used by the panel's main search and by its *Paths to…* box. The server sends a
 * page of matches (`limit`); when it has more, a last option asks for the next page.
 */
import { requestWhenIndexed } from './request';
import { Symbols } from './types';
import { matchSymbol, statusTitle, waitingMessage } from './view';

export type Match = Symbols['symbols'][number];

const DEBOUNCE_MS = 200;
const MORE_STEP = 100; // matches added by "Show more matches"
const MAX_LIMIT = 1000; // the symbols route's own bound
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
  /** The server has more matches than it sent. */
  truncated = false;
  private limit: number;
  private active = -1;
  private searched: string | null = null;
  private pending: Promise<void> | null = null;
  private timer: number | undefined;
  private sequence = 0;
  private readonly prefix: string;

  constructor(private options: PickerOptions) {
    const { input, list } = options;
    this.prefix = `jp-codetrace-picker-${++pickers}`;
    this.limit = options.limit;
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
    this.limit = this.options.limit; // a new search starts with one page again
    this.pending = this.run(text);
    return this.pending;
  }

  /** Ask the server for the next page of matches of the same text; highlight the first new one. */
  async more(): Promise<void> {
    const text = this.searched;
    if (text === null || !this.truncated) {
      return;
    }
    const first = this.matches.length;
    this.limit = Math.min(MAX_LIMIT, this.limit + MORE_STEP);
    this.pending = this.run(text);
    await this.pending;
    if (this.searched === text && this.matches.length > first) {
      this.highlight(first);
    }
  }

  clear(): void {
    this.sequence++;
    this.truncated = false;
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
    let answer;
    try {
      answer = await requestWhenIndexed<Symbols & { message?: string }>(
        'symbols',
        { query: text, limit: this.limit },
        {
          isCurrent: () => sequence === this.sequence,
          onWait: (body, delay) => this.options.onMessage(waitingMessage(body, delay))
        }
      );
    } catch (error) {
      if (sequence === this.sequence) {
        // the server or the network failed: say so (the next search asks again)
        this.matches = [];
        this.truncated = false;
        this.searched = null;
        this.render();
        this.options.onMessage(`Search failed: ${error instanceof Error ? error.message : error}`);
      }
      return;
    }
    const { status, body } = answer;
    if (sequence !== this.sequence) {
      return; // a newer search has started: its answer wins
    }
    this.searched = text;
    this.matches = status === 200 ? body.symbols ?? [] : [];
    this.truncated = status === 200 && Boolean(body.truncated) && this.limit < MAX_LIMIT;
    this.active = -1;
    this.render();
    if (status === 503) {
      this.options.onMessage(`${statusTitle('indexing')}: type again in a moment.`);
    } else if (status === 400 && body.message) {
      this.options.onMessage(body.message); // what is wrong with the text (e.g. too long for a name)
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
    if (this.truncated) {
      // The last option asks for more: reached with the arrow keys like any match.
      const more = document.createElement('li');
      more.id = `${this.prefix}-more`;
      more.className = 'jp-CodeTrace-match jp-CodeTrace-more-option';
      more.setAttribute('role', 'option');
      more.setAttribute('aria-selected', 'false');
      more.textContent = `Show ${MORE_STEP} more matches…`;
      more.addEventListener('mousedown', event => event.preventDefault());
      more.addEventListener('click', () => void this.more());
      list.append(more);
    }
    input.setAttribute('aria-expanded', String(this.matches.length > 0));
    this.highlight(-1);
  }

  /** Options in the list: the matches, and the "more" option when there is one. */
  private get optionCount(): number {
    return this.matches.length + (this.truncated ? 1 : 0);
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
      const id = index < this.matches.length ? `${this.prefix}-${index}` : `${this.prefix}-more`;
      input.setAttribute('aria-activedescendant', id);
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  private pick(index: number): void {
    if (index === this.matches.length && this.truncated) {
      void this.more();
      return;
    }
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
      const count = this.optionCount;
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
