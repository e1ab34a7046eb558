/** View logic of the panel with no DOM or server in it: unit-tested by test/view.test.ts. */

export interface Location {
  file: string;
  line: number;
  column?: number;
  cell?: number | null;
}

/** Where a location reads "file:line" (or "file cell N:line" for notebooks). */
export function describeLocation(location: Location): string {
  const cell = location.cell !== undefined && location.cell !== null ? ` cell ${location.cell}` : '';
  return `${location.file}${cell}:${location.line}`;
}

/** Group reference locations by file, optionally without test files. */
export function groupByFile<T extends { file: string; test?: boolean }>(
  items: T[],
  hideTests: boolean
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    if (hideTests && item.test) {
      continue;
    }
    const group = groups.get(item.file) ?? [];
    group.push(item);
    groups.set(item.file, group);
  }
  return groups;
}


/** The symbol a search match stands for: `Container.name`, as the trace route takes it. */
export function matchSymbol(match: { name: string; container?: string | null }): string {
  return match.container ? `${match.container}.${match.name}` : match.name;
}
