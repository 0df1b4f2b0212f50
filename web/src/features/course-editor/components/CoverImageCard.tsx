// Cover image: pick an image, see it at once; in edit mode it is uploaded straight away, in create
// mode it waits until the course is saved. The server checks the content; this only filters the picker.
import { useEffect, useMemo } from 'react';
import { AspectRatio, Card, FileInput, Image, Stack, Text, Title } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { IMAGE_ACCEPT, MESSAGES } from '@shared/authoring.ts';
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
  const pendingUrl = useMemo(() => (pending ? URL.createObjectURL(pending) : null), [pending]);
  useEffect(() => () => {
    if (pendingUrl) URL.revokeObjectURL(pendingUrl);
  }, [pendingUrl]);
  const preview = pendingUrl ?? url;

  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Cover Image
        </Title>
        <AspectRatio ratio={16 / 9}>
          {preview ? (
            <Image src={preview} alt="Course cover preview" radius="sm" fit="cover" />
          ) : (
            <Stack align="center" justify="center" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 4 }}>
              <IconPhoto size={40} aria-hidden />
              <Text size="sm" c="dimmed">
                No cover image yet
              </Text>
            </Stack>
          )}
        </AspectRatio>
        <FileInput
          label="Upload cover image"
          description="PNG, JPEG, WebP or GIF, up to 5 MB"
          placeholder="Choose an image"
          accept={IMAGE_ACCEPT}
          value={null}
          disabled={uploading}
          onChange={(file) => {
            if (!file) return;
            if (!isImageFile(file)) {
              notifyFailure('Failed to upload cover image', MESSAGES.imageType);
              return;
            }
            onChoose(file);
          }}
        />
        {pending ? (
          <Text size="sm" c="dimmed">
            The cover will be uploaded when the course is saved.
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
