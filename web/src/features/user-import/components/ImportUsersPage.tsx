// Import users (admins): choose a CSV file, see every row checked by the server, import the ready
// rows in parts with a progress bar, then read and download what was created and what was skipped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, FileInput, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, type ImportPreview, type SkippedRow } from '@shared/user-import.ts';
import { errorDescription } from '@/lib/api-client';
import { usePreviewImport } from '../api/preview-import';
import { useChunkedImport } from '../api/import-users';
import { downloadText, TEMPLATE_CSV } from '../lib/passwords-csv';
import { ImportPreviewTable } from './ImportPreviewTable';
import { ImportResultView } from './ImportResultView';
import { READABLE_TITLE } from './ProblemList';

const NOT_UTF8 = 'The file is not UTF-8 text. Save it as "CSV UTF-8" and try again.';

function skippedInPreview(preview: ImportPreview): SkippedRow[] {
  return preview.rows
    .filter((row) => row.problems.length > 0)
    .map((row) => ({ line: row.line, username: row.username, email: row.email, problems: row.problems }));
}

export function ImportUsersPage({ onImported }: { onImported?: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const preview = usePreviewImport();
  const { run, start, reset } = useChunkedImport(onImported);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const finished = run.status === 'done' || run.status === 'failed';

  useEffect(() => {
    if (finished) resultHeading.current?.focus();
  }, [finished]);

  const choose = useCallback(async (chosen: File | null) => {
    setFile(chosen);
    setFileError(null);
    preview.reset();
    reset();
    if (!chosen) return;
    if (chosen.size > IMPORT_MAX_BYTES) {
      setFileError('The file is larger than 2 MB. Split it into smaller files.');
      return;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await chosen.arrayBuffer());
    } catch {
      setFileError(NOT_UTF8);
      return;
    }
    preview.mutate(text);
  }, [preview, reset]);

  const data = preview.data;
  const ready = data ? data.rows.filter((row) => row.problems.length === 0) : [];
  const percent = run.total > 0 ? Math.round((run.done / run.total) * 100) : 0;

  return (
    <Stack>
      <Anchor component={Link} to="/admin?tab=users" size="sm">
        ← Back to users
      </Anchor>
      <div>
        <Title order={1}>Import users</Title>
        <Text c="dimmed">
          Create many accounts at once from a CSV file. Each person gets a temporary password, and is enrolled in the
          required training for their role and services.
        </Text>
      </div>

      <Stack gap="xs" maw={640}>
        <Text size="sm">
          The first line names the columns: <strong>username</strong>, <strong>email</strong> and <strong>name</strong>,
          and optionally <strong>role</strong> (Administrator: ADMIN, Instructor: INSTRUCTOR, Student: STUDENT, the
          default) and <strong>services</strong> (codes such as UKAS;MISC, separated by ; or |). Up to{' '}
          {IMPORT_MAX_ROWS.toLocaleString('en-GB')} users and 2 MB per file.
        </Text>
        <Text size="sm">
          Also optional: <strong>organisation</strong> (its code or name; an organisation&apos;s administrator may leave
          it empty or give their own), <strong>unit</strong> (a unit&apos;s name, or its path from the top such as
          North Area/Central Station when two units share a name) and <strong>manager</strong> (the username or email
          of a person of the organisation, or of another row of the file, best placed above the people they manage).
        </Text>
        <Group>
          <Button variant="default" size="xs" onClick={() => downloadText(TEMPLATE_CSV, 'users-template.csv')}>
            Download a template
          </Button>
        </Group>
        <FileInput
          label="CSV file"
          placeholder="Choose a file"
          accept=".csv,text/csv"
          leftSection={<IconFileTypeCsv size={18} aria-hidden />}
          value={file}
          onChange={(chosen) => void choose(chosen)}
          clearable
          clearButtonProps={{ 'aria-label': 'Remove the chosen file' }}
          disabled={run.status === 'running'}
          error={fileError}
        />
      </Stack>

      {preview.isPending ? <Text role="status">Checking the file…</Text> : null}
      {preview.isError ? (
        <Alert styles={READABLE_TITLE} color="red" variant="light" title="The file cannot be imported">
          {errorDescription(preview.error, 'The file could not be checked')}
        </Alert>
      ) : null}

      {data && !finished ? (
        <Stack>
          <Title order={2}>Preview</Title>
          <ImportPreviewTable preview={data} />
          {run.status === 'running' ? (
            <Stack gap={4}>
              <Progress value={percent} size="lg" aria-label={`Imported ${run.done} of ${run.total} rows`} animated />
              <Text size="sm" role="status">
                Importing… {run.done.toLocaleString('en-GB')} of {run.total.toLocaleString('en-GB')} rows sent ({percent}%)
              </Text>
            </Stack>
          ) : (
            <Group>
              <Button onClick={() => void start(ready)} disabled={ready.length === 0}>
                Import {ready.length.toLocaleString('en-GB')} {ready.length === 1 ? 'user' : 'users'}
              </Button>
              {data.invalid > 0 ? (
                <Text size="sm" c="dimmed">Rows with problems are left out; fix them and import that file again.</Text>
              ) : null}
            </Group>
          )}
        </Stack>
      ) : null}

      {data && finished ? (
        <Stack>
          <ImportResultView
            ref={resultHeading}
            result={run.result}
            skippedBefore={skippedInPreview(data)}
            notSent={run.total - run.done}
            error={run.error}
          />
          <Group>
            <Button variant="default" onClick={() => void choose(null)}>Import another file</Button>
            <Button component={Link} to="/admin?tab=users" variant="subtle">Back to users</Button>
          </Group>
        </Stack>
      ) : null}
    </Stack>
  );
}
