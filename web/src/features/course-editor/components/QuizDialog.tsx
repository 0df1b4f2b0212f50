// Quiz authoring for one module: the quiz's settings (QuizSettings), then its questions
// (QuestionList, QuestionForm): multiple choice or true/false, with their options, the correct ones
// marked, points and an explanation. The module's Has Quiz badge follows the server's flag.
import { Button, Divider, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CourseModule } from '@shared/catalogue.ts';
import { errorDescription } from '@/lib/api-client';
import { useAuthoringQuiz } from '../api/quiz';
import { QuestionList } from './QuestionList';
import { QuizSettings } from './QuizSettings';

export function QuizDialog({ courseId, module, onClose }: { courseId: string; module: CourseModule; onClose: () => void }) {
  const { t } = useTranslation('course-editor');
  const quiz = useAuthoringQuiz(module.id);
  return (
    <Modal opened onClose={onClose} title={t('quizDialog.title', { title: module.title })} size="xl" closeButtonProps={{ 'aria-label': t('closeDialog') }}>
      {quiz.isPending ? (
        <Group justify="center" py="lg" role="status">
          <Loader size="sm" aria-hidden />
          <Text>{t('quizDialog.loading')}</Text>
        </Group>
      ) : quiz.isError ? (
        <Text c="red.8">{errorDescription(quiz.error, t('quizDialog.loadError'))}</Text>
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
              {t('quizDialog.createFirst')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
