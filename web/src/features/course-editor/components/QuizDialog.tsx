// Quiz authoring for one module: the quiz's settings, then its questions (multiple choice or
// true/false) with their options, the correct ones marked, points and an explanation; questions are
// added, edited, moved and deleted here. The module's Has Quiz badge follows the server's flag.
import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Checkbox,
  Divider,
  Group,
  Loader,
  Modal,
  NativeSelect,
  NumberInput,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import {
  DEFAULT_PASSING_SCORE,
  questionSchema,
  quizSchema,
  TRUE_FALSE_OPTIONS,
  type AuthoringQuiz,
  type QuestionInput,
  type QuizQuestion,
} from '@shared/authoring.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { ANSWER_DISPLAY_LABELS, ANSWER_DISPLAYS, type AnswerDisplay } from '@shared/quiz.ts';
import { fieldErrors } from '@shared/schemas.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import {
  useAuthoringQuiz,
  useDeleteQuestion,
  useDeleteQuiz,
  useReorderQuestions,
  useSaveQuestion,
  useSaveQuiz,
} from '../api/quiz';
import { moveId } from '@/lib/move-id';

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

function QuizSettings({ courseId, module, quiz }: { courseId: string; module: CourseModule; quiz: AuthoringQuiz | null }) {
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

function QuestionForm({
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

  return (
    <Card withBorder padding="md" radius="md">
      <form
        noValidate
        aria-label={question ? 'Edit Question' : 'New Question'}
        onSubmit={form.onSubmit((values) => {
          const input: QuestionInput = questionSchema.parse(values);
          save.mutate(
            { id: question?.id, input },
            {
              onSuccess: () => {
                notifySuccess(question ? 'Question updated' : 'Question added', 'The quiz has been saved.');
                onDone();
              },
              onError: (error) => {
                if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
                notifyFailure('Error saving question', errorDescription(error, 'The question could not be saved.'));
              },
            },
          );
        })}
      >
        <Stack gap="sm">
          <Title order={4} size="h5">
            {question ? 'Edit Question' : 'New Question'}
          </Title>
          <Textarea label="Question Text" required withAsterisk={false} autosize minRows={2} key={form.key('questionText')} {...form.getInputProps('questionText')} />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="question-type-label">
              Question Type
            </Text>
            <SegmentedControl
              aria-labelledby="question-type-label"
              value={form.values.questionType}
              onChange={setType}
              data={[
                { value: 'MULTIPLE_CHOICE', label: 'Multiple choice' },
                { value: 'TRUE_FALSE', label: 'True or false' },
              ]}
            />
          </Stack>
          <fieldset style={{ border: 0, padding: 0, margin: 0 }} aria-describedby={optionsError ? 'options-error' : undefined}>
            <legend>
              <Text size="sm" fw={500}>
                Options (tick the correct {isTrueFalse ? 'answer' : 'answers'})
              </Text>
            </legend>
            <Stack gap="xs" mt={4}>
              {form.values.options.map((option, index) => (
                <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
                  <Checkbox
                    mt={8}
                    label="Correct"
                    aria-label={`Option ${index + 1} is correct`}
                    checked={option.isCorrect}
                    onChange={(event) => markCorrect(index, event.currentTarget.checked)}
                  />
                  <TextInput
                    style={{ flex: 1 }}
                    aria-label={`Option ${index + 1}`}
                    placeholder={`Option ${index + 1}`}
                    readOnly={isTrueFalse}
                    key={form.key(`options.${index}.text`)}
                    {...form.getInputProps(`options.${index}.text`)}
                  />
                  {!isTrueFalse && form.values.options.length > 2 ? (
                    <ActionIcon variant="subtle" color="red.9" mt={4} aria-label={`Remove option ${index + 1}`} onClick={() => form.removeListItem('options', index)}>
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
                  Add Option
                </Button>
              ) : null}
            </Stack>
          </fieldset>
          <Group grow align="flex-start">
            <NumberInput label="Points" min={1} allowDecimal={false} key={form.key('points')} {...form.getInputProps('points')} />
          </Group>
          <Textarea label="Explanation" description="Optional: shown to learners after they submit" autosize minRows={2} key={form.key('explanation')} {...form.getInputProps('explanation')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save Question
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function QuestionList({ courseId, moduleId, quiz }: { courseId: string; moduleId: string; quiz: AuthoringQuiz }) {
  const [editing, setEditing] = useState<QuizQuestion | 'new' | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const reorder = useReorderQuestions(courseId, moduleId, quiz.id);
  const remove = useDeleteQuestion(courseId, moduleId);
  const questions = quiz.questions;

  function move(index: number, delta: -1 | 1) {
    const order = moveId(questions.map((q) => q.id), index, delta);
    if (!order) return;
    reorder.mutate(order, {
      onSuccess: () => notifySuccess('Questions reordered', 'The question order has been updated.'),
      onError: (error) => notifyFailure('Error reordering questions', errorDescription(error, 'The order could not be saved.')),
    });
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} size="h4">
          Questions ({questions.length})
        </Title>
        {editing === null ? (
          <Button size="sm" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            Add Question
          </Button>
        ) : null}
      </Group>
      {questions.length === 0 && editing === null ? (
        <Text size="sm" c="dimmed">
          No questions yet. A learner must pass the quiz to complete the module, so add at least one.
        </Text>
      ) : null}
      <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Questions">
        {questions.map((q, index) =>
          editing !== 'new' && editing?.id === q.id ? (
            <li key={q.id}>
              <QuestionForm courseId={courseId} moduleId={moduleId} quizId={quiz.id} question={q} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <Card key={q.id} withBorder padding="sm" radius="md" component="li" data-testid="question-card">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Badge variant="filled" color="blue.9">
                      Question {q.orderIndex}
                    </Badge>
                    <Badge variant="default">
                      {q.questionType === 'TRUE_FALSE' ? 'True or false' : 'Multiple choice'}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {q.points} {q.points === 1 ? 'point' : 'points'}
                    </Text>
                  </Group>
                  <Text fw={500}>{q.questionText}</Text>
                  <Text size="sm" c="dimmed">
                    Correct: {q.options.filter((o) => o.isCorrect).map((o) => o.text).join(', ')}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="default" aria-label={`Move question ${q.orderIndex} up`} disabled={index === 0 || reorder.isPending} onClick={() => move(index, -1)}>
                    <IconArrowUp size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    aria-label={`Move question ${q.orderIndex} down`}
                    disabled={index === questions.length - 1 || reorder.isPending}
                    onClick={() => move(index, 1)}
                  >
                    <IconArrowDown size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
              {deleting === q.id ? (
                <Group gap="xs" mt="xs">
                  <Text size="sm">Delete this question?</Text>
                  <Button
                    size="xs"
                    color="red.9"
                    loading={remove.isPending}
                    onClick={() =>
                      remove.mutate(q.id, {
                        onSuccess: () => {
                          notifySuccess('Question deleted', 'The question has been removed from the quiz.');
                          setDeleting(null);
                        },
                        onError: (error) => notifyFailure('Error deleting question', errorDescription(error, 'The question could not be deleted.')),
                      })
                    }
                  >
                    Delete Question
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setDeleting(null)}>
                    Cancel
                  </Button>
                </Group>
              ) : (
                <Group gap="xs" mt="xs">
                  <Button size="xs" variant="default" onClick={() => setEditing(q)} aria-label={`Edit question ${q.orderIndex}`}>
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    variant="filled"
                    color="red.9"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    onClick={() => setDeleting(q.id)}
                    aria-label={`Delete question ${q.orderIndex}`}
                  >
                    Delete
                  </Button>
                </Group>
              )}
            </Card>
          ),
        )}
      </Stack>
      {editing === 'new' ? <QuestionForm courseId={courseId} moduleId={moduleId} quizId={quiz.id} onDone={() => setEditing(null)} /> : null}
    </Stack>
  );
}

export function QuizDialog({ courseId, module, onClose }: { courseId: string; module: CourseModule; onClose: () => void }) {
  const quiz = useAuthoringQuiz(module.id);
  return (
    <Modal opened onClose={onClose} title={`Quiz: ${module.title}`} size="xl" closeButtonProps={{ 'aria-label': 'Close dialog' }}>
      {quiz.isPending ? (
        <Group justify="center" py="lg" role="status">
          <Loader size="sm" aria-hidden />
          <Text>Loading quiz</Text>
        </Group>
      ) : quiz.isError ? (
        <Text c="red.8">{errorDescription(quiz.error, 'The quiz could not be loaded.')}</Text>
      ) : (
        <Stack gap="md">
          {/* Keyed by quiz id so the settings form starts afresh once a quiz exists or is deleted. */}
          <QuizSettings key={quiz.data?.id ?? 'none'} courseId={courseId} module={module} quiz={quiz.data} />
          {quiz.data ? (
            <>
              <Divider />
              <QuestionList courseId={courseId} moduleId={module.id} quiz={quiz.data} />
            </>
          ) : (
            <Text size="sm" c="dimmed">
              Create the quiz to add its questions.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
