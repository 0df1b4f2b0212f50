// Students: every enrolment on the caller's courses (all courses for admins) with progress, status
// and last activity; pending requests (course access login-approval) are approved or declined here.
import { useState } from 'react';
import { Badge, Button, Center, Group, Loader, Pagination, Progress, Select, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { CourseSelect } from '@/components/CourseSelect';
import {
  type InstructorStudent,
  type ScormStatus,
  STUDENTS_PAGE_SIZE,
  type StudentStatus,
  useInstructorStudents,
} from '../api/get-instructor-students';
import { type Decision, useDecideEnrollment } from '../api/decide-enrollment';
import { formatDate } from '@/lib/format';

/** The statuses in the filter's order; each one's name is students.status.<value>. */
const STATUSES: StudentStatus[] = ['pending', 'in-progress', 'completed'];
// Background and text pairs with at least 4.5:1 contrast (WCAG 2.2 AA).
const STATUS_STYLES: Record<StudentStatus, { backgroundColor: string; color: string }> = {
  pending: { backgroundColor: 'var(--mantine-color-yellow-3)', color: '#000' },
  'in-progress': { backgroundColor: 'var(--mantine-color-blue-9)', color: '#fff' },
  completed: { backgroundColor: 'var(--mantine-color-teal-9)', color: '#fff' },
};

/** A SCORM status's key in the catalogue (students.scorm.<key>). */
const SCORM_KEYS: Record<ScormStatus, string> = {
  'not attempted': 'notAttempted',
  incomplete: 'incomplete',
  completed: 'completed',
  passed: 'passed',
  failed: 'failed',
};

/** The learner's SCORM modules on the course: status, best score and attempts. */
function ScormCell({ student }: { student: InstructorStudent }) {
  const { t } = useTranslation('instructor');
  if (!student.scorm?.length) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      {student.scorm.map((m) => (
        <Text key={m.moduleId} size="sm" data-scorm-module={m.moduleId}>
          <Text span fw={500} size="sm">
            {m.title}:
          </Text>{' '}
          {t(`students.scorm.${SCORM_KEYS[m.status]}`)}
          {m.score != null ? `, ${m.score}%` : ''}
          {m.attempts > 0 ? ` ${t('students.attempts', { count: m.attempts })}` : ''}
        </Text>
      ))}
    </Stack>
  );
}

