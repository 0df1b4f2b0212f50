// Quiz authoring for one module: the quiz's settings (QuizSettings), then its questions
// (QuestionList, QuestionForm): multiple choice or true/false, with their options, the correct ones
// marked, points and an explanation. The module's Has Quiz badge follows the server's flag.
import { Button, Divider, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import type { CourseModule } from '@shared/catalogue.ts';
import { errorDescription } from '@/lib/api-client';
import { useAuthoringQuiz } from '../api/quiz';
import { QuestionList } from './QuestionList';
import { QuizSettings } from './QuizSettings';

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
