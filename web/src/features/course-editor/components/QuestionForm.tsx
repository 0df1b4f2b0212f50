// One question of a quiz, new or edited: its text, type (multiple choice or true/false), options with
// the correct ones ticked, points and an explanation, checked with the shared schema's messages.
import {
  ActionIcon, Button, Card, Checkbox, Group, NumberInput, SegmentedControl, SimpleGrid, Stack, Text, Textarea, TextInput, Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { questionSchema, TRUE_FALSE_OPTIONS, type QuestionInput, type QuizQuestion } from '@shared/authoring.ts';
import { fieldErrors } from '@shared/schemas.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useSaveQuestion } from '../api/quiz';
import { TRUE_FALSE_OPTIONS_CY, welshOptionsOrNull, welshOrNull } from '../lib/welsh';

interface QuestionFormValues {
  questionText: string;
  questionType: 'MULTIPLE_CHOICE' | 'TRUE_FALSE';
  options: { text: string; isCorrect: boolean }[];
  points: number | string;
  explanation: string;
  /** The Welsh, empty where there is none; optionsCy[i] is the Welsh of options[i]. */
  questionCy: string;
  optionsCy: string[];
  explanationCy: string;
}

/**
 * The question for the API. The PUT replaces the whole question, so the Welsh is always sent as the
 * form holds it: an empty field is null (none), the Welsh options null when none is filled in.
 */
function questionBody(values: QuestionFormValues) {
  return {
    questionText: values.questionText,
    questionType: values.questionType,
    options: values.options,
    points: values.points,
    explanation: values.explanation,
    questionCy: welshOrNull(values.questionCy),
    optionsCy: welshOptionsOrNull(values.optionsCy),
    explanationCy: welshOrNull(values.explanationCy),
  };
}

const blankOptions = () => [
  { text: '', isCorrect: true },
  { text: '', isCorrect: false },
];
const trueFalseOptions = (correct: 'True' | 'False' = 'True') =>
  TRUE_FALSE_OPTIONS.map((text) => ({ text, isCorrect: text === correct }));

/** The Welsh twins of a question's options: the saved ones, else Gwir/Gau for true/false, else empty. */
function initialOptionsCy(question: QuizQuestion | undefined): string[] {
  if (!question) return ['', ''];
  if (question.optionsCy && question.optionsCy.length === question.options.length) return [...question.optionsCy];
  return question.questionType === 'TRUE_FALSE' ? [...TRUE_FALSE_OPTIONS_CY] : question.options.map(() => '');
}

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
      questionCy: question?.questionCy ?? '',
      optionsCy: initialOptionsCy(question),
      explanationCy: question?.explanationCy ?? '',
    },
    // The shared schema's first message per field; an options-wide rule shows under the options.
    validate: (values) => {
      const result = questionSchema.safeParse(questionBody(values));
      return result.success ? {} : fieldErrors(result.error);
    },
  });
  const isTrueFalse = form.values.questionType === 'TRUE_FALSE';
  const optionsError = form.errors.options;
  // The Welsh options as a whole (not one of them): too few or too many for the options.
  const optionsCyError = form.errors.optionsCy;

  function setType(type: string) {
    if (type === 'TRUE_FALSE') {
      form.setFieldValue('options', trueFalseOptions());
      form.setFieldValue('optionsCy', [...TRUE_FALSE_OPTIONS_CY]);
    } else {
      form.setFieldValue('options', blankOptions());
      form.setFieldValue('optionsCy', ['', '']);
    }
    form.setFieldValue('questionType', type as QuestionFormValues['questionType']);
  }

  // An option and its Welsh twin are added and removed together, so the two lists keep one order.
  function addOption() {
    form.insertListItem('options', { text: '', isCorrect: false });
    form.insertListItem('optionsCy', '');
  }

  function removeOption(index: number) {
    form.removeListItem('options', index);
    form.removeListItem('optionsCy', index);
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
    questionCy: form.getInputProps('questionCy'),
    explanationCy: form.getInputProps('explanationCy'),
  };
  const optionField = (index: number) => form.getInputProps(`options.${index}.text`);
  const optionCyField = (index: number) => form.getInputProps(`optionsCy.${index}`);
  return (
    <Card withBorder padding="md" radius="md">
      <form
        noValidate
        aria-label={question ? t('question.editTitle') : t('question.newTitle')}
        onSubmit={form.onSubmit((values) => {
          const input: QuestionInput = questionSchema.parse(questionBody(values));
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
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Textarea label={t('question.text')} required withAsterisk={false} autosize minRows={2} key={form.key('questionText')} {...fields.questionText} />
            <Textarea label={t('question.textCy')} lang="cy" autosize minRows={2} key={form.key('questionCy')} {...fields.questionCy} />
          </SimpleGrid>
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
          <fieldset
            style={{ border: 0, padding: 0, margin: 0 }}
            aria-describedby={[optionsError ? 'options-error' : '', optionsCyError ? 'options-cy-error' : '', 'options-cy-hint'].filter(Boolean).join(' ')}
          >
            <legend>
              <Text size="sm" fw={500}>
                {isTrueFalse ? t('question.optionsOne') : t('question.optionsMany')}
              </Text>
            </legend>
            <Text size="xs" c="dimmed" id="options-cy-hint">
              {t('question.optionsCyHint')}
            </Text>
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
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs" style={{ flex: 1 }}>
                    <TextInput
                      aria-label={t('question.option', { number: index + 1 })}
                      placeholder={t('question.option', { number: index + 1 })}
                      readOnly={isTrueFalse}
                      key={form.key(`options.${index}.text`)}
                      {...optionField(index)}
                    />
                    <TextInput
                      aria-label={t('question.optionCy', { number: index + 1 })}
                      placeholder={t('question.optionCy', { number: index + 1 })}
                      lang="cy"
                      readOnly={isTrueFalse}
                      key={form.key(`optionsCy.${index}`)}
                      {...optionCyField(index)}
                    />
                  </SimpleGrid>
                  {!isTrueFalse && form.values.options.length > 2 ? (
                    <ActionIcon variant="subtle" color="red.9" mt={4} aria-label={t('question.removeOption', { number: index + 1 })} onClick={() => removeOption(index)}>
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
              {optionsCyError ? (
                <Text size="sm" c="red.8" id="options-cy-error" role="alert">
                  {optionsCyError}
                </Text>
              ) : null}
              {!isTrueFalse && form.values.options.length < 10 ? (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconPlus size={14} aria-hidden />}
                  onClick={addOption}
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
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Textarea label={t('question.explanation')} description={t('question.explanationHint')} autosize minRows={2} key={form.key('explanation')} {...fields.explanation} />
            <Textarea label={t('question.explanationCy')} description={t('question.explanationHint')} lang="cy" autosize minRows={2} key={form.key('explanationCy')} {...fields.explanationCy} />
          </SimpleGrid>
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
