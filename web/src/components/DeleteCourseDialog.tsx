// Delete Course: asks the server first whether the course can be deleted. A course nobody ever
// started is deleted; one with learner records is archived instead (it leaves the catalogue and no
// one new can enrol; its records are kept), and the dialog says which will happen before anything does.
import { Button, Group, Loader, Modal, Text } from '@mantine/core';
import { errorDescription } from '@/lib/api-client';
import { useArchiveCourse, useCourseDeletion, useDeleteCourse } from '@/lib/course-removal';
import { notifyFailure, notifySuccess } from '@/lib/notify';

export interface CourseToRemove {
  id: string;
  title: string;
}

export function DeleteCourseDialog({ course, onClose }: { course: CourseToRemove | null; onClose: () => void }) {
  const deletion = useCourseDeletion(course?.id ?? null);
  const remove = useDeleteCourse();
  const archive = useArchiveCourse();
  const answer = deletion.data;

  function confirmDelete() {
    if (!course) return;
    remove.mutate(course.id, {
      onSuccess: () => {
        notifySuccess('Course deleted', `${course.title} has been deleted.`);
        onClose();
      },
      onError: (error) => notifyFailure('Error', errorDescription(error, 'Failed to delete course')),
    });
  }

  function confirmArchive() {
    if (!course) return;
    archive.mutate(course.id, {
      onSuccess: () => {
        notifySuccess('Course archived', `${course.title} has been archived. Its learner records are kept.`);
        onClose();
      },
      onError: (error) => notifyFailure('Error', errorDescription(error, 'Failed to archive course')),
    });
  }

  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={course !== null} onClose={onClose} title="Delete Course" centered>
      {deletion.isPending && (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>Checking for learner records…</Text>
        </Group>
      )}
      {deletion.isError && <Text c="red.8">{errorDescription(deletion.error, 'Could not check the course.')}</Text>}
      {answer?.deletable && (
        <Text>
          No one has started &ldquo;{course?.title}&rdquo;, so it will be deleted. This action cannot be undone. All of its
          modules and quizzes will be removed.
        </Text>
      )}
      {answer && !answer.deletable && answer.status !== 'ARCHIVED' && (
        <Text>
          &ldquo;{course?.title}&rdquo; has learner records, so it will be archived, not deleted: it leaves the catalogue and
          no one new can enrol; its enrolments, progress and certificates are kept.
        </Text>
      )}
      {answer && !answer.deletable && answer.status === 'ARCHIVED' && (
        <Text>
          &ldquo;{course?.title}&rdquo; is archived and has learner records, so it cannot be deleted. Its records are kept.
        </Text>
      )}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          {answer && !answer.deletable && answer.status === 'ARCHIVED' ? 'Close' : 'Cancel'}
        </Button>
        {answer?.deletable && (
          <Button color="red.9" loading={remove.isPending} onClick={confirmDelete}>
            Delete
          </Button>
        )}
        {answer && !answer.deletable && answer.status !== 'ARCHIVED' && (
          <Button loading={archive.isPending} onClick={confirmArchive}>
            Archive
          </Button>
        )}
      </Group>
    </Modal>
  );
}
