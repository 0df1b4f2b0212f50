// Add New Module / Edit Module: title, markdown content with a live (safe) preview, an image sent
// once the module is saved, order (default count + 1) and duration in minutes (default 15). A new
// module is content or a SCORM package (its .zip is uploaded from the module's card).
import { useState } from 'react';
import { Button, FileInput, Group, Modal, NumberInput, Paper, Radio, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { DEFAULT_MODULE_DURATION, IMAGE_ACCEPT, MESSAGES, moduleFormSchema, type ModuleFormValues } from '@shared/authoring.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { MarkdownContent } from '@/components/MarkdownContent';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCreateModule, useUpdateModule, useUploadModuleImage } from '../api/modules';
import { isImageFile } from './CoverImageCard';

export function ModuleDialog({
  courseId,
  module,
  nextOrder,
  onClose,
}: {
  courseId: string;
  module?: CourseModule;
  nextOrder: number;
  onClose: () => void;
}) {
  const [kind, setKind] = useState<CourseModule['kind']>(module?.kind ?? 'content');
  const form = useForm<ModuleFormValues>({
    mode: 'controlled',
    initialValues: {
      title: module?.title ?? '',
      content: module?.content ?? '',
      orderIndex: module?.orderIndex ?? nextOrder,
      duration: module?.duration ?? DEFAULT_MODULE_DURATION,
    },
    // A SCORM module has no body: its title, order and duration only.
    validate: (values) =>
      kind === 'scorm'
        ? zod4Resolver(moduleFormSchema.omit({ content: true }), { errorPriority: 'first' })(values)
        : zod4Resolver(moduleFormSchema, { errorPriority: 'first' })(values),
  });
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const create = useCreateModule(courseId);
  const update = useUpdateModule(courseId);
  const upload = useUploadModuleImage(courseId);
  const saving = create.isPending || update.isPending || upload.isPending;

  async function save(values: ModuleFormValues) {
    let saved: CourseModule;
    try {
      if (kind === 'scorm') {
        const { title, orderIndex, duration } = values;
        saved = module
          ? await update.mutateAsync({ id: module.id, input: { title, orderIndex, duration } })
          : await create.mutateAsync({ kind: 'scorm', title, orderIndex, duration });
      } else {
        saved = module ? await update.mutateAsync({ id: module.id, input: values }) : await create.mutateAsync(values);
      }
      notifySuccess(module ? 'Module updated' : 'Module created', `"${saved.title}" has been saved.`);
    } catch (error) {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure('Error saving module', errorDescription(error, 'The module could not be saved.'));
      return;
    }
    if (image) {
      try {
        await upload.mutateAsync({ id: saved.id, file: image });
        notifySuccess('Module image uploaded', 'The image has been added to the module.');
      } catch (error) {
        notifyFailure('Failed to upload module image', errorDescription(error, 'Failed to upload module image'));
        return;
      }
    }
    onClose();
  }

  return (
    <Modal opened onClose={onClose} title={module ? 'Edit Module' : 'Add New Module'} size="xl" closeButtonProps={{ 'aria-label': 'Close dialog' }}>
      <form
        noValidate
        aria-label={module ? 'Edit Module' : 'Add New Module'}
        onSubmit={form.onSubmit((values) => void save(kind === 'scorm' ? values : moduleFormSchema.parse(values)))}
      >
        <Stack gap="md">
          {module ? null : (
            <Radio.Group label="Module type" value={kind} onChange={(value) => setKind(value === 'scorm' ? 'scorm' : 'content')}>
              <Group gap="lg" mt={6}>
                <Radio value="content" label="Content (text and images)" />
                <Radio value="scorm" label="SCORM package" />
              </Group>
            </Radio.Group>
          )}
          <TextInput label="Module Title" required withAsterisk={false} data-autofocus key={form.key('title')} {...form.getInputProps('title')} />
          {kind === 'scorm' ? (
            <Text size="sm">
              {module ? 'Upload or replace the package from the module\'s Package button.' : 'After creating the module, upload the package\'s .zip from its Package button.'}
            </Text>
          ) : null}
          {kind === 'scorm' ? null : (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Textarea
              label="Module Content"
              description="Markdown allowed: # headings, **bold**, lists and links"
              required withAsterisk={false}
              autosize
              minRows={8}
              maxRows={18}
              key={form.key('content')}
              {...form.getInputProps('content')}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="module-preview-label">
                Preview
              </Text>
              <Paper withBorder p="sm" mih={180} aria-labelledby="module-preview-label" role="region" style={{ overflow: 'auto', maxHeight: 420 }}>
                {form.values.content.trim() ? (
                  <MarkdownContent source={form.values.content} />
                ) : (
                  <Text size="sm" c="dimmed">
                    The formatted content appears here as you type.
                  </Text>
                )}
              </Paper>
            </Stack>
          </SimpleGrid>
          )}
          {kind === 'scorm' ? null : (
          <FileInput
            label="Module Image"
            description={module?.image ? 'Choosing a new image replaces the current one' : 'PNG, JPEG, WebP or GIF, up to 5 MB; uploaded when the module is saved'}
            placeholder="Choose an image"
            accept={IMAGE_ACCEPT}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the chosen image' }}
            value={image}
            error={imageError}
            onChange={(file) => {
              if (file && !isImageFile(file)) {
                setImageError(MESSAGES.imageType);
                setImage(null);
                return;
              }
              setImageError(null);
              setImage(file);
            }}
          />
          )}
          <Group grow align="flex-start">
            <NumberInput label="Order" min={1} allowDecimal={false} required withAsterisk={false} key={form.key('orderIndex')} {...form.getInputProps('orderIndex')} />
            <NumberInput
              label="Duration (minutes)"
              min={1}
              allowDecimal={false}
              required withAsterisk={false}
              key={form.key('duration')}
              {...form.getInputProps('duration')}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              {module ? 'Update Module' : 'Create Module'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
