// Delete Course: asks the server first whether the course can be deleted. A course nobody ever
// started is deleted; one with learner records is archived instead (it leaves the catalogue and no
// one new can enrol; its records are kept), and the dialog says which will happen before anything does.
import { Button, Group, Loader, Modal, Text } from '@mantine/core';
import { errorDescription } from '@/lib/api-client';
import { useArchiveCourse, useCourseDeletion, useDeleteCourse } from '@/lib/course-removal';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useTranslation } from 'react-i18next';

export interface CourseToRemove {
  id: string;
  title: string;
}

export function DeleteCourseDialog({ course, onClose }: { course: CourseToRemove | null; onClose: () => void }) {
  const { t } = useTranslation();
  const deletion = useCourseDeletion(course?.id ?? null);
  const remove = useDeleteCourse();
  const archive = useArchiveCourse();
  const answer = deletion.data;

  function confirmDelete() {
    if (!course) return;
    remove.mutate(course.id, {
      onSuccess: () => {
        notifySuccess(t('deleteCourse.deleted'), t('deleteCourse.deletedDetail', { title: course.title }));
        onClose();
      },
      onError: (error) => notifyFailure(t('deleteCourse.error'), errorDescription(error, t('deleteCourse.deleteFailed'))),
    });
  }

  function confirmArchive() {
    if (!course) return;
    archive.mutate(course.id, {
      onSuccess: () => {
        notifySuccess(t('deleteCourse.archived'), t('deleteCourse.archivedDetail', { title: course.title }));
        onClose();
      },
      onError: (error) => notifyFailure(t('deleteCourse.error'), errorDescription(error, t('deleteCourse.archiveFailed'))),
    });
  }

  return (
    <Modal closeButtonProps={{ 'aria-label': t('dialog.close') }} opened={course !== null} onClose={onClose} title={t('deleteCourse.title')} centered>
      {deletion.isPending && (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>{t('deleteCourse.checking')}</Text>
        </Group>
      )}
      {deletion.isError && <Text c="red.8">{errorDescription(deletion.error, t('deleteCourse.checkFailed'))}</Text>}
      {answer?.deletable && (
        <Text>{t('deleteCourse.willDelete', { title: course?.title })}</Text>
      )}
      {answer && !answer.deletable && answer.status !== 'ARCHIVED' && (
        <Text>{t('deleteCourse.willArchive', { title: course?.title })}</Text>
      )}
      {answer && !answer.deletable && answer.status === 'ARCHIVED' && (
        <Text>{t('deleteCourse.cannotDelete', { title: course?.title })}</Text>
      )}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          {answer && !answer.deletable && answer.status === 'ARCHIVED' ? t('action.close') : t('action.cancel')}
        </Button>
        {answer?.deletable && (
          <Button color="red.9" loading={remove.isPending} onClick={confirmDelete}>
            {t('action.delete')}
          </Button>
        )}
        {answer && !answer.deletable && answer.status !== 'ARCHIVED' && (
          <Button loading={archive.isPending} onClick={confirmArchive}>
            {t('deleteCourse.archive')}
          </Button>
        )}
      </Group>
    </Modal>
  );
}
