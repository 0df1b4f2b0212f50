// Confirms and deletes a course (the server checks the caller may: author or admin).
import { Button, Group, Modal, Text } from '@mantine/core';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteCourse } from '../api/delete-course';
import type { ManagedCourse } from '../api/get-managed-courses';

export function DeleteCourseDialog({ course, onClose }: { course: ManagedCourse | null; onClose: () => void }) {
  const remove = useDeleteCourse();
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={course !== null} onClose={onClose} title="Delete Course">
      <Text>
        Are you sure you want to delete &ldquo;{course?.title}&rdquo;? This action cannot be undone. All of its modules,
        quizzes and enrolments will be removed.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          color="red.9"
          loading={remove.isPending}
          onClick={() =>
            course &&
            remove.mutate(course.id, {
              onSuccess: () => {
                notifySuccess('Course deleted', `${course.title} has been deleted.`);
                onClose();
              },
              onError: (error) => notifyFailure('Error', errorDescription(error, 'Failed to delete course')),
            })
          }
        >
          Delete
        </Button>
      </Group>
    </Modal>
  );
}
