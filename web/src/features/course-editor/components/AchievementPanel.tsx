// The course's achievement: what its Open Badges credentials say it proves. Name, description,
// criteria in words, an image and alignments to frameworks (a Skills for Health Core Skills Training
// Framework subject, a National Occupational Standard...); the validity is the certificate's, set
// under Basic Information. Checked with the shared schema the API uses.
import { useEffect, useEffectEvent } from 'react';
import { Alert, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { achievementSchema, type CourseAchievement } from '@shared/credentials.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useAchievement } from '../api/get-achievement';
import { useSaveAchievement } from '../api/save-achievement';

/** The form's schema: an empty image address means none. */
const formSchema = achievementSchema.extend({ imageUrl: achievementSchema.shape.imageUrl.or(z.literal('')) });

// Types, not interfaces: the schema's resolver takes the values as a record.
type AlignmentValues = {
  targetFramework: string;
  targetCode: string;
  targetName: string;
  targetUrl: string;
};
type AchievementValues = {
  name: string;
  description: string;
  criteria: string;
  imageUrl: string;
  alignments: AlignmentValues[];
};

const EMPTY_ALIGNMENT: AlignmentValues = { targetFramework: '', targetCode: '', targetName: '', targetUrl: '' };

function valuesOf(a: CourseAchievement | undefined): AchievementValues {
  return {
    name: a?.name ?? '',
    description: a?.description ?? '',
    criteria: a?.criteria ?? '',
    imageUrl: a?.imageUrl ?? '',
    alignments: (a?.alignments ?? []).map((x) => ({
      targetFramework: x.targetFramework ?? '',
      targetCode: x.targetCode ?? '',
      targetName: x.targetName,
      targetUrl: x.targetUrl,
    })),
  };
}

export function AchievementPanel({ courseId }: { courseId: string }) {
  const { t } = useTranslation('course-editor');
  const query = useAchievement(courseId);
  if (query.isPending) {
    return (
      <Group justify="center" py="xl" role="status">
        <Loader size="sm" aria-hidden />
        <Text>{t('achievement.loading')}</Text>
      </Group>
    );
  }
  if (query.isError) return <Alert color="red" title={t('achievement.loadError')}>{errorDescription(query.error, t('achievement.tryAgain'))}</Alert>;
  return <AchievementForm courseId={courseId} achievement={query.data} />;
}

function AchievementForm({ courseId, achievement }: { courseId: string; achievement: CourseAchievement }) {
  const { t } = useTranslation('course-editor');
  const save = useSaveAchievement(courseId);
  const form = useForm<AchievementValues>({
    mode: 'controlled',
    initialValues: valuesOf(achievement),
    validate: translatedResolver(formSchema, { errorPriority: 'first' }),
  });
  const savedKey = `${achievement.courseId}:${achievement.updatedAt ?? 'default'}`;
  const reset = useEffectEvent(() => {
    form.setValues(valuesOf(achievement));
    form.resetDirty();
  });
  useEffect(() => reset(), [savedKey]);

  const alignments = form.getValues().alignments;
  return (
    <form
      noValidate
      aria-label={t('achievement.form')}
      onSubmit={form.onSubmit((values) => {
        const body = {
          name: values.name,
          description: values.description,
          criteria: values.criteria,
          imageUrl: values.imageUrl.trim() || null,
          alignments: values.alignments.map((x) => ({
            targetFramework: x.targetFramework.trim() || null,
            targetCode: x.targetCode.trim() || null,
            targetName: x.targetName,
            targetUrl: x.targetUrl,
          })),
        };
        save.mutate(achievementSchema.parse(body), {
          onSuccess: () => notifySuccess(t('achievement.saved'), t('achievement.savedMessage'), { action: 'achievement' }),
          onError: (error) => {
            if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
            notifyFailure(t('achievement.saveError'), errorDescription(error, t('achievement.tryAgain')), { action: 'achievement' });
          },
        });
      })}
    >
      <Stack gap="md">
        <Text size="sm">{t('achievement.intro')}</Text>
        {achievement.defined ? null : (
          <Alert color="blue" variant="light" title={t('achievement.defaultTitle')}>
            {t('achievement.defaultText')}
          </Alert>
        )}
        <TextInput label={t('achievement.name')} withAsterisk key={form.key('name')} {...form.getInputProps('name')} />
        <Textarea label={t('achievement.description')} withAsterisk autosize minRows={3} key={form.key('description')} {...form.getInputProps('description')} />
        <Textarea
          label={t('achievement.criteria')}
          description={t('achievement.criteriaHint')}
          withAsterisk
          autosize
          minRows={3}
          key={form.key('criteria')}
          {...form.getInputProps('criteria')}
        />
        <TextInput
          label={t('achievement.imageUrl')}
          description={t('achievement.imageUrlHint')}
          type="url"
          key={form.key('imageUrl')}
          {...form.getInputProps('imageUrl')}
        />
        <Text size="sm">
          {achievement.validMonths
            ? t('achievement.validity', { count: achievement.validMonths })
            : t('achievement.noExpiry')}
        </Text>
        <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
          <Title order={3} size="h5" component="legend">{t('achievement.alignments')}</Title>
          <Text size="sm" c="dimmed">{t('achievement.alignmentsHint')}</Text>
          {alignments.map((_, index) => (
            <Card key={form.key(`alignments.${index}`)} withBorder padding="sm" radius="md" data-alignment={index}>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput label={t('achievement.targetName')} withAsterisk key={form.key(`alignments.${index}.targetName`)} {...form.getInputProps(`alignments.${index}.targetName`)} />
                <TextInput label={t('achievement.targetUrl')} withAsterisk type="url" key={form.key(`alignments.${index}.targetUrl`)} {...form.getInputProps(`alignments.${index}.targetUrl`)} />
                <TextInput label={t('achievement.targetFramework')} key={form.key(`alignments.${index}.targetFramework`)} {...form.getInputProps(`alignments.${index}.targetFramework`)} />
                <TextInput label={t('achievement.targetCode')} key={form.key(`alignments.${index}.targetCode`)} {...form.getInputProps(`alignments.${index}.targetCode`)} />
              </SimpleGrid>
              <Group justify="flex-end" mt="xs">
                <Button
                  variant="default"
                  size="xs"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  onClick={() => form.removeListItem('alignments', index)}
                  aria-label={t('achievement.removeAlignment', { number: index + 1 })}
                >
                  {t('achievement.remove')}
                </Button>
              </Group>
            </Card>
          ))}
          <Group>
            <Button
              variant="default"
              leftSection={<IconPlus size={16} aria-hidden />}
              disabled={alignments.length >= 20}
              onClick={() => {
                form.insertListItem('alignments', { ...EMPTY_ALIGNMENT });
                // The new alignment's first field takes the focus.
                setTimeout(() => document.querySelector<HTMLInputElement>(`[data-alignment="${alignments.length}"] input`)?.focus(), 0);
              }}
            >
              {t('achievement.addAlignment')}
            </Button>
          </Group>
        </Stack>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>{t('achievement.save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
