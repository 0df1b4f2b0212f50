// What the import did: how many users were created and skipped, the one-time passwords (to read
// here and to download as CSV), and every skipped row with the reason.
import { forwardRef } from 'react';
import { Alert, Button, Code, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { ROLE_LABELS } from '@shared/domain.ts';
import type { ImportResult, SkippedRow } from '@shared/user-import.ts';
import { downloadText, passwordsCsv, passwordsFileName } from '../lib/passwords-csv';
import { PageControls, usePage } from './PagedTable';
import { ProblemList, READABLE_TITLE } from './ProblemList';

export interface ImportResultViewProps {
  result: ImportResult;
  /** Rows skipped before sending (problems in the preview). */
  skippedBefore: SkippedRow[];
  /** Rows never sent because the import stopped. */
  notSent: number;
  error: string | null;
}

const n = (value: number) => value.toLocaleString('en-GB');

function CreatedTable({ result }: { result: ImportResult }) {
  const { page, pages, setPage, visible } = usePage(result.created, result.created.length);
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={800}>
        <Table striped aria-label="Users created">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Line</Table.Th>
              <Table.Th scope="col">Username</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Role</Table.Th>
              <Table.Th scope="col">Temporary password</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visible.map((user) => (
              <Table.Tr key={user.id} data-created={user.username}>
                <Table.Td>{user.line}</Table.Td>
                <Table.Td>{user.username}</Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-line' }}>{user.name}</Table.Td>
                <Table.Td>{ROLE_LABELS[user.role]}</Table.Td>
                <Table.Td><Code>{user.temporaryPassword}</Code></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <PageControls page={page} pages={pages} total={result.created.length} noun="users" onChange={setPage} label="Pages of created users" />
    </Stack>
  );
}

function SkippedTable({ rows }: { rows: SkippedRow[] }) {
  const { page, pages, setPage, visible } = usePage(rows, rows.length);
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={800}>
        <Table striped aria-label="Rows skipped">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Line</Table.Th>
              <Table.Th scope="col">Username</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Why</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visible.map((row) => (
              <Table.Tr key={row.line} data-skipped={row.line}>
                <Table.Td>{row.line}</Table.Td>
                <Table.Td>{row.username || '-'}</Table.Td>
                <Table.Td>{row.email || '-'}</Table.Td>
                <Table.Td><ProblemList problems={row.problems} /></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <PageControls page={page} pages={pages} total={rows.length} noun="rows" onChange={setPage} label="Pages of skipped rows" />
    </Stack>
  );
}

export const ImportResultView = forwardRef<HTMLHeadingElement, ImportResultViewProps>(function ImportResultView(
  { result, skippedBefore, notSent, error },
  headingRef,
) {
  const skipped = [...skippedBefore, ...result.skipped].sort((a, b) => a.line - b.line);
  const created = result.created.length;
  return (
    <Stack>
      <Title order={2} ref={headingRef} tabIndex={-1}>
        {error ? 'Import stopped' : 'Import finished'}
      </Title>
      <Alert styles={READABLE_TITLE} color={error ? 'red' : 'teal'} variant="light" title={error ? 'Not every row was sent' : undefined}>
        <Text data-testid="import-outcome">
          {n(created)} {created === 1 ? 'user' : 'users'} created, {n(skipped.length)} skipped
          {notSent > 0 ? `, ${n(notSent)} not sent` : ''}.
        </Text>
        {error ? <Text mt="xs">{error}. The part in progress was rolled back; no user of it was half-created.</Text> : null}
      </Alert>
      {created > 0 ? (
        <Alert styles={READABLE_TITLE} color="yellow" variant="light" title="Temporary passwords are shown only once">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              Download them now and give each person theirs securely. They are not stored anywhere and cannot be shown
              again once you leave this page.
            </Text>
            <Button
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => downloadText(passwordsCsv(result.created), passwordsFileName())}
            >
              Download passwords (CSV)
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {created > 0 ? (
        <>
          <Title order={3}>Created ({n(created)})</Title>
          <CreatedTable result={result} />
        </>
      ) : null}
      {skipped.length > 0 ? (
        <>
          <Title order={3}>Skipped ({n(skipped.length)})</Title>
          <SkippedTable rows={skipped} />
        </>
      ) : null}
    </Stack>
  );
});
