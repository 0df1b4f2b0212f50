// Compliance by organisation and unit: one row per group (an organisation for a national
// administrator at the top; then the units of one level, each counting its whole subtree), one
// column per required course with the share of its people compliant, and the group's share over
// every course. A group with units below it opens them (drill-down); "People" lists its people.
import { Button, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { currentLanguage, i18n } from '@/lib/i18n/i18n';
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

/** The rows grouped by organisation or unit, in the order the API gave them; `t` names the groups without a name
 * (the compliance catalogue, in the page's language unless given). */
export function groupUnitRows(
  rows: ComplianceUnitRow[],
  level: 'organisation' | 'unit',
  currentUnitId?: string,
  t: TFunction = i18n.getFixedT(null, 'compliance'),
): {
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
      const fallback = level === 'organisation' ? t('complianceByUnit.noOrganisation') : t('complianceByUnit.notInUnit');
      const name = row.name ?? fallback;
      group = {
        id, organisationId: row.organisationId, unitId: row.unitId,
        name: level === 'unit' && id !== null && id === currentUnitId ? t('complianceByUnit.placedHere', { name }) : name,
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
    courses: [...courses].map(([id, title]) => ({ id, title })).sort((a, b) => a.title.localeCompare(b.title, currentLanguage())),
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
  const { t } = useTranslation('compliance');
  const { groups, courses } = groupUnitRows(rows, level, currentUnitId, t);
  if (groups.length === 0) {
    return <Text c="dimmed">{t('complianceByUnit.none')}</Text>;
  }
  return (
    // Wider than a phone: the region that scrolls sideways takes the focus, so it scrolls from the keyboard too (WCAG 2.1.1).
    <Table.ScrollContainer
      minWidth={560}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t(`complianceByUnit.tableLabel.${level}`) } }}
    >
      <Table striped aria-label={t(`complianceByUnit.tableLabel.${level}`)}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t(`complianceByUnit.group.${level}`)}</Table.Th>
            {courses.map((c) => (
              <Table.Th scope="col" key={c.id}>
                {c.title}
              </Table.Th>
            ))}
            <Table.Th scope="col">{t('complianceByUnit.allCourses')}</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>{t('complianceByUnit.actions')}</VisuallyHidden>
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
                        {t('complianceByUnit.notRequired')}
                      </Text>
                    </Table.Td>
                  );
                }
                const share = compliantShare(counts.compliant, counts.people);
                return (
                  <Table.Td key={c.id} data-course={c.id} data-share={share}>
                    <Tooltip label={t('complianceByUnit.compliantOf', { compliant: counts.compliant, people: counts.people })}>
                      <Text size="sm" span fw={share < 50 ? 700 : undefined}>
                        {share}%{' '}
                        <Text size="xs" c="dimmed" span>
                          {t('complianceByUnit.ofPeople', { compliant: counts.compliant, people: counts.people })}
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
                    <Button size="compact-sm" variant="light" onClick={() => onOpen(g)} aria-label={t('complianceByUnit.openUnits', { name: g.name })}>
                      {t('complianceByUnit.units')}
                    </Button>
                  )}
                  {g.id !== null && (
                    <Button size="compact-sm" variant="default" onClick={() => onPeople(g)} aria-label={t('complianceByUnit.showPeople', { name: g.name })}>
                      {t('complianceByUnit.people')}
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
