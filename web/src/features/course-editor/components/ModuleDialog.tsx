// Add New Module / Edit Module: title, markdown content with a live (safe) preview, an image sent
// once the module is saved, order (default count + 1) and duration in minutes (default 15). A new
// module is content, a SCORM package (its .zip is uploaded from the module's card), a classroom
// session (its text introduces the session; its dates are added from the module's card) or a
// practical assessment (its introduction optional). Each but a SCORM package has a Welsh body beside
// the English.
import { useState } from 'react';
import { Button, FileInput, Group, Modal, NumberInput, Paper, Radio, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { z } from 'zod';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { useTranslation } from 'react-i18next';
import { DEFAULT_MODULE_DURATION, IMAGE_ACCEPT, moduleCreateSchema, moduleFormSchema, type ModuleFormValues } from '@shared/authoring.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { MarkdownContent } from '@/components/MarkdownContent';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCreateModule, useUpdateModule, useUploadModuleImage } from '../api/modules';
import { isImageFile } from './CoverImageCard';
import { welshOrNull } from '../lib/welsh';

/** The dialog's rules: the module's, with its Welsh title and (but a SCORM module) Welsh body, both optional. */
const contentModuleSchema = moduleFormSchema.extend({
  titleCy: moduleCreateSchema.shape.titleCy,
  contentCy: moduleCreateSchema.shape.contentCy,
});
const scormModuleSchema = contentModuleSchema.omit({ content: true, contentCy: true });
// A session's or a practical's text introduces it, in English and in Welsh; a practical's may be left out.
const assessmentModuleSchema = contentModuleSchema.extend({
  content: z.union([z.literal(''), moduleFormSchema.shape.content]),
});

/** The form's values: the Welsh fields are text, empty when there is no Welsh version. */
type ModuleDialogValues = ModuleFormValues & { titleCy: string; contentCy: string };

const MODULE_KINDS = ['content', 'scorm', 'session', 'assessment'] as const;

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
  const { t } = useTranslation('course-editor');
  const [kind, setKind] = useState<CourseModule['kind']>(module?.kind ?? 'content');
  const form = useForm<ModuleDialogValues>({
    mode: 'controlled',
    initialValues: {
      title: module?.title ?? '',
      content: module?.content ?? '',
      titleCy: module?.titleCy ?? '',
      contentCy: module?.contentCy ?? '',
      orderIndex: module?.orderIndex ?? nextOrder,
      duration: module?.duration ?? DEFAULT_MODULE_DURATION,
    },
    // A SCORM module has no body: its title, order and duration only.
    validate: (values) =>
      translatedResolver(
        kind === 'scorm' ? scormModuleSchema : kind === 'assessment' ? assessmentModuleSchema : contentModuleSchema,
        { errorPriority: 'first' },
      )(values),
  });
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const create = useCreateModule(courseId);
  const update = useUpdateModule(courseId);
  const upload = useUploadModuleImage(courseId);
  const saving = create.isPending || update.isPending || upload.isPending;

  async function save(values: ModuleDialogValues) {
    let saved: CourseModule;
    // An empty Welsh field is sent as null: no Welsh version (on an update, it clears the saved one).
    const titleCy = welshOrNull(values.titleCy);
    try {
      if (kind === 'scorm') {
        // A SCORM package is one language: only the title has a Welsh version.
        const { title, orderIndex, duration } = values;
        saved = module
          ? await update.mutateAsync({ id: module.id, input: { title, titleCy, orderIndex, duration } })
          : await create.mutateAsync({ kind: 'scorm', title, titleCy, orderIndex, duration });
      } else {
        const { title, content, orderIndex, duration } = (kind === 'assessment' ? assessmentModuleSchema : moduleFormSchema).parse(values);
        const input = { title, content, titleCy, contentCy: welshOrNull(values.contentCy), orderIndex, duration };
        // A session or an assessment module is written as a content one is, with its kind.
        saved = module
          ? // A practical without an introduction sends none: the update keeps the empty one.
            await update.mutateAsync({ id: module.id, input: content === '' ? { ...input, content: undefined } : input })
          : await create.mutateAsync(kind === 'session' || kind === 'assessment' ? { ...input, kind } : input);
      }
      notifySuccess(module ? t('moduleDialog.updated') : t('moduleDialog.created'), t('moduleDialog.savedMessage', { title: saved.title }));
    } catch (error) {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure(t('moduleDialog.saveError'), errorDescription(error, t('moduleDialog.saveErrorMessage')));
      return;
    }
    if (image) {
      try {
        await upload.mutateAsync({ id: saved.id, file: image });
        notifySuccess(t('moduleDialog.imageUploaded'), t('moduleDialog.imageUploadedMessage'));
      } catch (error) {
        notifyFailure(t('moduleDialog.imageFailed'), errorDescription(error, t('moduleDialog.imageFailed')));
        return;
      }
    }
    onClose();
  }

  // Each field's props, worked out before the JSX (whose strings are all words people read).
  const fields = {
    title: form.getInputProps('title'),
    content: form.getInputProps('content'),
    titleCy: form.getInputProps('titleCy'),
    contentCy: form.getInputProps('contentCy'),
    orderIndex: form.getInputProps('orderIndex'),
    duration: form.getInputProps('duration'),
  };
  return (
    <Modal opened onClose={onClose} title={module ? t('moduleDialog.editTitle') : t('moduleDialog.addTitle')} size="xl" closeButtonProps={{ 'aria-label': t('closeDialog') }}>
      <form
        noValidate
        aria-label={module ? t('moduleDialog.editTitle') : t('moduleDialog.addTitle')}
        onSubmit={form.onSubmit((values) => void save(values))}
      >
        <Stack gap="md">
          {module ? null : (
            <Radio.Group label={t('moduleDialog.type')} value={kind} onChange={(value) => setKind(MODULE_KINDS.find((k) => k === value) ?? 'content')}>
              <Group gap="lg" mt={6}>
                <Radio value="content" label={t('moduleDialog.typeContent')} />
                <Radio value="scorm" label={t('moduleDialog.typeScorm')} />
                <Radio value="session" label={t('moduleDialog.typeSession')} />
                <Radio value="assessment" label={t('moduleDialog.typeAssessment')} />
              </Group>
            </Radio.Group>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('moduleDialog.title')} required withAsterisk={false} data-autofocus key={form.key('title')} {...fields.title} />
            <TextInput label={t('moduleDialog.titleCy')} lang="cy" key={form.key('titleCy')} {...fields.titleCy} />
          </SimpleGrid>
          {kind === 'scorm' ? (
            <Text size="sm">
              {module ? t('moduleDialog.scormEdit') : t('moduleDialog.scormCreate')} {t('moduleDialog.scormWelsh')}
            </Text>
          ) : null}
          {kind === 'scorm' ? null : (
          // The English and the Welsh side by side (stacked on a phone), each with its preview below.
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Textarea
              label={t('moduleDialog.content')}
              description={t('moduleDialog.contentHint')}
              required={kind !== 'assessment'} withAsterisk={false}
              autosize
              minRows={8}
              maxRows={18}
              key={form.key('content')}
              {...fields.content}
            />
            <Textarea
              label={t('moduleDialog.contentCy')}
              description={t('moduleDialog.contentHint')}
              lang="cy"
              autosize
              minRows={8}
              maxRows={18}
              key={form.key('contentCy')}
              {...fields.contentCy}
            />
            <ContentPreview id="module-preview-label" label={t('moduleDialog.preview')} source={form.values.content} />
            <ContentPreview id="module-preview-cy-label" label={t('moduleDialog.previewCy')} source={form.values.contentCy} lang="cy" />
          </SimpleGrid>
          )}
          {kind === 'scorm' ? null : (
          <FileInput
            label={t('moduleDialog.image')}
            description={module?.image ? t('moduleDialog.imageReplace') : t('moduleDialog.imageHint')}
            placeholder={t('cover.choose')}
            accept={IMAGE_ACCEPT}
            clearable
            clearButtonProps={{ 'aria-label': t('moduleDialog.removeImage') }}
            value={image}
            error={imageError}
            onChange={(file) => {
              if (file && !isImageFile(file)) {
                setImageError(t('imageType'));
                setImage(null);
                return;
              }
              setImageError(null);
              setImage(file);
            }}
          />
          )}
          <Group grow align="flex-start">
            <NumberInput label={t('moduleDialog.order')} min={1} allowDecimal={false} required withAsterisk={false} key={form.key('orderIndex')} {...fields.orderIndex} />
            <NumberInput
              label={t('moduleDialog.duration')}
              min={1}
              allowDecimal={false}
              required withAsterisk={false}
              key={form.key('duration')}
              {...fields.duration}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {module ? t('moduleDialog.update') : t('moduleDialog.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A module body's Markdown as the learner will see it, or a hint while it is empty. */
function ContentPreview({ id, label, source, lang }: { id: string; label: string; source: string; lang?: string }) {
  const { t } = useTranslation('course-editor');
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={id}>
        {label}
      </Text>
      <Paper withBorder p="sm" mih={180} aria-labelledby={id} role="region" style={{ overflow: 'auto', maxHeight: 420 }}>
        {source.trim() ? (
          <div lang={lang}>
            <MarkdownContent source={source} />
          </div>
        ) : (
          <Text size="sm" c="dimmed">
            {t('moduleDialog.previewEmpty')}
          </Text>
        )}
      </Paper>
    </Stack>
  );
}
