// Modules & Quizzes: the course's modules in order, moved one place at a time (one request with the
// whole new order), edited in a dialog, deleted after confirmation, each with its quiz; a classroom
// session module with its dates (features/sessions, loaded when opened).
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { modulePreview } from '@shared/authoring.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteModule, useModules, useReorderModules } from '../api/modules';
import { ModuleDialog } from './ModuleDialog';
import { QuizDialog } from './QuizDialog';
import { ScormPackageDialog } from './ScormPackageDialog';
import { MissingWelshBadge } from './WelshBadges';
import { moduleLacksWelsh } from '../lib/welsh';
import { moveId } from '@/lib/move-id';

const SessionDatesDialog = lazy(() => import('@/features/sessions/components/SessionDatesDialog'));
/** A practical assessment's settings and checklist, handed in by the route (features/assessments). */
export type AssessmentDialogSlot = (props: { module: CourseModule; onClose: () => void }) => ReactNode;

type Editing = { mode: 'create' } | { mode: 'edit'; module: CourseModule } | null;

export function ModulesPanel({ courseId, onNeedCourse, assessmentDialog }: { courseId?: string; onNeedCourse: () => void; assessmentDialog?: AssessmentDialogSlot }) {
  const { t } = useTranslation('course-editor');
  const modules = useModules(courseId);
  const reorder = useReorderModules(courseId ?? '');
  const remove = useDeleteModule(courseId ?? '');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CourseModule | null>(null);
  const [quizFor, setQuizFor] = useState<CourseModule | null>(null);
  const [packageFor, setPackageFor] = useState<CourseModule | null>(null);
  const [datesFor, setDatesFor] = useState<CourseModule | null>(null);
  const [assessmentFor, setAssessmentFor] = useState<CourseModule | null>(null);
  const list = modules.data ?? [];

  function add() {
    if (!courseId) {
      notifyFailure(t('modules.needCourse'), t('modules.needCourseMessage'));
      onNeedCourse();
      return;
    }
    setEditing({ mode: 'create' });
  }

  function move(index: number, delta: -1 | 1) {
    const order = moveId(list.map((m) => m.id), index, delta);
    if (!order) return;
    reorder.mutate(order, {
      onSuccess: () => notifySuccess(t('modules.reordered'), t('modules.reorderedMessage')),
      onError: (error) => notifyFailure(t('modules.reorderError'), errorDescription(error, t('orderNotSaved'))),
    });
  }

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifySuccess(t('modules.deleted'), t('modules.deletedMessage', { title: deleting.title }));
        setDeleting(null);
      },
      onError: (error) => notifyFailure(t('modules.deleteError'), errorDescription(error, t('modules.deleteFailed'))),
    });
  }

  if (courseId && modules.isPending) {
    return (
      <Group justify="center" py="lg" role="status">
        <Loader size="sm" aria-hidden />
        <Text>{t('modules.loading')}</Text>
      </Group>
    );
  }
  if (modules.isError) {
    return <Text c="red.8">{errorDescription(modules.error, t('modules.loadFailed'))}</Text>;
  }

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('modules.title')}
        </Title>
        {list.length > 0 ? (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={add}>
            {t('modules.add')}
          </Button>
        ) : null}
      </Group>

      {list.length === 0 ? (
        <Card withBorder padding="xl" radius="md">
          <Stack align="center" gap="sm">
            <Title order={3} size="h4">
              {t('modules.none')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('modules.noneHint')}
            </Text>
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={add}>
              {t('modules.addFirst')}
            </Button>
          </Stack>
        </Card>
      ) : (
        <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('modules.list')}>
          {list.map((module, index) => (
            <Card key={module.id} withBorder padding="md" radius="md" component="li" data-testid="module-card">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack gap={6} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Badge variant="filled" color="blue.9">
                      {t('modules.number', { number: module.orderIndex })}
                    </Badge>
                    {module.kind === 'scorm' ? (
                      <Badge variant="filled" color="teal.9">
                        {t('modules.scormBadge')}
                      </Badge>
                    ) : module.kind === 'session' ? (
                      <Badge variant="filled" color="indigo.9">
                        {t('modules.sessionBadge')}
                      </Badge>
                    ) : module.kind === 'assessment' ? (
                      <Badge variant="filled" color="cyan.9">
                        {t('modules.assessmentBadge')}
                      </Badge>
                    ) : null}
                    {module.hasQuiz ? (
                      <Badge variant="filled" color="grape.9">
                        {t('modules.hasQuiz')}
                      </Badge>
                    ) : null}
                    {moduleLacksWelsh(module) ? <MissingWelshBadge /> : null}
                    <Text size="xs" c="dimmed">
                      {t('modules.minutes', { minutes: module.duration })}
                    </Text>
                  </Group>
                  <Title order={3} size="h5">
                    {module.title}
                  </Title>
                  <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {module.kind === 'scorm' ? t('modules.scormPreview') : modulePreview(module.content ?? '')}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="default"
                    aria-label={t('modules.moveUp', { title: module.title })}
                    disabled={index === 0 || reorder.isPending}
                    onClick={() => move(index, -1)}
                  >
                    <IconArrowUp size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    aria-label={t('modules.moveDown', { title: module.title })}
                    disabled={index === list.length - 1 || reorder.isPending}
                    onClick={() => move(index, 1)}
                  >
                    <IconArrowDown size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
              <Group gap="xs" mt="sm">
                <Button size="xs" variant="default" onClick={() => setEditing({ mode: 'edit', module })} aria-label={t('modules.editFor', { title: module.title })}>
                  {t('modules.edit')}
                </Button>
                {module.kind === 'scorm' ? (
                  <Button size="xs" variant="default" onClick={() => setPackageFor(module)} aria-label={t('modules.packageFor', { title: module.title })}>
                    {t('modules.package')}
                  </Button>
                ) : module.kind === 'session' ? (
                  <Button size="xs" variant="default" onClick={() => setDatesFor(module)} aria-label={t('modules.datesFor', { title: module.title })}>
                    {t('modules.dates')}
                  </Button>
                ) : module.kind === 'assessment' ? (
                  <Button size="xs" variant="default" onClick={() => setAssessmentFor(module)} aria-label={t('modules.assessmentFor', { title: module.title })}>
                    {t('modules.assessment')}
                  </Button>
                ) : (
                  // A quiz belongs to a content module: a session completes by its register, a practical by its sign-off.
                  <Button size="xs" variant="default" onClick={() => setQuizFor(module)} aria-label={module.hasQuiz ? t('modules.editQuizFor', { title: module.title }) : t('modules.addQuizFor', { title: module.title })}>
                    {module.hasQuiz ? t('modules.editQuiz') : t('modules.addQuiz')}
                  </Button>
                )}
                <Button
                  size="xs"
                  variant="filled"
                  color="red.9"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  onClick={() => setDeleting(module)}
                  aria-label={t('modules.deleteFor', { title: module.title })}
                >
                  {t('delete')}
                </Button>
              </Group>
            </Card>
          ))}
        </Stack>
      )}

      {courseId && editing ? (
        <ModuleDialog
          courseId={courseId}
          module={editing.mode === 'edit' ? editing.module : undefined}
          nextOrder={list.length + 1}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {courseId && quizFor ? <QuizDialog courseId={courseId} module={quizFor} onClose={() => setQuizFor(null)} /> : null}
      {datesFor ? (
        <Suspense fallback={null}>
          <SessionDatesDialog module={datesFor} onClose={() => setDatesFor(null)} />
        </Suspense>
      ) : null}
      {assessmentFor ? assessmentDialog?.({ module: assessmentFor, onClose: () => setAssessmentFor(null) }) : null}
      {courseId && packageFor ? <ScormPackageDialog courseId={courseId} module={packageFor} onClose={() => setPackageFor(null)} /> : null}

      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('modules.deleteTitle')} centered closeButtonProps={{ 'aria-label': t('closeDialog') }}>
        <Stack>
          <Text size="sm">{t('modules.deleteConfirm')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('cancel')}
            </Button>
            <Button color="red.9" loading={remove.isPending} onClick={confirmDelete}>
              {t('modules.deleteButton')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
