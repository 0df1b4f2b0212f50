// Import users (admins): choose a CSV file, see every row checked by the server, import the ready
// rows in parts with a progress bar, then read and download what was created and what was skipped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Anchor, Button, FileInput, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, type ImportPreview, type SkippedRow } from '@shared/user-import.ts';
import { errorDescription } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { usePreviewImport } from '../api/preview-import';
import { useChunkedImport } from '../api/import-users';
import { downloadText, TEMPLATE_CSV } from '../lib/passwords-csv';
import { ImportPreviewTable } from './ImportPreviewTable';
import { ImportResultView } from './ImportResultView';
import { READABLE_TITLE } from './ProblemList';

function skippedInPreview(preview: ImportPreview): SkippedRow[] {
  return preview.rows
    .filter((row) => row.problems.length > 0)
    .map((row) => ({ line: row.line, username: row.username, email: row.email, problems: row.problems }));
}

export function ImportUsersPage({ onImported }: { onImported?: () => void }) {
  const { t } = useTranslation('user-import');
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
      setFileError(t('importUsersPage.tooLarge'));
      return;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await chosen.arrayBuffer());
    } catch {
      setFileError(t('importUsersPage.notUtf8'));
      return;
    }
    preview.mutate(text);
  }, [preview, reset, t]);

  const data = preview.data;
  const ready = data ? data.rows.filter((row) => row.problems.length === 0) : [];
  const percent = run.total > 0 ? Math.round((run.done / run.total) * 100) : 0;

  return (
    <Stack>
      <Anchor component={Link} to="/admin?tab=users" size="sm">
        ← {t('importUsersPage.backToUsers')}
      </Anchor>
      <div>
        <Title order={1}>{t('importUsersPage.title')}</Title>
        <Text c="dimmed">{t('importUsersPage.intro')}</Text>
      </div>

      <Stack gap="xs" maw={640}>
        <Text size="sm">
          <Trans
            t={t}
            i18nKey="importUsersPage.columnsRequired"
            values={{ maxRows: formatNumber(IMPORT_MAX_ROWS) }}
            components={{ strong: <strong /> }}
          />
        </Text>
        <Text size="sm">
          <Trans t={t} i18nKey="importUsersPage.columnsOptional" components={{ strong: <strong /> }} />
        </Text>
        <Group>
          <Button variant="default" size="xs" onClick={() => downloadText(TEMPLATE_CSV, 'users-template.csv')}>
            {t('importUsersPage.downloadTemplate')}
          </Button>
        </Group>
        <FileInput
          label={t('importUsersPage.fileLabel')}
          placeholder={t('importUsersPage.filePlaceholder')}
          accept=".csv,text/csv"
          leftSection={<IconFileTypeCsv size={18} aria-hidden />}
          value={file}
          onChange={(chosen) => void choose(chosen)}
          clearable
          clearButtonProps={{ 'aria-label': t('importUsersPage.removeFile') }}
          disabled={run.status === 'running'}
          error={fileError}
        />
      </Stack>

      {preview.isPending ? <Text role="status">{t('importUsersPage.checking')}</Text> : null}
      {preview.isError ? (
        <Alert styles={READABLE_TITLE} color="red" variant="light" title={t('importUsersPage.cannotImport')}>
          {errorDescription(preview.error, t('importUsersPage.couldNotCheck'))}
        </Alert>
      ) : null}

      {data && !finished ? (
        <Stack>
          <Title order={2}>{t('importUsersPage.preview')}</Title>
          <ImportPreviewTable preview={data} />
          {run.status === 'running' ? (
            <Stack gap={4}>
              <Progress value={percent} size="lg" aria-label={t('importUsersPage.progressLabel', { done: run.done, total: run.total })} animated />
              <Text size="sm" role="status">
                {t('importUsersPage.progress', { done: formatNumber(run.done), total: formatNumber(run.total), percent })}
              </Text>
            </Stack>
          ) : (
            <Group>
              <Button onClick={() => void start(ready)} disabled={ready.length === 0}>
                {t('importUsersPage.importButton', { count: ready.length, n: formatNumber(ready.length) })}
              </Button>
              {data.invalid > 0 ? (
                <Text size="sm" c="dimmed">{t('importUsersPage.problemsLeftOut')}</Text>
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
            <Button variant="default" onClick={() => void choose(null)}>{t('importUsersPage.importAnother')}</Button>
            <Button component={Link} to="/admin?tab=users" variant="subtle">{t('importUsersPage.backToUsers')}</Button>
          </Group>
        </Stack>
      ) : null}
    </Stack>
  );
}
