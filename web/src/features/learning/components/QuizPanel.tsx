// A module's quiz: start (which starts the server's clock), answer (radios, or checkboxes where several options are right), a countdown
// when timed (answers are sent automatically at zero), submit, then the score against the pass
// mark with each question's correct answer and explanation when the quiz's setting allows (never,
// after passing, after every attempt), and a retry while attempts remain and no wait is running.
// Focus follows the learner: to the questions after starting, to the result heading after submitting.
// The quiz's words in the reader's language (title, description, questions, options, explanations);
// English shown to a Welsh reader is in lang="en-GB", and the quiz carries one "Ddim ar gael yn Gymraeg"
// mark. Scoring is by the options' indexes, so only the text shown changes.
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ModuleDetail } from '@shared/catalogue.ts';
import type { AnswerDisplay, LearnerQuiz, QuizAttempts, QuizResult } from '@shared/quiz.ts';
import { Interpolated, type Localised, NotInWelsh, SLOT, useLocalise } from '@/components/Localised';
import { errorDescription } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { type ServedQuiz, TimedQuizOfflineError, useStartQuiz, useSubmitQuiz } from '../api/quiz';
import { Countdown } from './Countdown';
import { type Answer, isAnswered, localisedOptions, QuestionField, questionInEnglish } from './QuestionField';

type QuizSummary = NonNullable<ModuleDetail['quiz']>;

/** Why the correct answers are not shown after this attempt. */
function hiddenAnswersNote(t: TFunction, setting: AnswerDisplay): string {
  return setting === 'AFTER_PASSING' ? t('quizPanel.answersAfterPassing') : t('quizPanel.answersNever');
}

/** Attempts left and, while waiting, when the next may start; nothing for an unlimited quiz with no wait. */
function AttemptsLine({ attempts }: { attempts: QuizAttempts }) {
  const { t } = useTranslation('learning');
  const remaining = attempts.remaining == null
    ? null
    : attempts.remaining === 0
      ? t('quizPanel.noAttemptsRemaining')
      : t('quizPanel.attemptsRemaining', { count: attempts.remaining });
  if (attempts.remaining === 0 && attempts.max != null) {
    return <Text data-testid="quiz-attempts">{t('quizPanel.noAttemptsLeft', { count: attempts.max })}</Text>;
  }
  if (!remaining && !attempts.nextAttemptAt) return null;
  return (
    <Text data-testid="quiz-attempts">
      {remaining}
      {remaining && attempts.nextAttemptAt ? ' ' : null}
      {attempts.nextAttemptAt ? t('quizPanel.againFrom', { date: formatDateTime(attempts.nextAttemptAt) }) : null}
    </Text>
  );
}

type Localise = ReturnType<typeof useLocalise>;

/** The texts of some options, joined, in one language (the Welsh set is whole or absent). */
function joined(options: Localised[], indexes: number[]): Localised | null {
  const texts = indexes.map((i) => options[i]).filter((option): option is Localised => Boolean(option));
  if (texts.length === 0) return null;
  return { text: texts.map((option) => option.text).join(', '), lang: texts[0].lang, fallback: texts.some((option) => option.fallback) };
}

/** A result shown with some English to a Welsh reader (an option or an explanation). */
function resultInEnglish(localise: Localise, result: QuizResult): boolean {
  return result.questions.some(
    (answer) =>
      localisedOptions(localise, answer.options, answer.optionsCy).some((option) => option.fallback) ||
      (answer.explanation ? localise(answer.explanation, answer.explanationCy).fallback : false),
  );
}

/** The learner may start an attempt now (attempts left and no wait running). */
function mayStart(attempts: QuizAttempts, now: number): boolean {
  if (attempts.remaining === 0) return false;
  return !attempts.nextAttemptAt || new Date(attempts.nextAttemptAt).getTime() <= now;
}

