// A quiz's settings (title, description, passing score, time limit, order, when the answers are
// shown, attempts and the wait between them), created, saved or deleted with the quiz.
import { useState } from 'react';
import { Button, Group, NativeSelect, NumberInput, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DEFAULT_PASSING_SCORE, quizSchema, type AuthoringQuiz } from '@shared/authoring.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { ANSWER_DISPLAY_LABELS, ANSWER_DISPLAYS, type AnswerDisplay } from '@shared/quiz.ts';
import { fieldErrors } from '@shared/schemas.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteQuiz, useSaveQuiz } from '../api/quiz';

interface QuizFormValues {
  title: string;
  description: string;
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
  const save = useSaveQuiz(courseId, module.id);
  const remove = useDeleteQuiz(courseId, module.id);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<QuizFormValues>({
    mode: 'controlled',
    initialValues: {
      title: quiz?.title ?? `${module.title} quiz`.slice(0, 200),
      description: quiz?.description ?? '',
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

  return (
    <form
      noValidate
      aria-label="Quiz settings"
      onSubmit={form.onSubmit((values) =>
        save.mutate(quizSchema.parse(quizBody(values)), {
          onSuccess: () => notifySuccess(quiz ? 'Quiz updated' : 'Quiz created', quiz ? 'The quiz settings have been saved.' : 'Now add its questions.'),
          onError: (error) => {
            if (error instanceof ApiError && error.fields) form.setErrors(waitErrorOnField(error.fields));
            notifyFailure('Error saving quiz', errorDescription(error, 'The quiz could not be saved.'));
          },
        }),
      )}
    >
      <Stack gap="sm">
        <TextInput label="Quiz Title" required withAsterisk={false} key={form.key('title')} {...form.getInputProps('title')} />
        <Textarea label="Quiz Description" description="Optional, at least 10 characters" autosize minRows={2} key={form.key('description')} {...form.getInputProps('description')} />
        <Group grow align="flex-start">
          <NumberInput label="Passing Score (%)" min={1} max={100} allowDecimal={false} key={form.key('passingScore')} {...form.getInputProps('passingScore')} />
          <NumberInput label="Time Limit (minutes)" description="Leave empty for no limit" min={1} allowDecimal={false} key={form.key('timeLimit')} {...form.getInputProps('timeLimit')} />
        </Group>
        <Switch label="Randomise question order" key={form.key('randomizeQuestions')} {...form.getInputProps('randomizeQuestions', { type: 'checkbox' })} />
        <NativeSelect
          label="Show correct answers"
          description="When learners see the correct answers and explanations after an attempt"
          data={ANSWER_DISPLAYS.map((value) => ({ value, label: ANSWER_DISPLAY_LABELS[value] }))}
          key={form.key('showCorrectAnswers')}
          {...form.getInputProps('showCorrectAnswers')}
        />
        <Group grow align="flex-start">
          <NumberInput
            label="Maximum attempts"
            description="Leave empty for unlimited"
            min={1}
            max={100}
            allowDecimal={false}
            key={form.key('maxAttempts')}
            {...form.getInputProps('maxAttempts')}
          />
          <NumberInput
            label="Wait between attempts"
            description="0 for no wait"
            min={0}
            allowDecimal={false}
            key={form.key('retryWait')}
            {...form.getInputProps('retryWait')}
          />
          <NativeSelect
            label="Wait unit"
            data={[
              { value: 'minutes', label: 'Minutes' },
              { value: 'hours', label: 'Hours' },
            ]}
            key={form.key('retryWaitUnit')}
            {...form.getInputProps('retryWaitUnit')}
          />
        </Group>
        <Group justify="space-between">
          {quiz ? (
            confirming ? (
              <Group gap="xs">
                <Text size="sm">Delete this quiz and all its questions?</Text>
                <Button
                  size="xs"
                  color="red.9"
                  loading={remove.isPending}
                  onClick={() =>
                    remove.mutate(undefined, {
                      onSuccess: () => notifySuccess('Quiz deleted', 'The module no longer has a quiz.'),
                      onError: (error) => notifyFailure('Error deleting quiz', errorDescription(error, 'The quiz could not be deleted.')),
                    })
                  }
                >
                  Delete Quiz
                </Button>
                <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                  Keep Quiz
                </Button>
              </Group>
            ) : (
              <Button variant="filled" color="red.9" onClick={() => setConfirming(true)}>
                Delete Quiz
              </Button>
            )
          ) : (
            <span />
          )}
          <Button type="submit" loading={save.isPending}>
            {quiz ? 'Update Quiz' : 'Create Quiz'}
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
