// Reordering by "move up" / "move down" buttons (modules of a course, questions of a quiz).

/** The ids with the one at `index` moved by `delta`; null at the ends, where it cannot move. */
export function moveId(ids: string[], index: number, delta: -1 | 1): string[] | null {
  const target = index + delta;
  if (target < 0 || target >= ids.length) return null;
  const next = [...ids];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}
