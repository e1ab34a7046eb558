/**
 * Doc comments as their language writes them: a Python docstring (plain text or reST: line
 * breaks kept, `::` literal blocks, doctests, `:param:` fields, Google and NumPy sections) or a
 * Markdown doc comment (JSDoc, Rust, Go…: lines joined into paragraphs, fenced code, `@param`
 * tags). Parsed into blocks, then drawn with DOM nodes and text only: nothing the comment says
 * is ever read as HTML.
 */

export type DocBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'fields'; label: string; items: DocField[] };

export interface DocField {
  name: string;
  type: string;
  text: string;
}

/** The comment languages that read a doc comment as Markdown (the others: Python's docstrings). */
function isMarkdown(language: string): boolean {
  return language !== 'python';
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+#.-]*)/;
const BULLET = /^(\s*)([-*+•]|\d{1,3}[.)])\s+(.*)$/;
const MD_HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const UNDERLINE = /^\s*([-=~^"'`+*#])\1{2,}\s*$/;
const DIRECTIVE = /^\s*\.\.\s+([\w-]+)::\s*(.*)$/;
const REST_FIELD = /^\s*:(\w+)((?:\s+[^:\s]+)*)\s*:(?:\s+(.*))?$/;
const JSDOC_TAG = /^\s*@(\w+)\b\s*(.*)$/;
const GOOGLE_SECTION =
  /^\s*(Args|Arguments|Parameters|Params|Other Parameters|Keyword Args|Keyword Arguments|Returns?|Yields?|Raises|Throws|Exceptions|Attributes|Examples?|Notes?|Warnings?|See Also|Todo|References)\s*:\s*$/;

/** Section titles of field tags (reST `:param x:`, JSDoc `@param x`). */
const FIELD_LABELS: Record<string, string> = {
  param: 'Parameters', parameter: 'Parameters', arg: 'Parameters', argument: 'Parameters',
  key: 'Parameters', keyword: 'Parameters', kwarg: 'Parameters', prop: 'Properties', property: 'Properties',
  typeparam: 'Type parameters', template: 'Type parameters',
  returns: 'Returns', return: 'Returns', rtype: 'Returns',
  yields: 'Yields', yield: 'Yields', ytype: 'Yields',
  raises: 'Raises', raise: 'Raises', except: 'Raises', exception: 'Raises', throws: 'Throws', throw: 'Throws',
  var: 'Variables', ivar: 'Attributes', cvar: 'Attributes',
  see: 'See also', deprecated: 'Deprecated', since: 'Since', default: 'Default', defaultvalue: 'Default',
  remarks: 'Remarks', note: 'Note', author: 'Author', version: 'Version', todo: 'To do'
};
/** Tags that carry a name before their text. */
const NAMED_TAGS = new Set(['param', 'parameter', 'arg', 'argument', 'key', 'keyword', 'kwarg', 'prop', 'property',
  'typeparam', 'template', 'raises', 'raise', 'except', 'exception', 'var', 'ivar', 'cvar', 'type', 'vartype']);

function indentOf(line: string): number {
  return line.length - line.replace(/^\s+/, '').length;
}

function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === '';
}

/** Remove the indentation common to all non-blank lines. */
function dedent(lines: string[]): string[] {
  const indents = lines.filter(line => !isBlank(line)).map(indentOf);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map(line => line.slice(Math.min(common, indentOf(line))));
}

/** Lines of a block up to its end, without blank lines at either end. */
function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && isBlank(lines[start])) {
    start++;
  }
  while (end > start && isBlank(lines[end - 1])) {
    end--;
  }
  return lines.slice(start, end);
}

class Parser {
  blocks: DocBlock[] = [];
  private i = 0;
  private literalAfter: number | null = null; // the indentation of a paragraph that ended with reST's `::`

  constructor(private lines: string[], private markdown: boolean) {}

