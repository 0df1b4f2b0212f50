// "Available offline" for an enrolled course: one tap asks the server what the course holds and its
// size, checks the device has room (the browser's quota), then downloads its answers and files with
// a progress bar; a badge then says it is available offline and since when, and one tap removes it.
import { Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconCloudCheck, IconCloudDownload, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDescription } from '@/lib/api-client';
import { formatDateTime, formatSize } from '@/lib/format';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { type DownloadProgress, downloadBytes, getOfflineCourse, packagesOffline, StorageFullError } from '@/lib/offline/downloads';
import { useDownloadCourse, useDownloads, useRemoveDownload } from '@/lib/offline/hooks';

export function OfflineCourseControl({ personId, courseId, title }: { personId: string; courseId: string; title: string }) {
  const { t } = useTranslation();
  const downloads = useDownloads(personId);
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [checking, setChecking] = useState(false);
  const download = useDownloadCourse(personId, setProgress);
  const remove = useRemoveDownload(personId);
  const downloadButton = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const kept = downloads.data?.find((course) => course.courseId === courseId);

  function failed(error: unknown) {
    setProgress(null);
    const description = error instanceof StorageFullError
      ? error.free === null
        ? t('offline.storageFullUnknown')
        : t('offline.storageFull', { needed: formatSize(error.needed), free: formatSize(error.free) })
      : errorDescription(error, t('request.failed'));
    notifyFailure(t('offline.downloadFailed'), description);
    setTimeout(() => downloadButton.current?.focus(), 0);
  }

  async function start() {
    setChecking(true);
    try {
      const offline = await getOfflineCourse(courseId);
      setProgress({ doneBytes: 0, totalBytes: downloadBytes(offline) });
      const course = await download.mutateAsync(offline);
      setProgress(null);
      const note = packagesOffline(course) ? '' : ` ${t('offline.packagesNeedConnection')}`;
      notifySuccess(t('offline.available'), `${t('offline.downloaded', { title })}${note}`);
      // The button gives way to the badge and Remove: the focus goes to Remove.
      setTimeout(() => removeButton.current?.focus(), 0);
    } catch (error) {
      failed(error);
    } finally {
      setChecking(false);
    }
  }

  if (!('caches' in globalThis) || !downloads.isSuccess) return null;

  if (progress) {
    const value = progress.totalBytes > 0 ? Math.round((100 * progress.doneBytes) / progress.totalBytes) : 100;
    const label = t('offline.downloading', { done: formatSize(progress.doneBytes), total: formatSize(progress.totalBytes) });
    return (
      <Stack gap={4} data-testid="offline-download-progress">
        <Text size="sm" role="status">
          {label}
        </Text>
        <Progress value={value} aria-label={t('offline.progressLabel')} />
      </Stack>
    );
  }

  if (kept) {
    return (
      <Stack gap={4} align="flex-start">
        <Group gap="xs">
          <Badge color="teal.9" variant="filled" leftSection={<IconCloudCheck size={14} aria-hidden="true" />} data-testid="offline-badge">
            {t('offline.available')}
          </Badge>
          <Text size="xs" c="dimmed">
            {t('offline.savedOn', { date: formatDateTime(kept.downloadedAt), size: formatSize(kept.bytes) })}
          </Text>
        </Group>
        <Button
          ref={removeButton}
          size="xs"
          variant="default"
          leftSection={<IconTrash size={14} aria-hidden="true" />}
          aria-label={t('offline.removeLabel', { title })}
          loading={remove.isPending}
          onClick={() =>
            remove.mutate(courseId, {
              onSuccess: () => setTimeout(() => downloadButton.current?.focus(), 0),
              onError: (error) => notifyFailure(t('offline.downloadFailed'), errorDescription(error, t('request.failed'))),
            })}
        >
          {t('offline.remove')}
        </Button>
      </Stack>
    );
  }

  return (
    <Button
      ref={downloadButton}
      size="xs"
      variant="light"
      leftSection={<IconCloudDownload size={14} aria-hidden="true" />}
      aria-label={t('offline.makeAvailableLabel', { title })}
      loading={checking}
      onClick={() => void start()}
    >
      {t('offline.makeAvailable')}
    </Button>
  );
}
