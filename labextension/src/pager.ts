/**
 * Long lists drawn a page at a time: the first PAGE_SIZE rows, then a "Show N more" button
 * that draws the next page (697 references drawn at once took 2.5 s). The button sits in the
 * list itself, wrapped in the role the list's rows have (a tree item in a tree, a list item in
 * a list), and after it draws a page the focus moves to the first new row, so keyboard users
 * carry on where they were.
 */

export const PAGE_SIZE = 100;

export interface PageOptions<T> {
  /** Where rows go (the button stays after them). */
  list: HTMLElement;
  items: T[];
  /** One row for `item`. */
  draw: (item: T, index: number) => HTMLElement;
  /**
   * Put a drawn row in place (default: into `list`, before the button). References use this to
   * start a new file's group or add to the last one.
   */
  place?: (row: HTMLElement, item: T, index: number, before: Node | null) => void;
  /** What the rows are, for the button's label: "references", "callers"… */
  noun: string;
  /** The element wrapping the button and its role: 'li', or 'div' with role 'treeitem'. */
  wrapper?: 'li' | 'div';
  role?: string;
  pageSize?: number;
}

const FOCUSABLE = 'a[href], button, input, [tabindex]';

/** Draw the first page of `items` into `list`, with a button for the rest. */
export function pageInto<T>(options: PageOptions<T>): void {
  const { list, items, draw, noun } = options;
  const size = options.pageSize ?? PAGE_SIZE;
  const wrap = document.createElement(options.wrapper ?? 'div');
  wrap.className = 'jp-CodeTrace-more';
  if (options.role) {
    wrap.setAttribute('role', options.role);
  }
  const button = document.createElement('button');
  button.className = 'jp-CodeTrace-more-button jp-mod-styled';
  wrap.append(button);
  let shown = 0;
  const place = options.place ?? ((row: HTMLElement, _item: T, _index: number, before: Node | null) => {
    list.insertBefore(row, before);
  });

  const drawPage = (focus: boolean) => {
    const end = Math.min(items.length, shown + size);
    const before = wrap.parentNode === list ? wrap : null;
    let first: HTMLElement | null = null;
    for (let index = shown; index < end; index++) {
      const row = draw(items[index], index);
      place(row, items[index], index, before);
      first = first ?? row;
    }
    shown = end;
    const left = items.length - shown;
    if (left > 0) {
      const next = Math.min(size, left);
      button.textContent = `Show ${next} more (${left} not shown)`;
      button.setAttribute('aria-label', `Show ${next} more ${noun}, of ${left} not shown`);
      if (wrap.parentNode !== list) {
        list.append(wrap);
      }
    } else {
      wrap.remove();
    }
    if (focus && first) {
      const target = first.matches(FOCUSABLE) ? first : first.querySelector<HTMLElement>(FOCUSABLE);
      if (target) {
        target.focus();
      } else {
        first.tabIndex = -1;
        first.focus();
      }
    }
  };
  button.addEventListener('click', () => drawPage(true));
  drawPage(false);
}
