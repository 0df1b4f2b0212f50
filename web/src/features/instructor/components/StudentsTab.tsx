// Students: every enrolment on the caller's courses (all courses for admins) with progress, status
// and last activity; pending requests (course access login-approval) are approved or declined here.
import { useState } from 'react';
import { Badge, Button, Center, Group, Loader, Pagination, Progress, Select, Stack, Table, Text } from '@mantine/core';
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

const STATUS_LABELS: Record<StudentStatus, string> = { pending: 'Pending', 'in-progress': 'In progress', completed: 'Completed' };
// Background and text pairs with at least 4.5:1 contrast (WCAG 2.2 AA).
const STATUS_STYLES: Record<StudentStatus, { backgroundColor: string; color: string }> = {
  pending: { backgroundColor: 'var(--mantine-color-yellow-3)', color: '#000' },
  'in-progress': { backgroundColor: 'var(--mantine-color-blue-9)', color: '#fff' },
  completed: { backgroundColor: 'var(--mantine-color-teal-9)', color: '#fff' },
};

const SCORM_LABELS: Record<ScormStatus, string> = {
  'not attempted': 'Not attempted',
  incomplete: 'Incomplete',
  completed: 'Completed',
  passed: 'Passed',
  failed: 'Failed',
};

/** The learner's SCORM modules on the course: status, best score and attempts. */
function ScormCell({ student }: { student: InstructorStudent }) {
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
          {SCORM_LABELS[m.status]}
          {m.score != null ? `, ${m.score}%` : ''}
          {m.attempts > 0 ? ` (${m.attempts} ${m.attempts === 1 ? 'attempt' : 'attempts'})` : ''}
        </Text>
      ))}
    </Stack>
  );
}

export function StudentsTab({ allCourses, initialStatus = null }: { allCourses: boolean; initialStatus?: StudentStatus | null }) {
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
            ? notifySuccess('Enrolment approved', `${student.learner.name} can now start ${student.course.title}.`)
            : notifySuccess('Enrolment declined', `${student.learner.name}'s request to join ${student.course.title} was declined.`),
        onError: (error) =>
          notifyFailure(
            decision === 'approve' ? 'Failed to approve enrolment' : 'Failed to decline enrolment',
            errorDescription(error, 'Please try again.'),
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
          label="Filter by course"
          placeholder="All courses"
          clearable
          value={courseId}
          onChange={(value) => {
            setCourseId(value);
            setPage(1);
          }}
          style={{ flex: 1, maxWidth: 420 }}
        />
        <Select
          label="Filter by status"
          placeholder="All statuses"
          clearable
          data={(Object.keys(STATUS_LABELS) as StudentStatus[]).map((value) => ({ value, label: STATUS_LABELS[value] }))}
          value={status}
          onChange={(value) => {
            setStatus(value as StudentStatus | null);
            setPage(1);
          }}
        />
      </Group>

      {students.isError && <Text c="red.8">{errorDescription(students.error, 'Could not load your students.')}</Text>}
      {students.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading students" />
        </Center>
      )}
      {data && data.items.length === 0 && (
        <Stack align="center" py="xl" gap="xs">
          <Text fw={600}>No students found</Text>
          <Text c="dimmed">
            {courseId || status ? 'No learners match these filters.' : 'No learners have enrolled on your courses yet.'}
          </Text>
        </Stack>
      )}
      {data && data.items.length > 0 && (
        <Table.ScrollContainer
          minWidth={showScorm ? 900 : 720}
          // Wider with the SCORM column: the region that scrolls sideways is reachable by keyboard.
          scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Students (scrolls sideways)' } }}
        >
          <Table striped highlightOnHover aria-label="Students">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Learner</Table.Th>
                <Table.Th scope="col">Course</Table.Th>
                <Table.Th scope="col">Progress</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                {showScorm && <Table.Th scope="col">SCORM</Table.Th>}
                <Table.Th scope="col">Last activity</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
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
                        aria-label={`Progress of ${student.learner.name} on ${student.course.title}`}
                      />
                      <Text size="sm">{student.progress}%</Text>
                    </Group>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Badge variant="filled" radius="sm" style={{ ...STATUS_STYLES[student.status], maxWidth: 'none', overflow: 'visible' }}>
                      {STATUS_LABELS[student.status]}
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
                          aria-label={`Approve ${student.learner.name} for ${student.course.title}`}
                        >
                          Approve
                        </Button>
                        <Button
                          size="xs"
                          variant="outline"
                          color="red.9"
                          loading={decide.isPending && decide.variables?.id === student.id && decide.variables.decision === 'decline'}
                          onClick={() => onDecide(student, 'decline')}
                          aria-label={`Decline ${student.learner.name} for ${student.course.title}`}
                        >
                          Decline
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
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
        />
      )}
    </Stack>
  );
}
