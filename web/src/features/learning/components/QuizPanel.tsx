// A module's quiz: start (which starts the server's clock), answer (radios, or checkboxes where several options are right), a countdown
// when timed (answers are sent automatically at zero), submit, then the score against the pass
// mark with each question's correct answer and explanation, and a retry.
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import type { ModuleDetail } from '@shared/catalogue.ts';
import { type LearnerQuiz, type QuizResult, UNANSWERED_MESSAGE } from '@shared/quiz.ts';
import { errorDescription } from '@/lib/api-client';
import { useStartQuiz, useSubmitQuiz } from '../api/quiz';
import { Countdown } from './Countdown';
import { type Answer, isAnswered, QuestionField } from './QuestionField';

type QuizSummary = NonNullable<ModuleDetail['quiz']>;

function ResultView({ quiz, result, onRetry, retrying }: { quiz: LearnerQuiz; result: QuizResult; onRetry: () => void; retrying: boolean }) {
  const byId = new Map(quiz.questions.map((q) => [q.id, q]));
  return (
    <Stack gap="md" data-testid="quiz-result">
      <Alert
        color={result.passed ? 'green' : 'red'}
        variant="light"
        // The title in the text colour: the light variant's green title is 3.8:1 on its background.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
        icon={result.passed ? <IconCircleCheck aria-hidden="true" /> : <IconCircleX aria-hidden="true" />}
        title={result.passed ? 'Quiz passed' : 'Quiz not passed'}
        role="status"
      >
        <Text c="var(--mantine-color-text)">
          You scored {result.score} of {result.maxScore} ({result.percentage}%). The pass mark is {result.passingScore}%.
        </Text>
      </Alert>
      <Stack gap="sm" component="ol" style={{ paddingLeft: 20, margin: 0 }}>
        {result.questions.map((answer) => {
          const question = byId.get(answer.id);
          const chosen = answer.chosen.map((i) => answer.options[i]?.text).filter(Boolean).join(', ') || 'No answer';
          const correct = answer.correctAnswers.map((i) => answer.options[i]?.text).join(', ');
          return (
            <li key={answer.id}>
              <Stack gap={2}>
                <Group gap="xs">
                  <Text fw={600}>{question?.questionText}</Text>
                  <Badge color={answer.correct ? 'teal.9' : 'red.9'} variant="filled">
                    {answer.correct ? 'Correct' : 'Incorrect'}
                  </Badge>
                </Group>
                <Text size="sm">Your answer: {chosen}</Text>
                {!answer.correct ? <Text size="sm">Correct answer: {correct}</Text> : null}
                {answer.explanation ? (
                  <Text size="sm" c="dimmed">
                    {answer.explanation}
                  </Text>
                ) : null}
              </Stack>
            </li>
          );
        })}
      </Stack>
      <Group>
        <Button variant={result.passed ? 'default' : 'filled'} onClick={onRetry} loading={retrying}>
          {result.passed ? 'Take the quiz again' : 'Try again'}
        </Button>
      </Group>
    </Stack>
  );
}

export function QuizPanel({ moduleId, summary, canTake, passedBefore }: { moduleId: string; summary: QuizSummary; canTake: boolean; passedBefore: boolean }) {
  const start = useStartQuiz();
  const submit = useSubmitQuiz();
  const [quiz, setQuiz] = useState<LearnerQuiz | null>(null);
  const [offset, setOffset] = useState(0);
  const [answers, setAnswers] = useState<Record<string, Answer>>({});
  const answersRef = useRef(answers);
  const [result, setResult] = useState<QuizResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  function begin() {
    setProblem(null);
    start.mutate(moduleId, {
      onSuccess: (served) => {
        setQuiz(served);
        // The countdown runs on the server's clock, whatever the device's clock says.
        setOffset(new Date(served.serverNow).getTime() - Date.now());
        answersRef.current = {};
        setAnswers({});
        setResult(null);
      },
      onError: (error) => setProblem(errorDescription(error, 'The quiz could not be started.')),
    });
  }

  function send(all: boolean) {
    if (!quiz) return;
    const current = answersRef.current;
    if (all && quiz.questions.some((q) => !isAnswered(current[q.id]))) {
      setProblem(UNANSWERED_MESSAGE);
      return;
    }
    setProblem(null);
    submit.mutate(
      { quizId: quiz.id, answers: current },
      {
        onSuccess: setResult,
        onError: (error) => setProblem(errorDescription(error, 'Your answers could not be submitted.')),
      },
    );
  }

  function choose(questionId: string, value: Answer) {
    const next = { ...answersRef.current, [questionId]: value };
    answersRef.current = next;
    setAnswers(next);
  }

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="quiz-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h3" id="quiz-title">
            Quiz: {summary.title}
          </Title>
          {passedBefore ? (
            <Badge color="teal.9" variant="filled">
              Passed
            </Badge>
          ) : null}
        </Group>
        {summary.description ? <Text>{summary.description}</Text> : null}
        <Text size="sm" c="dimmed">
          Pass mark {summary.passingScore}%{summary.timeLimit ? ` · Time limit ${summary.timeLimit} minutes` : ' · No time limit'}
        </Text>

        {!canTake ? (
          <Text>Enrol in this course to take its quiz.</Text>
        ) : result && quiz ? (
          <ResultView quiz={quiz} result={result} onRetry={begin} retrying={start.isPending} />
        ) : quiz ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              send(true);
            }}
            noValidate
          >
            <Stack gap="lg">
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
                  Submit answers
                </Button>
                {submit.isError ? (
                  <Button variant="default" onClick={begin} loading={start.isPending}>
                    Start again
                  </Button>
                ) : null}
              </Group>
            </Stack>
          </form>
        ) : (
          <Stack gap="sm" align="flex-start">
            {problem ? (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            ) : null}
            <Button onClick={begin} loading={start.isPending}>
              {passedBefore ? 'Take the quiz again' : 'Start quiz'}
            </Button>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
