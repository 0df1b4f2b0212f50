// An organisation's units as a tree (the answer of GET /api/organisations/:id/units is a flat list
// with parent ids). The people count as the tree shows it is in UnitTree (the catalogue's unitTree.people).
import type { Unit } from '@shared/organisations.ts';

export interface TreeNode {
  unit: Unit;
  children: TreeNode[];
  /** "North Area › Central Station" */
  path: string;
}

/** The units as a tree, each level in name order. */
export function buildTree(units: Unit[]): TreeNode[] {
  const byParent = new Map<string | null, Unit[]>();
  for (const u of units) {
    const list = byParent.get(u.parentId) ?? [];
    list.push(u);
    byParent.set(u.parentId, list);
  }
  const known = new Set(units.map((u) => u.id));
  const grow = (parentId: string | null, prefix: string): TreeNode[] =>
    (byParent.get(parentId) ?? [])
      .sort((a, b) => a.name.localeCompare(b.name, 'en-GB'))
      .map((unit) => {
        const path = prefix ? `${prefix} › ${unit.name}` : unit.name;
        return { unit, path, children: grow(unit.id, path) };
      });
  // A unit whose parent is not in the answer (never expected) is shown at the top level.
  const orphans = units.filter((u) => u.parentId !== null && !known.has(u.parentId)).map((u) => u.id);
  return [...grow(null, ''), ...orphans.flatMap((id) => grow(id, ''))];
}

/** The nodes and all their descendants, each before its children. */
export const flatten = (nodes: TreeNode[]): TreeNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