export function StudentsTab({ allCourses, initialStatus = null }: { allCourses: boolean; initialStatus?: StudentStatus | null }) {
  const { t } = useTranslation('instructor');
  const [courseId, setCourseId] = useState<string | null>(null);
  const [status, setStatus] = useState<StudentStatus | null>(initialStatus);
  const [page, setPage] = useState(1);
  const students = useInstructorStudents({ courseId: courseId ?? undefined, status: status ?? undefined, page });
  const decide = useDecideEnrollment();

  function onDecide(student: InstructorStudent, decision: Decision) {
    decide.mutate(
      { id: student.id, decision },
      {
        onSuccess: () =>
          decision === 'approve'
            ? notifySuccess(t('students.approved'), t('students.approvedMessage', { name: student.learner.name, course: student.course.title }))
            : notifySuccess(t('students.declined'), t('students.declinedMessage', { name: student.learner.name, course: student.course.title })),
        onError: (error) =>
          notifyFailure(
            decision === 'approve' ? t('students.approveFailed') : t('students.declineFailed'),
            errorDescription(error, t('tryAgain')),
          ),
      },
    );
  }

  const data = students.data;
  // The SCORM column appears only when a listed course has a SCORM package module.
  const showScorm = Boolean(data?.items.some((student) => student.scorm?.length));
  return (
    <Stack gap="md">
      <Group align="flex-end">
        <CourseSelect
          all={allCourses}
          label={t('students.filterCourse')}
          placeholder={t('students.allCourses')}
          nothingFoundMessage={t('students.noCourseFound')}
          clearable
          value={courseId}
          onChange={(value) => {
            setCourseId(value);
            setPage(1);
          }}
          style={{ flex: 1, maxWidth: 420 }}
        />
        <Select
          label={t('students.filterStatus')}
          placeholder={t('students.allStatuses')}
          clearable
          data={STATUSES.map((value) => ({ value, label: t(`students.status.${value}`) }))}
          value={status}
          onChange={(value) => {
            setStatus(value as StudentStatus | null);
            setPage(1);
          }}
        />
      </Group>

      {students.isError && <Text c="red.8">{errorDescription(students.error, t('students.loadError'))}</Text>}
      {students.isPending && (
        <Center py="xl">
          <Loader aria-label={t('students.loading')} />
        </Center>
      )}
      {data && data.items.length === 0 && (
        <Stack align="center" py="xl" gap="xs">
          <Text fw={600}>{t('students.noneTitle')}</Text>
          <Text c="dimmed">
            {courseId || status ? t('students.noMatch') : t('students.none')}
          </Text>
        </Stack>
      )}
      {data && data.items.length > 0 && (
        <Table.ScrollContainer
          minWidth={showScorm ? 900 : 720}
          // Wider with the SCORM column: the region that scrolls sideways is reachable by keyboard.
          scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('students.scrollRegion') } }}
        >
          <Table striped highlightOnHover aria-label={t('students.table')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('students.column.learner')}</Table.Th>
                <Table.Th scope="col">{t('students.column.course')}</Table.Th>
                <Table.Th scope="col">{t('students.column.progress')}</Table.Th>
                <Table.Th scope="col">{t('students.column.status')}</Table.Th>
                {showScorm && <Table.Th scope="col">{t('students.column.scorm')}</Table.Th>}
                <Table.Th scope="col">{t('students.column.lastActivity')}</Table.Th>
                <Table.Th scope="col">{t('students.column.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((student) => (
                <Table.Tr key={student.id} data-enrollment={student.id}>
                  <Table.Td>
                    <Text fw={500}>{student.learner.name}</Text>
                    <Text size="sm" c="dimmed">
                      @{student.learner.username}
                    </Text>
                  </Table.Td>
                  <Table.Td>{student.course.title}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Progress
                        value={student.progress}
                        w={80}
                        aria-label={t('students.progressOf', { name: student.learner.name, course: student.course.title })}
                      />
                      <Text size="sm">{student.progress}%</Text>
                    </Group>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Badge variant="filled" radius="sm" style={{ ...STATUS_STYLES[student.status], maxWidth: 'none', overflow: 'visible' }}>
                      {t(`students.status.${student.status}`)}
                    </Badge>
                  </Table.Td>
                  {showScorm && (
                    <Table.Td>
                      <ScormCell student={student} />
                    </Table.Td>
                  )}
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(student.lastActivity)}</Table.Td>
                  <Table.Td>
                    {student.status === 'pending' ? (
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          loading={decide.isPending && decide.variables?.id === student.id && decide.variables.decision === 'approve'}
                          onClick={() => onDecide(student, 'approve')}
                          aria-label={t('students.approveFor', { name: student.learner.name, course: student.course.title })}
                        >
                          {t('students.approve')}
                        </Button>
                        <Button
                          size="xs"
                          variant="outline"
                          color="red.9"
                          loading={decide.isPending && decide.variables?.id === student.id && decide.variables.decision === 'decline'}
                          onClick={() => onDecide(student, 'decline')}
                          aria-label={t('students.declineFor', { name: student.learner.name, course: student.course.title })}
                        >
                          {t('students.decline')}
                        </Button>
                      </Group>
                    ) : (
                      <Text size="sm" c="dimmed">
                        —
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {data && data.total > STUDENTS_PAGE_SIZE && (
        <Pagination
          total={Math.ceil(data.total / STUDENTS_PAGE_SIZE)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
          getItemProps={(n) => ({ 'aria-label': t('pagination.page', { number: n }) })}
        />
      )}
    </Stack>
  );
}
