// A quiz's questions in order, each with its type, points and correct answers, moved up or down,
// edited in place (QuestionForm) or deleted after a confirmation; a new one is added below.
import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import type { AuthoringQuiz, QuizQuestion } from '@shared/authoring.ts';
import { errorDescription } from '@/lib/api-client';
import { moveId } from '@/lib/move-id';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteQuestion, useReorderQuestions } from '../api/quiz';
import { QuestionForm } from './QuestionForm';

export function QuestionList({ courseId, moduleId, quiz }: { courseId: string; moduleId: string; quiz: AuthoringQuiz }) {
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
