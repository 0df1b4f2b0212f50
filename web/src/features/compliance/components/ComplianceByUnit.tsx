// Compliance by organisation and unit: one row per group (an organisation for a national
// administrator at the top; then the units of one level, each counting its whole subtree), one
// column per required course with the share of its people compliant, and the group's share over
// every course. A group with units below it opens them (drill-down); "People" lists its people.
import { Button, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { compliantShare, type ComplianceUnitRow } from '@shared/compliance.ts';

export interface UnitGroup {
  /** The organisation (national top level) or the unit; null for "no organisation" / "no unit". */
  id: string | null;
  organisationId: string | null;
  unitId: string | null;
  name: string;
  hasUnits: boolean;
  people: number;
  compliant: number;
  courses: Map<string, { people: number; compliant: number }>;
}

/** The rows grouped by organisation or unit, in the order the API gave them. */
export function groupUnitRows(rows: ComplianceUnitRow[], level: 'organisation' | 'unit', currentUnitId?: string): {
  groups: UnitGroup[];
  courses: { id: string; title: string }[];
} {
  const groups = new Map<string, UnitGroup>();
  const courses = new Map<string, string>();
  for (const row of rows) {
    const id = level === 'organisation' ? row.organisationId : row.unitId;
    const key = id ?? 'none';
    let group = groups.get(key);
    if (!group) {
      const fallback = level === 'organisation' ? 'No organisation' : 'Not in a unit';
      const name = row.name ?? fallback;
      group = {
        id, organisationId: row.organisationId, unitId: row.unitId,
        name: level === 'unit' && id !== null && id === currentUnitId ? `${name} (placed here directly)` : name,
        hasUnits: row.hasUnits, people: 0, compliant: 0, courses: new Map(),
      };
      groups.set(key, group);
    }
    group.people += row.people;
    group.compliant += row.compliant;
    group.courses.set(row.course.id, { people: row.people, compliant: row.compliant });
    courses.set(row.course.id, row.course.title);
  }
  return {
    groups: [...groups.values()],
    courses: [...courses].map(([id, title]) => ({ id, title })).sort((a, b) => a.title.localeCompare(b.title, 'en-GB')),
  };
}

export function ComplianceByUnit({
  rows,
  level,
  currentUnitId,
  onOpen,
  onPeople,
}: {
  rows: ComplianceUnitRow[];
  level: 'organisation' | 'unit';
  currentUnitId?: string;
  /** Opens the group's units (an organisation's top level, or the units below a unit). */
  onOpen: (group: UnitGroup) => void;
  /** Lists the group's people. */
  onPeople: (group: UnitGroup) => void;
}) {
  const { groups, courses } = groupUnitRows(rows, level, currentUnitId);
  if (groups.length === 0) {
    return <Text c="dimmed">No required training for anyone here yet.</Text>;
  }
  const what = level === 'organisation' ? 'Organisation' : 'Unit';
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped aria-label={`Compliance by ${what.toLowerCase()}: the share of people compliant per course`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{what}</Table.Th>
            {courses.map((c) => (
              <Table.Th scope="col" key={c.id}>
                {c.title}
              </Table.Th>
            ))}
            <Table.Th scope="col">All courses</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((g) => (
            <Table.Tr key={g.id ?? 'none'} data-group={g.id ?? 'none'}>
              <Table.Th scope="row">{g.name}</Table.Th>
              {courses.map((c) => {
                const counts = g.courses.get(c.id);
                if (!counts) {
                  return (
                    <Table.Td key={c.id} data-course={c.id}>
                      <Text size="sm" c="dimmed" span>
                        Not required
                      </Text>
                    </Table.Td>
                  );
                }
                const share = compliantShare(counts.compliant, counts.people);
                return (
                  <Table.Td key={c.id} data-course={c.id} data-share={share}>
                    <Tooltip label={`${counts.compliant} of ${counts.people} compliant`}>
                      <Text size="sm" span fw={share < 50 ? 700 : undefined}>
                        {share}%{' '}
                        <Text size="xs" c="dimmed" span>
                          ({counts.compliant} of {counts.people})
                        </Text>
                      </Text>
                    </Tooltip>
                  </Table.Td>
                );
              })}
              <Table.Td data-share={compliantShare(g.compliant, g.people)}>
                <Text size="sm" fw={600} span>
                  {compliantShare(g.compliant, g.people)}%
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {g.id !== null && (level === 'organisation' || g.hasUnits) && (
                    <Button size="compact-sm" variant="light" onClick={() => onOpen(g)} aria-label={`Open ${g.name}: its units`}>
                      Units
                    </Button>
                  )}
                  {g.id !== null && (
                    <Button size="compact-sm" variant="default" onClick={() => onPeople(g)} aria-label={`Show the people of ${g.name}`}>
                      People
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