function ResultView({
  quiz,
  result,
  onRetry,
  retrying,
  canRetry,
}: {
  quiz: LearnerQuiz;
  result: QuizResult;
  onRetry: () => void;
  retrying: boolean;
  canRetry: boolean;
}) {
  const { t } = useTranslation('learning');
  const localise = useLocalise();
  const byId = new Map(quiz.questions.map((q) => [q.id, q]));
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After submitting, the submit button is gone: focus moves to the result's heading.
  useEffect(() => {
    headingRef.current?.focus();
  }, [result.id]);
  return (
    <Stack gap="md" data-testid="quiz-result">
      <Alert
        color={result.passed ? 'green' : 'red'}
        variant="light"
        icon={result.passed ? <IconCircleCheck aria-hidden="true" /> : <IconCircleX aria-hidden="true" />}
        role="status"
      >
        <Stack gap={4}>
          {/* The heading in the text colour: the light variant's green title is 3.8:1 on its background. */}
          <Title order={3} size="h5" ref={headingRef} tabIndex={-1} c="var(--mantine-color-text)">
            {result.passed ? t('quizPanel.passedTitle') : t('quizPanel.notPassedTitle')}
          </Title>
          <Text c="var(--mantine-color-text)">
            {t('quizPanel.scored', { score: result.score, maxScore: result.maxScore, percentage: result.percentage, passingScore: result.passingScore })}
          </Text>
        </Stack>
      </Alert>
      {!result.answersShown ? <Text>{hiddenAnswersNote(t, quiz.showCorrectAnswers)}</Text> : null}
      <Stack gap="sm" component="ol" style={{ paddingLeft: 20, margin: 0 }}>
        {result.questions.map((answer) => {
          const question = byId.get(answer.id);
          const text = question ? localise(question.questionText, question.questionCy) : null;
          const options = localisedOptions(localise, answer.options, answer.optionsCy);
          const chosen = joined(options, answer.chosen);
          const correct = joined(options, answer.correctAnswers ?? []);
          const explanation = answer.explanation ? localise(answer.explanation, answer.explanationCy) : null;
          return (
            <li key={answer.id}>
              <Stack gap={2}>
                <Group gap="xs">
                  <Text fw={600} lang={text?.lang}>
                    {text?.text}
                  </Text>
                  {answer.correct != null ? (
                    <Badge color={answer.correct ? 'teal.9' : 'red.9'} variant="filled">
                      {answer.correct ? t('quizPanel.correct') : t('quizPanel.incorrect')}
                    </Badge>
                  ) : null}
                </Group>
                <Text size="sm">
                  {chosen ? (
                    <Interpolated message={t('quizPanel.yourAnswer', { answer: SLOT })} value={chosen} />
                  ) : (
                    t('quizPanel.yourAnswer', { answer: t('quizPanel.noAnswer') })
                  )}
                </Text>
                {answer.correct === false && answer.correctAnswers ? (
                  <Text size="sm">
                    {correct ? <Interpolated message={t('quizPanel.correctAnswer', { answer: SLOT })} value={correct} /> : t('quizPanel.correctAnswer', { answer: '' })}
                  </Text>
                ) : null}
                {explanation ? (
                  <Text size="sm" c="dimmed" lang={explanation.lang}>
                    {explanation.text}
                  </Text>
                ) : null}
              </Stack>
            </li>
          );
        })}
      </Stack>
      <AttemptsLine attempts={result.attempts} />
      {canRetry ? (
        <Group>
          <Button variant={result.passed ? 'default' : 'filled'} onClick={onRetry} loading={retrying}>
            {result.passed ? t('quizPanel.takeAgain') : t('quizPanel.tryAgain')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

export function QuizPanel({ moduleId, summary, canTake, passedBefore }: { moduleId: string; summary: QuizSummary; canTake: boolean; passedBefore: boolean }) {
  const { t } = useTranslation('learning');
  const localise = useLocalise();
  const start = useStartQuiz();
  const submit = useSubmitQuiz();
  const [quiz, setQuiz] = useState<ServedQuiz | null>(null);
  /** The answers are kept on the device, to be scored when the connection is back. */
  const [savedOffline, setSavedOffline] = useState(false);
  const [offset, setOffset] = useState(0);
  const [answers, setAnswers] = useState<Record<string, Answer>>({});
  const answersRef = useRef(answers);
  const [result, setResult] = useState<QuizResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const attempts = result?.attempts ?? quiz?.attempts ?? summary.attempts;
  const [now, setNow] = useState(() => Date.now());
  const questionsRef = useRef<HTMLFormElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const focusQuestions = useRef(false);

  // While waiting, the start button comes back when the wait is over (timers hold up to ~24 days).
  useEffect(() => {
    if (!attempts.nextAttemptAt) return;
    const wait = new Date(attempts.nextAttemptAt).getTime() - Date.now();
    if (wait <= 0 || wait > 2_000_000_000) return;
    const timer = setTimeout(() => setNow(Date.now()), wait + 500);
    return () => clearTimeout(timer);
  }, [attempts.nextAttemptAt]);

  // After starting, the start button is gone: focus moves to the questions.
  useEffect(() => {
    if (quiz && !result && focusQuestions.current) {
      focusQuestions.current = false;
      questionsRef.current?.focus();
    }
  }, [quiz, result]);

  function begin() {
    setProblem(null);
    start.mutate(moduleId, {
      onSuccess: (served) => {
        focusQuestions.current = true;
        setQuiz(served);
        // The countdown runs on the server's clock, whatever the device's clock says.
        setOffset(new Date(served.serverNow).getTime() - Date.now());
        answersRef.current = {};
        setAnswers({});
        setResult(null);
        setSavedOffline(false);
      },
      onError: (error) => {
        setProblem(error instanceof TimedQuizOfflineError ? t('quizPanel.timedNeedsConnection') : errorDescription(error, t('quizPanel.startFailed')));
        // The start button stays (or is back): keep the focus on it rather than on the page.
        requestAnimationFrame(() => startRef.current?.focus());
      },
    });
  }

  function send(all: boolean) {
    if (!quiz) return;
    const current = answersRef.current;
    if (all && quiz.questions.some((q) => !isAnswered(current[q.id]))) {
      setProblem(t('quizPanel.unanswered'));
      return;
    }
    setProblem(null);
    submit.mutate(
      { quiz, answers: current },
      {
        onSuccess: (scored) => (scored ? setResult(scored) : setSavedOffline(true)),
        onError: (error) => setProblem(errorDescription(error, t('quizPanel.submitFailed'))),
      },
    );
  }

  function choose(questionId: string, value: Answer) {
    const next = { ...answersRef.current, [questionId]: value };
    answersRef.current = next;
    setAnswers(next);
  }

  const title = localise(summary.title, summary.titleCy);
  const description = summary.description ? localise(summary.description, summary.descriptionCy) : null;
  // One mark for the quiz: its title or description, a question or option, an option or explanation of the result in English.
  const english =
    title.fallback ||
    Boolean(description?.fallback) ||
    (quiz ? quiz.questions.some((question) => questionInEnglish(localise, question)) : false) ||
    (result ? resultInEnglish(localise, result) : false);

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="quiz-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h3" id="quiz-title">
            <Interpolated message={t('quizPanel.title', { title: SLOT })} value={title} />
          </Title>
          <Group gap="xs">
            {english ? <NotInWelsh /> : null}
            {passedBefore ? (
              <Badge color="teal.9" variant="filled">
                {t('quizPanel.passed')}
              </Badge>
            ) : null}
          </Group>
        </Group>
        {description ? <Text lang={description.lang}>{description.text}</Text> : null}
        <Text size="sm" c="dimmed">
          {summary.timeLimit
            ? t('quizPanel.passMarkTimed', { passingScore: summary.passingScore, count: summary.timeLimit })
            : t('quizPanel.passMarkUntimed', { passingScore: summary.passingScore })}
        </Text>

        {!canTake ? (
          <Text>{t('quizPanel.enrolToTake')}</Text>
        ) : savedOffline ? (
          <Alert color="blue" variant="light" role="status" data-testid="quiz-saved-offline">
            {t('quizPanel.savedOffline')}
          </Alert>
        ) : result && quiz ? (
          <Stack gap="sm">
            <ResultView quiz={quiz} result={result} onRetry={begin} retrying={start.isPending} canRetry={mayStart(result.attempts, now)} />
            {problem ? (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            ) : null}
          </Stack>
        ) : quiz ? (
          <form
            ref={questionsRef}
            tabIndex={-1}
            aria-label={t('quizPanel.questionsOf', { title: localise(quiz.title, quiz.titleCy).text })}
            style={{ outlineOffset: 4 }}
            onSubmit={(event) => {
              event.preventDefault();
              send(true);
            }}
            noValidate
          >
            <Stack gap="lg">
              {quiz.offline ? <Text size="sm">{t('quizPanel.answeringOffline')}</Text> : null}
              {quiz.attempt.deadline ? (
                <Countdown key={quiz.attempt.id} deadline={quiz.attempt.deadline} offsetMs={offset} onExpire={() => send(false)} />
              ) : null}
              {quiz.questions.map((question, index) => (
                <QuestionField
                  key={question.id}
                  question={question}
                  number={index + 1}
                  value={answers[question.id]}
                  onChange={(value) => choose(question.id, value)}
                />
              ))}
              {problem ? (
                <Alert color="red" role="alert">
                  {problem}
                </Alert>
              ) : null}
              <Group>
                <Button type="submit" loading={submit.isPending}>
                  {t('quizPanel.submit')}
                </Button>
                {submit.isError ? (
                  <Button variant="default" onClick={begin} loading={start.isPending}>
                    {t('quizPanel.startAgain')}
                  </Button>
                ) : null}
              </Group>
            </Stack>
          </form>
        ) : (
          <Stack gap="sm" align="flex-start">
            <AttemptsLine attempts={attempts} />
            {problem ? (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            ) : null}
            {mayStart(attempts, now) ? (
              <Button ref={startRef} onClick={begin} loading={start.isPending}>
                {passedBefore ? t('quizPanel.takeAgain') : t('quizPanel.start')}
              </Button>
            ) : null}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
