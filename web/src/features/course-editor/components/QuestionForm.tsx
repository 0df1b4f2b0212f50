// One question of a quiz, new or edited: its text, type (multiple choice or true/false), options with
// the correct ones ticked, points and an explanation, checked with the shared schema's messages.
import {
  ActionIcon, Button, Card, Checkbox, Group, NumberInput, SegmentedControl, Stack, Text, Textarea, TextInput, Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { questionSchema, TRUE_FALSE_OPTIONS, type QuestionInput, type QuizQuestion } from '@shared/authoring.ts';
import { fieldErrors } from '@shared/schemas.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useSaveQuestion } from '../api/quiz';

interface QuestionFormValues {
  questionText: string;
  questionType: 'MULTIPLE_CHOICE' | 'TRUE_FALSE';
  options: { text: string; isCorrect: boolean }[];
  points: number | string;
  explanation: string;
}

const blankOptions = () => [
  { text: '', isCorrect: true },
  { text: '', isCorrect: false },
];
const trueFalseOptions = (correct: 'True' | 'False' = 'True') =>
  TRUE_FALSE_OPTIONS.map((text) => ({ text, isCorrect: text === correct }));

export function QuestionForm({
  courseId,
  moduleId,
  quizId,
  question,
  onDone,
}: {
  courseId: string;
  moduleId: string;
  quizId: string;
  question?: QuizQuestion;
  onDone: () => void;
}) {
  const { t } = useTranslation('course-editor');
  const save = useSaveQuestion(courseId, moduleId, quizId);
  const form = useForm<QuestionFormValues>({
    mode: 'controlled',
    initialValues: {
      questionText: question?.questionText ?? '',
      questionType: question?.questionType ?? 'MULTIPLE_CHOICE',
      options: question?.options.map((o) => ({ ...o })) ?? blankOptions(),
      points: question?.points ?? 1,
      explanation: question?.explanation ?? '',
    },
    // The shared schema's first message per field; an options-wide rule shows under the options.
    validate: (values) => {
      const result = questionSchema.safeParse(values);
      return result.success ? {} : fieldErrors(result.error);
    },
  });
  const isTrueFalse = form.values.questionType === 'TRUE_FALSE';
  const optionsError = form.errors.options;

  function setType(type: string) {
    if (type === 'TRUE_FALSE') form.setFieldValue('options', trueFalseOptions());
    else form.setFieldValue('options', blankOptions());
    form.setFieldValue('questionType', type as QuestionFormValues['questionType']);
  }

  function markCorrect(index: number, checked: boolean) {
    // True/false: exactly one correct answer, so marking one clears the other.
    form.setFieldValue(
      'options',
      form.values.options.map((o, i) => (isTrueFalse ? { ...o, isCorrect: i === index ? checked : !checked } : i === index ? { ...o, isCorrect: checked } : o)),
    );
  }

  // Each field's props, worked out before the JSX (whose strings are all words people read).
  const fields = {
    questionText: form.getInputProps('questionText'),
    points: form.getInputProps('points'),
    explanation: form.getInputProps('explanation'),
  };
  const optionField = (index: number) => form.getInputProps(`options.${index}.text`);
  return (
    <Card withBorder padding="md" radius="md">
      <form
        noValidate
        aria-label={question ? t('question.editTitle') : t('question.newTitle')}
        onSubmit={form.onSubmit((values) => {
          const input: QuestionInput = questionSchema.parse(values);
          save.mutate(
            { id: question?.id, input },
            {
              onSuccess: () => {
                notifySuccess(question ? t('question.updated') : t('question.added'), t('question.savedMessage'));
                onDone();
              },
              onError: (error) => {
                if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
                notifyFailure(t('question.saveError'), errorDescription(error, t('question.saveErrorMessage')));
              },
            },
          );
        })}
      >
        <Stack gap="sm">
          <Title order={4} size="h5">
            {question ? t('question.editTitle') : t('question.newTitle')}
          </Title>
          <Textarea label={t('question.text')} required withAsterisk={false} autosize minRows={2} key={form.key('questionText')} {...fields.questionText} />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="question-type-label">
              {t('question.type')}
            </Text>
            <SegmentedControl
              aria-labelledby="question-type-label"
              value={form.values.questionType}
              onChange={setType}
              data={[
                { value: 'MULTIPLE_CHOICE', label: t('question.multipleChoice') },
                { value: 'TRUE_FALSE', label: t('question.trueFalse') },
              ]}
            />
          </Stack>
          <fieldset style={{ border: 0, padding: 0, margin: 0 }} aria-describedby={optionsError ? 'options-error' : undefined}>
            <legend>
              <Text size="sm" fw={500}>
                {isTrueFalse ? t('question.optionsOne') : t('question.optionsMany')}
              </Text>
            </legend>
            <Stack gap="xs" mt={4}>
              {form.values.options.map((option, index) => (
                <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
                  <Checkbox
                    mt={8}
                    label={t('question.correct')}
                    aria-label={t('question.optionCorrect', { number: index + 1 })}
                    checked={option.isCorrect}
                    onChange={(event) => markCorrect(index, event.currentTarget.checked)}
                  />
                  <TextInput
                    style={{ flex: 1 }}
                    aria-label={t('question.option', { number: index + 1 })}
                    placeholder={t('question.option', { number: index + 1 })}
                    readOnly={isTrueFalse}
                    key={form.key(`options.${index}.text`)}
                    {...optionField(index)}
                  />
                  {!isTrueFalse && form.values.options.length > 2 ? (
                    <ActionIcon variant="subtle" color="red.9" mt={4} aria-label={t('question.removeOption', { number: index + 1 })} onClick={() => form.removeListItem('options', index)}>
                      <IconX size={16} aria-hidden />
                    </ActionIcon>
                  ) : null}
                </Group>
              ))}
              {optionsError ? (
                <Text size="sm" c="red.8" id="options-error" role="alert">
                  {optionsError}
                </Text>
              ) : null}
              {!isTrueFalse && form.values.options.length < 10 ? (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconPlus size={14} aria-hidden />}
                  onClick={() => form.insertListItem('options', { text: '', isCorrect: false })}
                  style={{ alignSelf: 'flex-start' }}
                >
                  {t('question.addOption')}
                </Button>
              ) : null}
            </Stack>
          </fieldset>
          <Group grow align="flex-start">
            <NumberInput label={t('question.points')} min={1} allowDecimal={false} key={form.key('points')} {...fields.points} />
          </Group>
          <Textarea label={t('question.explanation')} description={t('question.explanationHint')} autosize minRows={2} key={form.key('explanation')} {...fields.explanation} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('question.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
