// One criterion of a practical assessment, new or edited: its title and guidance with their Welsh
// twins side by side (as the quiz question form), and whether it is critical. Checked with the shared
// schema the API uses, its messages in the reader's language.
import { Button, Card, Checkbox, Group, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { criterionSchema, type AssessmentCriterion } from '@shared/assessments.ts';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useSaveCriterion } from '../api/assessments';

// A type, not an interface: the schema's resolver takes a record of fields.
type CriterionValues = {
  title: string;
  titleCy: string;
  guidance: string;
  guidanceCy: string;
  critical: boolean;
};

export function CriterionForm({ moduleId, criterion, onDone }: { moduleId: string; criterion?: AssessmentCriterion; onDone: () => void }) {
  const { t } = useTranslation('assessments');
  const save = useSaveCriterion(moduleId);
  const form = useForm<CriterionValues>({
    mode: 'controlled',
    initialValues: {
      title: criterion?.title ?? '',
      titleCy: criterion?.titleCy ?? '',
      guidance: criterion?.guidance ?? '',
      guidanceCy: criterion?.guidanceCy ?? '',
      critical: criterion?.critical ?? false,
    },
    validate: translatedResolver(criterionSchema, { errorPriority: 'first' }),
  });
  const heading = criterion ? t('criteria.editTitle') : t('criteria.newTitle');

  const submit = form.onSubmit((values) => {
    // The PUT replaces the whole criterion, so its place goes with it.
    const input = { ...values, ...(criterion ? { orderIndex: criterion.orderIndex } : {}) };
    save.mutate({ criterionId: criterion?.id, input }, {
      onSuccess: () => {
        notifySuccess(criterion ? t('criteria.updated') : t('criteria.added'), values.title);
        onDone();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
        notifyFailure(t('criteria.saveError'), errorDescription(error, t('tryAgain')));
      },
    });
  });

  return (
    <Card withBorder padding="md" radius="md">
      <form noValidate aria-label={heading} onSubmit={submit}>
        <Stack gap="sm">
          <Title order={4} size="h5">
            {heading}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('criteria.title')} required withAsterisk={false} key={form.key('title')} {...form.getInputProps('title')} />
            <TextInput label={t('criteria.titleCy')} lang="cy" key={form.key('titleCy')} {...form.getInputProps('titleCy')} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Textarea label={t('criteria.guidance')} description={t('criteria.guidanceHint')} autosize minRows={2} key={form.key('guidance')} {...form.getInputProps('guidance')} />
            <Textarea label={t('criteria.guidanceCy')} description={t('criteria.guidanceHint')} lang="cy" autosize minRows={2} key={form.key('guidanceCy')} {...form.getInputProps('guidanceCy')} />
          </SimpleGrid>
          <Checkbox
            label={t('criteria.critical')}
            description={t('criteria.criticalHint')}
            key={form.key('critical')}
            {...form.getInputProps('critical', { type: 'checkbox' })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('criteria.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
