// A quiz's settings (title, description, passing score, time limit, order, when the answers are
// shown, attempts and the wait between them), created, saved or deleted with the quiz.
import { useState } from 'react';
import { Button, Group, NativeSelect, NumberInput, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PASSING_SCORE, quizSchema, type AuthoringQuiz } from '@shared/authoring.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { ANSWER_DISPLAYS, type AnswerDisplay } from '@shared/quiz.ts';
import { fieldErrors } from '@shared/schemas.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { labelOf } from '@/lib/i18n/labels';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteQuiz, useSaveQuiz } from '../api/quiz';
import { quizLacksWelsh, welshOrNull } from '../lib/welsh';
import { MissingWelshBadge } from './WelshBadges';

interface QuizFormValues {
  title: string;
  description: string;
  titleCy: string;
  descriptionCy: string;
  passingScore: number | string;
  timeLimit: number | string;
  randomizeQuestions: boolean;
  showCorrectAnswers: AnswerDisplay;
  maxAttempts: number | string;
  retryWait: number | string;
  retryWaitUnit: 'minutes' | 'hours';
}

/** The form's values as the API's body: the wait in minutes, an empty maximum as unlimited. */
function quizBody(values: QuizFormValues) {
  const wait = values.retryWait === '' ? 0 : values.retryWait;
  return {
    title: values.title,
    description: values.description,
    // Empty: no Welsh version (null, which also clears one already saved).
    titleCy: welshOrNull(values.titleCy),
    descriptionCy: welshOrNull(values.descriptionCy),
    passingScore: values.passingScore,
    timeLimit: values.timeLimit,
    randomizeQuestions: values.randomizeQuestions,
    showCorrectAnswers: values.showCorrectAnswers,
    maxAttempts: values.maxAttempts === '' ? null : values.maxAttempts,
    retryWaitMinutes: typeof wait === 'number' && values.retryWaitUnit === 'hours' ? wait * 60 : wait,
  };
}

/** A stored wait shown in hours when it is whole hours. */
function initialWait(minutes: number | undefined): { retryWait: number | string; retryWaitUnit: 'minutes' | 'hours' } {
  if (!minutes) return { retryWait: 0, retryWaitUnit: 'hours' };
  return minutes % 60 === 0 ? { retryWait: minutes / 60, retryWaitUnit: 'hours' } : { retryWait: minutes, retryWaitUnit: 'minutes' };
}

