// Cover image: pick an image, see it at once; in edit mode it is uploaded straight away, in create
// mode it waits until the course is saved. The server checks the content; this only filters the picker.
import { useEffect, useMemo } from 'react';
import { AspectRatio, Card, FileInput, Image, Stack, Text, Title } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { IMAGE_ACCEPT } from '@shared/authoring.ts';
import { notifyFailure } from '@/lib/notify';

export function isImageFile(file: File): boolean {
  return IMAGE_ACCEPT.split(',').includes(file.type);
}

export function CoverImageCard({
  url,
  pending,
  uploading,
  onChoose,
}: {
  url: string | null;
  pending: File | null;
  uploading: boolean;
  onChoose: (file: File) => void;
}) {
  const { t } = useTranslation('course-editor');
  const pendingUrl = useMemo(() => (pending ? URL.createObjectURL(pending) : null), [pending]);
  useEffect(() => () => {
    if (pendingUrl) URL.revokeObjectURL(pendingUrl);
  }, [pendingUrl]);
  const preview = pendingUrl ?? url;

  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('cover.title')}
        </Title>
        <AspectRatio ratio={16 / 9}>
          {preview ? (
            <Image src={preview} alt={t('cover.previewAlt')} radius="sm" fit="cover" />
          ) : (
            <Stack align="center" justify="center" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 4 }}>
              <IconPhoto size={40} aria-hidden />
              <Text size="sm" c="dimmed">
                {t('cover.none')}
              </Text>
            </Stack>
          )}
        </AspectRatio>
        <FileInput
          label={t('cover.upload')}
          description={t('cover.uploadHint')}
          placeholder={t('cover.choose')}
          accept={IMAGE_ACCEPT}
          value={null}
          disabled={uploading}
          onChange={(file) => {
            if (!file) return;
            if (!isImageFile(file)) {
              notifyFailure(t('cover.uploadFailed'), t('imageType'));
              return;
            }
            onChoose(file);
          }}
        />
        {pending ? (
          <Text size="sm" c="dimmed">
            {t('cover.pending')}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
