// A quiz's questions in order, each with its type, points and correct answers, moved up or down,
// edited in place (QuestionForm) or deleted after a confirmation; a new one is added below.
import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AuthoringQuiz, QuizQuestion } from '@shared/authoring.ts';
import { errorDescription } from '@/lib/api-client';
import { moveId } from '@/lib/move-id';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteQuestion, useReorderQuestions } from '../api/quiz';
import { QuestionForm } from './QuestionForm';
import { MissingWelshBadge } from './WelshBadges';
import { questionLacksWelsh } from '../lib/welsh';

export function QuestionList({ courseId, moduleId, quiz }: { courseId: string; moduleId: string; quiz: AuthoringQuiz }) {
  const { t } = useTranslation('course-editor');
  const [editing, setEditing] = useState<QuizQuestion | 'new' | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const reorder = useReorderQuestions(courseId, moduleId, quiz.id);
  const remove = useDeleteQuestion(courseId, moduleId);
  const questions = quiz.questions;

  function move(index: number, delta: -1 | 1) {
    const order = moveId(questions.map((q) => q.id), index, delta);
    if (!order) return;
    reorder.mutate(order, {
      onSuccess: () => notifySuccess(t('questions.reordered'), t('questions.reorderedMessage')),
      onError: (error) => notifyFailure(t('questions.reorderError'), errorDescription(error, t('orderNotSaved'))),
    });
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} size="h4">
          {t('questions.title', { count: questions.length })}
        </Title>
        {editing === null ? (
          <Button size="sm" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('questions.add')}
          </Button>
        ) : null}
      </Group>
      {questions.length === 0 && editing === null ? (
        <Text size="sm" c="dimmed">
          {t('questions.none')}
        </Text>
      ) : null}
      <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('questions.list')}>
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
                      {t('questions.number', { number: q.orderIndex })}
                    </Badge>
                    <Badge variant="default">
                      {q.questionType === 'TRUE_FALSE' ? t('question.trueFalse') : t('question.multipleChoice')}
                    </Badge>
                    {questionLacksWelsh(q) ? <MissingWelshBadge /> : null}
                    <Text size="xs" c="dimmed">
                      {t('questions.points', { count: q.points })}
                    </Text>
                  </Group>
                  <Text fw={500}>{q.questionText}</Text>
                  <Text size="sm" c="dimmed">
                    {t('questions.correct', { answers: q.options.filter((o) => o.isCorrect).map((o) => o.text).join(', ') })}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="default" aria-label={t('questions.moveUp', { number: q.orderIndex })} disabled={index === 0 || reorder.isPending} onClick={() => move(index, -1)}>
                    <IconArrowUp size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    aria-label={t('questions.moveDown', { number: q.orderIndex })}
                    disabled={index === questions.length - 1 || reorder.isPending}
                    onClick={() => move(index, 1)}
                  >
                    <IconArrowDown size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
              {deleting === q.id ? (
                <Group gap="xs" mt="xs">
                  <Text size="sm">{t('questions.deleteConfirm')}</Text>
                  <Button
                    size="xs"
                    color="red.9"
                    loading={remove.isPending}
                    onClick={() =>
                      remove.mutate(q.id, {
                        onSuccess: () => {
                          notifySuccess(t('questions.deleted'), t('questions.deletedMessage'));
                          setDeleting(null);
                        },
                        onError: (error) => notifyFailure(t('questions.deleteError'), errorDescription(error, t('questions.deleteErrorMessage'))),
                      })
                    }
                  >
                    {t('questions.deleteButton')}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setDeleting(null)}>
                    {t('cancel')}
                  </Button>
                </Group>
              ) : (
                <Group gap="xs" mt="xs">
                  <Button size="xs" variant="default" onClick={() => setEditing(q)} aria-label={t('questions.editFor', { number: q.orderIndex })}>
                    {t('edit')}
                  </Button>
                  <Button
                    size="xs"
                    variant="filled"
                    color="red.9"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    onClick={() => setDeleting(q.id)}
                    aria-label={t('questions.deleteFor', { number: q.orderIndex })}
                  >
                    {t('delete')}
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