export function QuizSettings({ courseId, module, quiz }: { courseId: string; module: CourseModule; quiz: AuthoringQuiz | null }) {
  const { t } = useTranslation('course-editor');
  const save = useSaveQuiz(courseId, module.id);
  const remove = useDeleteQuiz(courseId, module.id);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<QuizFormValues>({
    mode: 'controlled',
    initialValues: {
      title: quiz?.title ?? t('quiz.defaultTitle', { title: module.title }).slice(0, 200),
      description: quiz?.description ?? '',
      titleCy: quiz?.titleCy ?? '',
      descriptionCy: quiz?.descriptionCy ?? '',
      passingScore: quiz?.passingScore ?? DEFAULT_PASSING_SCORE,
      timeLimit: quiz?.timeLimit ?? '',
      randomizeQuestions: quiz?.randomizeQuestions ?? false,
      showCorrectAnswers: quiz?.showCorrectAnswers ?? 'AFTER_PASSING',
      maxAttempts: quiz?.maxAttempts ?? '',
      ...initialWait(quiz?.retryWaitMinutes),
    },
    validate: (values) => {
      const result = quizSchema.safeParse(quizBody(values));
      return result.success ? {} : waitErrorOnField(fieldErrors(result.error));
    },
  });

  // Each field's props, worked out before the JSX (whose strings are all words people read).
  const fields = {
    title: form.getInputProps('title'),
    description: form.getInputProps('description'),
    titleCy: form.getInputProps('titleCy'),
    descriptionCy: form.getInputProps('descriptionCy'),
    passingScore: form.getInputProps('passingScore'),
    timeLimit: form.getInputProps('timeLimit'),
    randomizeQuestions: form.getInputProps('randomizeQuestions', { type: 'checkbox' }),
    showCorrectAnswers: form.getInputProps('showCorrectAnswers'),
    maxAttempts: form.getInputProps('maxAttempts'),
    retryWait: form.getInputProps('retryWait'),
    retryWaitUnit: form.getInputProps('retryWaitUnit'),
  };
  return (
    <form
      noValidate
      aria-label={t('quiz.form')}
      onSubmit={form.onSubmit((values) =>
        save.mutate(quizSchema.parse(quizBody(values)), {
          onSuccess: () => notifySuccess(quiz ? t('quiz.updated') : t('quiz.created'), quiz ? t('quiz.updatedMessage') : t('quiz.createdMessage')),
          onError: (error) => {
            if (error instanceof ApiError && error.fields) form.setErrors(waitErrorOnField(error.fields));
            notifyFailure(t('quiz.saveError'), errorDescription(error, t('quiz.saveErrorMessage')));
          },
        }),
      )}
    >
      <Stack gap="sm">
        {quiz && quizLacksWelsh(quiz) ? (
          <Group>
            <MissingWelshBadge />
          </Group>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('quiz.title')} required withAsterisk={false} key={form.key('title')} {...fields.title} />
          <TextInput label={t('quiz.titleCy')} lang="cy" key={form.key('titleCy')} {...fields.titleCy} />
          <Textarea label={t('quiz.description')} description={t('quiz.descriptionHint')} autosize minRows={2} key={form.key('description')} {...fields.description} />
          <Textarea label={t('quiz.descriptionCy')} description={t('quiz.descriptionHint')} lang="cy" autosize minRows={2} key={form.key('descriptionCy')} {...fields.descriptionCy} />
        </SimpleGrid>
        <Group grow align="flex-start">
          <NumberInput label={t('quiz.passingScore')} min={1} max={100} allowDecimal={false} key={form.key('passingScore')} {...fields.passingScore} />
          <NumberInput label={t('quiz.timeLimit')} description={t('quiz.timeLimitHint')} min={1} allowDecimal={false} key={form.key('timeLimit')} {...fields.timeLimit} />
        </Group>
        <Switch label={t('quiz.randomise')} key={form.key('randomizeQuestions')} {...fields.randomizeQuestions} />
        <NativeSelect
          label={t('quiz.showAnswers')}
          description={t('quiz.showAnswersHint')}
          data={ANSWER_DISPLAYS.map((value) => ({ value, label: labelOf('answerDisplay', value) }))}
          key={form.key('showCorrectAnswers')}
          {...fields.showCorrectAnswers}
        />
        <Group grow align="flex-start">
          <NumberInput
            label={t('quiz.maxAttempts')}
            description={t('quiz.maxAttemptsHint')}
            min={1}
            max={100}
            allowDecimal={false}
            key={form.key('maxAttempts')}
            {...fields.maxAttempts}
          />
          <NumberInput
            label={t('quiz.retryWait')}
            description={t('quiz.retryWaitHint')}
            min={0}
            allowDecimal={false}
            key={form.key('retryWait')}
            {...fields.retryWait}
          />
          <NativeSelect
            label={t('quiz.waitUnit')}
            data={[
              { value: 'minutes', label: t('quiz.unitMinutes') },
              { value: 'hours', label: t('quiz.unitHours') },
            ]}
            key={form.key('retryWaitUnit')}
            {...fields.retryWaitUnit}
          />
        </Group>
        <Group justify="space-between">
          {quiz ? (
            confirming ? (
              <Group gap="xs">
                <Text size="sm">{t('quiz.deleteConfirm')}</Text>
                <Button
                  size="xs"
                  color="red.9"
                  loading={remove.isPending}
                  onClick={() =>
                    remove.mutate(undefined, {
                      onSuccess: () => notifySuccess(t('quiz.deleted'), t('quiz.deletedMessage')),
                      onError: (error) => notifyFailure(t('quiz.deleteError'), errorDescription(error, t('quiz.deleteErrorMessage'))),
                    })
                  }
                >
                  {t('quiz.delete')}
                </Button>
                <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                  {t('quiz.keep')}
                </Button>
              </Group>
            ) : (
              <Button variant="filled" color="red.9" onClick={() => setConfirming(true)}>
                {t('quiz.delete')}
              </Button>
            )
          ) : (
            <span />
          )}
          <Button type="submit" loading={save.isPending}>
            {quiz ? t('quiz.update') : t('quiz.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The API names the wait retryWaitMinutes; the form shows it beside its unit as retryWait. */
function waitErrorOnField(errors: Record<string, string>): Record<string, string> {
  const { retryWaitMinutes, ...rest } = errors;
  return retryWaitMinutes ? { ...rest, retryWait: retryWaitMinutes } : rest;
}
