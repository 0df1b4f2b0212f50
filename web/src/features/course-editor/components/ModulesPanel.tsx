// Modules & Quizzes: the course's modules in order, moved one place at a time (one request with the
// whole new order), edited in a dialog, deleted after confirmation, each with its quiz.
import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { modulePreview } from '@shared/authoring.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteModule, useModules, useReorderModules } from '../api/modules';
import { ModuleDialog } from './ModuleDialog';
import { QuizDialog } from './QuizDialog';
import { ScormPackageDialog } from './ScormPackageDialog';
import { moveId } from '@/lib/move-id';

export const DELETE_MODULE_TEXT =
  'Are you sure you want to delete this module? This action cannot be undone. All module content and associated quizzes will be lost.';

type Editing = { mode: 'create' } | { mode: 'edit'; module: CourseModule } | null;

export function ModulesPanel({ courseId, onNeedCourse }: { courseId?: string; onNeedCourse: () => void }) {
  const modules = useModules(courseId);
  const reorder = useReorderModules(courseId ?? '');
  const remove = useDeleteModule(courseId ?? '');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CourseModule | null>(null);
  const [quizFor, setQuizFor] = useState<CourseModule | null>(null);
  const [packageFor, setPackageFor] = useState<CourseModule | null>(null);
  const list = modules.data ?? [];

  function add() {
    if (!courseId) {
      notifyFailure('Create the course first', 'Please fill out and save the basic course details before adding modules.');
      onNeedCourse();
      return;
    }
    setEditing({ mode: 'create' });
  }

  function move(index: number, delta: -1 | 1) {
    const order = moveId(list.map((m) => m.id), index, delta);
    if (!order) return;
    reorder.mutate(order, {
      onSuccess: () => notifySuccess('Modules reordered', 'The module order has been updated.'),
      onError: (error) => notifyFailure('Error reordering modules', errorDescription(error, 'The order could not be saved.')),
    });
  }

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifySuccess('Module deleted', `"${deleting.title}" has been deleted.`);
        setDeleting(null);
      },
      onError: (error) => notifyFailure('Error deleting module', errorDescription(error, 'Failed to delete module')),
    });
  }

  if (courseId && modules.isPending) {
    return (
      <Group justify="center" py="lg" role="status">
        <Loader size="sm" aria-hidden />
        <Text>Loading modules</Text>
      </Group>
    );
  }
  if (modules.isError) {
    return <Text c="red.8">{errorDescription(modules.error, 'Failed to fetch modules')}</Text>;
  }

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} size="h3">
          Course Modules
        </Title>
        {list.length > 0 ? (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={add}>
            Add Module
          </Button>
        ) : null}
      </Group>

      {list.length === 0 ? (
        <Card withBorder padding="xl" radius="md">
          <Stack align="center" gap="sm">
            <Title order={3} size="h4">
              No modules yet
            </Title>
            <Text c="dimmed" size="sm">
              Break the course into modules that learners work through in order.
            </Text>
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={add}>
              Add Your First Module
            </Button>
          </Stack>
        </Card>
      ) : (
        <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Modules">
          {list.map((module, index) => (
            <Card key={module.id} withBorder padding="md" radius="md" component="li" data-testid="module-card">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack gap={6} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Badge variant="filled" color="blue.9">
                      Module {module.orderIndex}
                    </Badge>
                    {module.kind === 'scorm' ? (
                      <Badge variant="filled" color="teal.9">
                        SCORM package
                      </Badge>
                    ) : null}
                    {module.hasQuiz ? (
                      <Badge variant="filled" color="grape.9">
                        Has Quiz
                      </Badge>
                    ) : null}
                    <Text size="xs" c="dimmed">
                      {module.duration} min
                    </Text>
                  </Group>
                  <Title order={3} size="h5">
                    {module.title}
                  </Title>
                  <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {module.kind === 'scorm' ? 'Plays an uploaded SCORM package' : modulePreview(module.content ?? '')}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="default"
                    aria-label={`Move ${module.title} up`}
                    disabled={index === 0 || reorder.isPending}
                    onClick={() => move(index, -1)}
                  >
                    <IconArrowUp size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    aria-label={`Move ${module.title} down`}
                    disabled={index === list.length - 1 || reorder.isPending}
                    onClick={() => move(index, 1)}
                  >
                    <IconArrowDown size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
              <Group gap="xs" mt="sm">
                <Button size="xs" variant="default" onClick={() => setEditing({ mode: 'edit', module })} aria-label={`Edit Module: ${module.title}`}>
                  Edit Module
                </Button>
                {module.kind === 'scorm' ? (
                  <Button size="xs" variant="default" onClick={() => setPackageFor(module)} aria-label={`Package: ${module.title}`}>
                    Package
                  </Button>
                ) : (
                  <Button size="xs" variant="default" onClick={() => setQuizFor(module)} aria-label={`${module.hasQuiz ? 'Edit Quiz' : 'Add Quiz'}: ${module.title}`}>
                    {module.hasQuiz ? 'Edit Quiz' : 'Add Quiz'}
                  </Button>
                )}
                <Button
                  size="xs"
                  variant="filled"
                  color="red.9"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  onClick={() => setDeleting(module)}
                  aria-label={`Delete ${module.title}`}
                >
                  Delete
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
      {courseId && packageFor ? <ScormPackageDialog courseId={courseId} module={packageFor} onClose={() => setPackageFor(null)} /> : null}

      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete module" centered closeButtonProps={{ 'aria-label': 'Close dialog' }}>
        <Stack>
          <Text size="sm">{DELETE_MODULE_TEXT}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button color="red.9" loading={remove.isPending} onClick={confirmDelete}>
              Delete Module
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
