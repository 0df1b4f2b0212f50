// The preview: how many rows are ready and how many have problems, and every row (paged), with a
// filter to see only the rows with problems or only the ready ones.
import { useMemo, useState } from 'react';
import { Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import type { ImportPreview } from '@shared/user-import.ts';
import { ROLE_LABELS, type Role } from '@shared/domain.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { PageControls, usePage } from './PagedTable';
import { ProblemList } from './ProblemList';

type Show = 'all' | 'problems' | 'ready';

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

export function ImportSummary({ preview }: { preview: ImportPreview }) {
  return (
    <Text fw={500} data-testid="import-summary">
      {count(preview.total, 'row', 'rows')}: {count(preview.valid, 'ready to import', 'ready to import')},{' '}
      {count(preview.invalid, 'with problems', 'with problems')}
    </Text>
  );
}

export function ImportPreviewTable({ preview }: { preview: ImportPreview }) {
  const [show, setShow] = useState<Show>(preview.invalid > 0 ? 'problems' : 'all');
  const rows = useMemo(
    () => preview.rows.filter((row) => show === 'all' || (show === 'problems') === (row.problems.length > 0)),
    [preview, show],
  );
  const { page, pages, setPage, visible } = usePage(rows, `${show}:${preview.total}`);
  // Organisation, unit and manager columns only when the file places someone.
  const placed = useMemo(() => preview.rows.some((row) => row.organisation || row.unit || row.manager), [preview]);

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <ImportSummary preview={preview} />
        <SegmentedControl
          aria-label="Rows to show"
          value={show}
          onChange={(value) => setShow(value as Show)}
          data={[
            { value: 'all', label: `All (${preview.total.toLocaleString('en-GB')})` },
            { value: 'problems', label: `With problems (${preview.invalid.toLocaleString('en-GB')})` },
            { value: 'ready', label: `Ready (${preview.valid.toLocaleString('en-GB')})` },
          ]}
        />
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed">{show === 'problems' ? 'No row has a problem.' : 'No row is ready to import.'}</Text>
      ) : (
        // With the organisation, unit and manager columns the table is wider than the page: the
        // region that scrolls sideways takes the focus, so it scrolls from the keyboard too (WCAG 2.1.1).
        <Table.ScrollContainer
          minWidth={900}
          scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Rows of the file (scrolls sideways)' } }}
        >
          <Table striped aria-label="Rows of the file" data-testid="preview-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Line</Table.Th>
                <Table.Th scope="col">Username</Table.Th>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col">Services</Table.Th>
                {placed ? (
                  <>
                    <Table.Th scope="col">Organisation</Table.Th>
                    <Table.Th scope="col">Unit</Table.Th>
                    <Table.Th scope="col">Manager</Table.Th>
                  </>
                ) : null}
                <Table.Th scope="col">Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {visible.map((row) => (
                <Table.Tr key={row.line} data-line={row.line}>
                  <Table.Td>{row.line}</Table.Td>
                  <Table.Td>{row.username || '-'}</Table.Td>
                  <Table.Td>{row.email || '-'}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'pre-line' }}>{row.name || '-'}</Table.Td>
                  <Table.Td>{ROLE_LABELS[row.role as Role] ?? (row.role || '-')}</Table.Td>
                  <Table.Td>
                    {row.services.length === 0 ? '-' : (
                      <Group gap={4}>{row.services.map((code) => <ServiceBadge key={code} code={code} />)}</Group>
                    )}
                  </Table.Td>
                  {placed ? (
                    <>
                      <Table.Td>{row.organisation || '-'}</Table.Td>
                      <Table.Td>{row.unit || '-'}</Table.Td>
                      <Table.Td>{row.manager || '-'}</Table.Td>
                    </>
                  ) : null}
                  <Table.Td><ProblemList problems={row.problems} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PageControls page={page} pages={pages} total={rows.length} noun="rows" onChange={setPage} label="Pages of the file's rows" />
    </Stack>
  );
}