  parse(): DocBlock[] {
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (isBlank(line)) {
        this.i++;
        continue;
      }
      const literal = this.literalAfter;
      this.literalAfter = null;
      if (literal !== null && this.indentedBlock(literal)) {
        continue;
      }
      this.block(line);
    }
    return this.blocks;
  }

  private push(block: DocBlock): void {
    this.blocks.push(block);
  }

  /** The block starting at the current line. */
  private block(line: string): void {
    const next = this.lines[this.i + 1];
    const fence = FENCE.exec(line);
    if (fence) {
      return this.fenced(fence);
    }
    if (/^\s*>>>/.test(line)) {
      return this.untilBlank(text => this.push({ kind: 'code', text }));
    }
    const heading = MD_HEADING.exec(line);
    if (heading && this.markdown) {
      this.i++;
      return this.push({ kind: 'heading', text: heading[2] });
    }
    if (!isBlank(line) && next !== undefined && UNDERLINE.test(next) && !BULLET.test(line) && indentOf(line) === indentOf(next)) {
      this.i += 2;
      return this.push({ kind: 'heading', text: line.trim() });
    }
    const directive = DIRECTIVE.exec(line);
    if (directive) {
      return this.directive(directive[1].toLowerCase(), directive[2]);
    }
    const section = GOOGLE_SECTION.exec(line);
    if (section && indentOf(next ?? '') > indentOf(line)) {
      return this.googleSection(section[1], indentOf(line));
    }
    if (this.isField(line)) {
      return this.fields();
    }
    if (BULLET.test(line)) {
      return this.list();
    }
    if (this.markdown && indentOf(line) >= 4) {
      if (this.indentedBlock(0)) {
        return;
      }
    }
    this.paragraph();
  }

  private fenced(fence: RegExpExecArray): void {
    const [, indent, marks] = fence;
    const body: string[] = [];
    this.i++;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i++];
      const close = line.trim();
      if (close.startsWith(marks[0].repeat(marks.length)) && /^[`~]+$/.test(close)) {
        break;
      }
      body.push(line.slice(Math.min(indent.length, indentOf(line))));
    }
    this.push({ kind: 'code', text: body.join('\n') });
  }

  private untilBlank(done: (text: string) => void): void {
    const body: string[] = [];
    while (this.i < this.lines.length && !isBlank(this.lines[this.i])) {
      body.push(this.lines[this.i++]);
    }
    done(dedent(body).join('\n'));
  }

  /** A reST field (`:param x:`), or a JSDoc tag (`@param x`) in a Markdown comment. */
  private isField(line: string): boolean {
    return REST_FIELD.test(line) || (this.markdown && JSDOC_TAG.test(line));
  }

  /**
   * Lines indented deeper than `floor` (blank lines inside kept) as a code block; false when the
   * current line is not indented that deep.
   */
  private indentedBlock(floor: number): boolean {
    if (indentOf(this.lines[this.i]) <= floor) {
      return false;
    }
    const body: string[] = [];
    while (this.i < this.lines.length && (isBlank(this.lines[this.i]) || indentOf(this.lines[this.i]) > floor)) {
      body.push(this.lines[this.i++]);
    }
    this.push({ kind: 'code', text: trimBlank(dedent(body)).join('\n') });
    return true;
  }

  /** The lines under a line at `indent`: everything indented deeper (blank lines inside kept). */
  private takeIndented(indent: number): string[] {
    const body: string[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (!isBlank(line) && indentOf(line) <= indent) {
        break;
      }
      body.push(line);
      this.i++;
    }
    return trimBlank(dedent(body));
  }

  private directive(name: string, argument: string): void {
    const indent = indentOf(this.lines[this.i]);
    this.i++;
    const body = this.takeIndented(indent);
    if (['code-block', 'code', 'sourcecode', 'doctest', 'testcode'].includes(name)) {
      let options = 0; // `:linenos:` and the like come first
      while (options < body.length && /^:[\w-]+:/.test(body[options])) {
        options++;
      }
      this.push({ kind: 'code', text: trimBlank(body.slice(options)).join('\n') });
      return;
    }
    const title = name.replace(/[-_]/g, ' ').replace(/^\w/, c => c.toUpperCase());
    this.push({ kind: 'heading', text: argument ? `${title}: ${argument}` : title });
    this.blocks.push(...new Parser(body, this.markdown).parse());
  }

  /** Google style: `Args:` then indented entries, each maybe continued deeper still. */
  private googleSection(title: string, indent: number): void {
    this.i++;
    const body = this.takeIndented(indent);
    if (/^Examples?$/.test(title)) {
      this.push({ kind: 'heading', text: title });
      this.blocks.push(...new Parser(body, this.markdown).parse());
      return;
    }
    const items: DocField[] = [];
    for (const line of body) {
      if (isBlank(line)) {
        continue;
      }
      if (indentOf(line) > 0 && items.length) {
        const last = items[items.length - 1];
        last.text = `${last.text} ${line.trim()}`.trim();
        continue;
      }
      const entry = /^([\w.*]+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$/.exec(line);
      const typed = /^([\w.[\], |]+):\s+(.+)$/.exec(line); // Returns: "dict: the rows"
      if (entry && /^(Args|Arguments|Parameters|Params|Other Parameters|Keyword Args|Keyword Arguments|Attributes)$/.test(title)) {
        items.push({ name: entry[1], type: entry[2] ?? '', text: entry[3] });
      } else if (typed && /^(Returns?|Yields?|Raises|Throws|Exceptions)$/.test(title)) {
        items.push({ name: '', type: typed[1].trim(), text: typed[2] });
      } else {
        items.push({ name: '', type: '', text: line.trim() });
      }
    }
    this.push({ kind: 'fields', label: title.replace(/^Args$/, 'Parameters'), items });
  }

  /** reST field lists and JSDoc tags, grouped by what they say (parameters, returns…). */
  private fields(): void {
    const groups = new Map<string, DocField[]>();
    const types = new Map<string, string>();
    let last: DocField | null = null;
    let lastIndent = 0;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (isBlank(line)) {
        // a blank line ends the fields unless more fields follow it
        let j = this.i;
        while (j < this.lines.length && isBlank(this.lines[j])) {
          j++;
        }
        if (j < this.lines.length && this.isField(this.lines[j])) {
          this.i = j;
          continue;
        }
        break;
      }
      const rest = REST_FIELD.exec(line);
      const jsdoc = rest || !this.markdown ? null : JSDOC_TAG.exec(line);
      if (!rest && !jsdoc) {
        // a continuation: deeper indented (reST) or any untagged line (JSDoc)
        if (last && (this.markdown || indentOf(line) > lastIndent)) {
          last.text = `${last.text} ${line.trim()}`.trim();
          this.i++;
          continue;
        }
        break;
      }
      lastIndent = indentOf(line);
      this.i++;
      let tag: string;
      let name = '';
      let type = '';
      let text: string;
      if (rest) {
        tag = rest[1].toLowerCase();
        const words = (rest[2] ?? '').trim().split(/\s+/).filter(Boolean);
        name = words.pop() ?? '';
        type = words.join(' ');
        text = rest[3] ?? '';
      } else {
        tag = jsdoc![1].toLowerCase();
        text = jsdoc![2];
        if (tag === 'example') {
          const body: string[] = text ? [text] : [];
          while (this.i < this.lines.length && !JSDOC_TAG.test(this.lines[this.i])) {
            body.push(this.lines[this.i++]);
          }
          const code = trimBlank(body).join('\n').replace(/^\s*```[\w-]*\n?|\n?```\s*$/g, '');
          this.push({ kind: 'heading', text: 'Example' });
          this.push({ kind: 'code', text: code });
          last = null;
          continue;
        }
        const braced = /^\{([^}]*)\}\s*(.*)$/.exec(text);
        if (braced) {
          type = braced[1];
          text = braced[2];
        }
        if (NAMED_TAGS.has(tag)) {
          const named = /^(\[[^\]]*\]|[\w$.]+)\s*(?:-\s+)?(.*)$/.exec(text);
          if (named) {
            name = named[1].replace(/^\[([^=\]]*)(?:=[^\]]*)?\]$/, '$1');
            text = named[2];
          }
        } else if (tag === 'returns' || tag === 'return') {
          text = text.replace(/^-\s+/, '');
        }
      }
      if (tag === 'type' || tag === 'vartype') {
        types.set(name, text); // `:type x: int` gives x's type
        last = null;
        continue;
      }
      if (tag === 'rtype' || tag === 'ytype') {
        type = text;
        text = '';
        const label = FIELD_LABELS[tag];
        const group = groups.get(label) ?? [];
        if (group.length && !group[group.length - 1].type) {
          group[group.length - 1].type = type; // the `:returns:` before it gets its type
          groups.set(label, group);
          last = null;
          continue;
        }
      }
      if (!rest && !NAMED_TAGS.has(tag) && !(tag in FIELD_LABELS)) {
        text = `@${tag} ${text}`.trim(); // a tag we have no title for: shown as written
      }
      const label = FIELD_LABELS[tag] ?? (rest ? tag.replace(/^\w/, c => c.toUpperCase()) : 'Tags');
      const group = groups.get(label) ?? [];
      const previous = group[group.length - 1];
      if (label === 'Returns' && previous && !name && !previous.text && !type) {
        previous.text = text; // `:rtype: bool` then `:returns: whether`: one entry
        last = previous;
        continue;
      }
      last = { name, type, text };
      groups.set(label, [...group, last]);
    }
    for (const [label, items] of groups) {
      for (const item of items) {
        item.type = item.type || types.get(item.name) || '';
      }
      this.push({ kind: 'fields', label, items });
    }
  }

  private list(): void {
    const first = BULLET.exec(this.lines[this.i])!;
    const ordered = /\d/.test(first[2]);
    const indent = first[1].length;
    const items: string[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      const bullet = BULLET.exec(line);
      if (bullet && bullet[1].length === indent && /\d/.test(bullet[2]) === ordered) {
        items.push(bullet[3].trim());
        this.i++;
        continue;
      }
      if (!isBlank(line) && indentOf(line) > indent && items.length) {
        items[items.length - 1] += ` ${line.trim()}`;
        this.i++;
        continue;
      }
      if (isBlank(line)) {
        // items may be separated by blank lines
        let j = this.i;
        while (j < this.lines.length && isBlank(this.lines[j])) {
          j++;
        }
        const again = BULLET.exec(this.lines[j] ?? '');
        if (again && again[1].length === indent) {
          this.i = j;
          continue;
        }
      }
      break;
    }
    this.push({ kind: 'list', ordered, items });
  }

  private paragraph(): void {
    const body: string[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (isBlank(line)) {
        break;
      }
      if (body.length && this.startsBlock(line)) {
        break;
      }
      body.push(line);
      this.i++;
    }
    let text: string;
    if (this.markdown) {
      // Markdown: lines run together; a line ending in two spaces or a backslash breaks.
      text = body.map((line, index) => {
        const hard = /( {2,}|\\)$/.test(line) && index < body.length - 1;
        return line.trim().replace(/\\$/, '') + (hard ? '\n' : index < body.length - 1 ? ' ' : '');
      }).join('');
    } else {
      // A docstring keeps its line breaks (and the indentation inside the paragraph).
      text = dedent(body).join('\n').replace(/\s+$/, '');
    }
    if (!this.markdown && text.endsWith('::')) {
      // reST: "Example::" introduces a literal block and reads "Example:"; " ::" and a lone "::"
      // introduce it and are dropped.
      this.literalAfter = Math.min(...body.map(indentOf));
      text = text === '::' || /\s::$/.test(text) ? text.slice(0, -2).replace(/\s+$/, '') : text.slice(0, -1);
    }
    if (text) {
      this.push({ kind: 'paragraph', text });
    }
  }

  /** A line that starts another block and so ends a paragraph without a blank line. */
  private startsBlock(line: string): boolean {
    return FENCE.test(line) || this.isField(line) || /^\s*>>>/.test(line) || DIRECTIVE.test(line) ||
      BULLET.test(line) || (this.markdown && MD_HEADING.test(line));
  }
}

/** The blocks of a doc comment written in `language`. */
export function parseDoc(doc: string, language: string): DocBlock[] {
  const lines = doc.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  return new Parser(lines, isMarkdown(language)).parse();
}

/** Inline markup: code, strong, emphasis, links, reST roles and JSDoc {@link}. */
const INLINE = new RegExp(
  [
    '``(.+?)``', // 1 reST literal / Markdown double backticks
    ':[\\w:.+-]+:`([^`]+)`', // 2 reST role (:class:`Foo`)
    '`([^`\\n]+)`', // 3 Markdown code / reST interpreted text
    '\\*\\*(\\S(?:.*?\\S)?)\\*\\*', // 4 strong
    '(?<![\\w*])\\*(?![\\s*])(.+?)(?<![\\s*])\\*(?![\\w*])', // 5 emphasis
    '\\[([^\\]\\n]+)\\]\\((https?://[^\\s)]+)\\)', // 6, 7 a Markdown link
    '\\{@link(?:code|plain)?\\s+([^}\\s|]+)(?:[\\s|]+([^}]*))?\\}', // 8, 9 JSDoc link
    '(https?://[^\\s<>()]*[^\\s<>().,;:!?\'"])' // 10 a bare URL
  ].join('|'),
  'g'
);

function link(href: string, label: string): HTMLElement {
  const anchor = document.createElement('a');
  anchor.href = href; // http(s) only: the patterns above allow nothing else
  anchor.textContent = label;
  anchor.target = '_blank';
  anchor.rel = 'noopener noreferrer';
  return anchor;
}

function tagged(tag: 'code' | 'strong' | 'em', text: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

/** `text` with its inline markup as elements: everything else stays text. */
export function renderInline(text: string, into: HTMLElement): void {
  let at = 0;
  const pattern = new RegExp(INLINE.source, 'g'); // its own lastIndex: this recurses
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const index = match.index;
    if (index > at) {
      into.append(text.slice(at, index));
    }
    const [, literal, role, code, strong, em, label, href, linked, linkLabel, url] = match;
    if (literal !== undefined || code !== undefined) {
      into.append(tagged('code', literal ?? code));
    } else if (role !== undefined) {
      // :func:`~pkg.mod.name` shows `name`; :class:`Text <pkg.Target>` shows `Text`
      const shown = role.replace(/\s*<[^>]*>$/, '');
      into.append(tagged('code', shown.startsWith('~') ? shown.slice(1).split('.').pop()! : shown));
    } else if (strong !== undefined) {
      const node = tagged('strong', '');
      renderInline(strong, node);
      into.append(node);
    } else if (em !== undefined) {
      const node = tagged('em', '');
      renderInline(em, node);
      into.append(node);
    } else if (label !== undefined) {
      into.append(link(href, label));
    } else if (linked !== undefined) {
      into.append(tagged('code', linkLabel?.trim() || linked));
    } else if (url !== undefined) {
      into.append(link(url, url));
    }
    at = index + match[0].length;
  }
  if (at < text.length) {
    into.append(text.slice(at));
  }
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

/** Beyond this many lines (or characters) of source a doc comment starts collapsed. */
export const DOC_COLLAPSED_LINES = 6;
export const DOC_COLLAPSED_CHARS = 400;
let docs = 0;

/**
 * The doc comment as blocks (paragraphs, code, lists, fields), collapsed with a "more" toggle
 * when longer than a few lines. Returns the element to put in the card.
 */
export function renderDoc(doc: string, language: string): HTMLElement {
  const wrapper = element('div', 'jp-CodeTrace-doc-box');
  const box = element('div', `jp-CodeTrace-doc${isMarkdown(language) ? '' : ' jp-mod-docstring'}`);
  box.id = `jp-codetrace-doc-${++docs}`;
  for (const block of parseDoc(doc, language)) {
    if (block.kind === 'paragraph') {
      const p = element('p', '');
      renderInline(block.text, p);
      box.append(p);
    } else if (block.kind === 'code') {
      const pre = element('pre', 'jp-CodeTrace-doc-code');
      pre.textContent = block.text;
      box.append(pre);
    } else if (block.kind === 'heading') {
      const heading = element('div', 'jp-CodeTrace-doc-heading');
      heading.setAttribute('role', 'heading');
      heading.setAttribute('aria-level', '4');
      renderInline(block.text, heading);
      box.append(heading);
    } else if (block.kind === 'list') {
      const list = element(block.ordered ? 'ol' : 'ul', 'jp-CodeTrace-doc-list');
      for (const item of block.items) {
        const li = element('li', '');
        renderInline(item, li);
        list.append(li);
      }
      box.append(list);
    } else {
      const heading = element('div', 'jp-CodeTrace-doc-heading');
      heading.setAttribute('role', 'heading');
      heading.setAttribute('aria-level', '4');
      heading.textContent = block.label;
      const list = element('ul', 'jp-CodeTrace-doc-fields');
      list.setAttribute('aria-label', block.label);
      for (const field of block.items) {
        const li = element('li', '');
        if (field.name) {
          li.append(tagged('code', field.name));
        }
        if (field.type) {
          const type = element('span', 'jp-CodeTrace-doc-type');
          type.textContent = field.name ? ` (${field.type})` : field.type;
          li.append(type);
        }
        if (field.text) {
          if (field.name || field.type) {
            li.append(' — ');
          }
          renderInline(field.text, li);
        }
        list.append(li);
      }
      box.append(heading, list);
    }
  }
  wrapper.append(box);
  if (doc.trim().split('\n').length > DOC_COLLAPSED_LINES || doc.length > DOC_COLLAPSED_CHARS) {
    box.classList.add('jp-mod-collapsed');
    const toggle = element('button', 'jp-CodeTrace-doc-toggle');
    toggle.textContent = 'more';
    toggle.setAttribute('aria-expanded', 'false');
    toggle.setAttribute('aria-controls', box.id);
    toggle.title = 'Show the whole documentation';
    toggle.addEventListener('click', () => {
      const open = box.classList.toggle('jp-mod-collapsed') === false;
      toggle.textContent = open ? 'less' : 'more';
      toggle.title = open ? 'Show the first lines only' : 'Show the whole documentation';
      toggle.setAttribute('aria-expanded', String(open));
    });
    wrapper.append(toggle);
  }
  return wrapper;
}
