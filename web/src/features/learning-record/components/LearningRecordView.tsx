// The learning record as the screen shows it: totals, the completed courses (every
// certificate, with hours, score, code and validity) and the CPD activities, with Add / Edit /
// Delete when it is the learner's own record, and the PDF and CSV downloads. On a phone both tables
// become stacked cards with every field and action.
import { Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { type CompletedCourse, type CpdEntry, hoursText, type LearningRecord } from '@shared/cpd.ts';
import { CertificateStateBadge, validityText } from '@/components/CertificateValidity';
import { ServiceBadge } from '@/components/ServiceBadge';
import { Field, FieldList } from '@/components/FieldList';
import { formatDate } from '@/lib/format';
import { usePhoneLayout } from '@/lib/use-phone-layout';

function Figure({ label, value }: { label: string; value: string }) {
  const id = `figure-${label.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed" id={id}>{label}</Text>
      <Text fz={28} fw={700} aria-labelledby={id} data-testid={id}>{value}</Text>
    </Paper>
  );
}

export interface LearningRecordViewProps {
  record: LearningRecord;
  /** The learner's own record: CPD activities may be added, edited and deleted. */
  editable: boolean;
  onAdd?: () => void;
  onEdit?: (entry: CpdEntry) => void;
  onDelete?: (entry: CpdEntry) => void;
  onDownload: (format: 'pdf' | 'csv') => void;
  /** Which download is running, if any. */
  downloading?: 'pdf' | 'csv' | null;
}

export function LearningRecordView({ record, editable, onAdd, onEdit, onDelete, onDownload, downloading = null }: LearningRecordViewProps) {
  const { totals } = record;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Text c="dimmed">
          Completed courses and CPD activities of {record.learner.name}, for an appraisal or an audit.
        </Text>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={downloading === 'pdf'}
            onClick={() => onDownload('pdf')}
          >
            Download PDF
          </Button>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={downloading === 'csv'}
            onClick={() => onDownload('csv')}
          >
            Download CSV
          </Button>
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Figure label="Total hours" value={String(totals.totalHours)} />
        <Figure label="Course hours" value={`${totals.courseHours} (${totals.completedCourses} ${totals.completedCourses === 1 ? 'course' : 'courses'})`} />
        <Figure label="CPD hours" value={`${totals.cpdHours} (${totals.cpdEntries} ${totals.cpdEntries === 1 ? 'activity' : 'activities'})`} />
      </SimpleGrid>

      <Stack gap="sm" component="section" aria-labelledby="completed-courses-heading">
        <Title order={2} size="h3" id="completed-courses-heading">Completed courses</Title>
        {record.completedCourses.length === 0 ? (
          <Text c="dimmed">No completed courses yet. Courses appear here when their certificate is issued.</Text>
        ) : (
          <CompletedTable courses={record.completedCourses} />
        )}
        <Text size="sm" c="dimmed">
          Hours are each course&apos;s duration; revoked certificates count no hours. The score is the best passed quiz
          result of that completion.
        </Text>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="cpd-heading">
        <Group justify="space-between">
          <Title order={2} size="h3" id="cpd-heading">CPD activities</Title>
          {editable ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onAdd}>Add CPD activity</Button>
          ) : null}
        </Group>
        {record.cpdEntries.length === 0 ? (
          <Text c="dimmed">
            {editable ? 'No CPD activities yet. Add study days, reading or courses taken elsewhere.' : 'No CPD activities recorded.'}
          </Text>
        ) : (
          <CpdTable entries={record.cpdEntries} editable={editable} onEdit={onEdit} onDelete={onDelete} />
        )}
      </Stack>
    </Stack>
  );
}

function CourseTitleCell({ course: c }: { course: CompletedCourse }) {
  return (
    <Stack gap={4} align="flex-start">
      <Text fw={500} size="sm">{c.courseTitle}</Text>
      <Group gap={6}>
        {c.service ? <ServiceBadge code={c.service} /> : null}
        {c.cycle > 1 ? <Text size="xs" c="dimmed">Recertification {c.cycle - 1}</Text> : null}
      </Group>
    </Stack>
  );
}

function ValidityCell({ course: c }: { course: CompletedCourse }) {
  return (
    <Stack gap={4} align="flex-start">
      <CertificateStateBadge state={c.state} />
      <Text size="xs" span>{validityText(c)}</Text>
    </Stack>
  );
}

/** The completed courses on a phone: one card each, every column of the table as a named field. */
function CompletedCards({ courses }: { courses: CompletedCourse[] }) {
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby="completed-courses-heading">
      {courses.map((c) => (
        <Paper component="li" withBorder p="md" radius="md" key={c.certificateId} data-certificate={c.verificationCode}>
          <Stack gap="sm">
            <CourseTitleCell course={c} />
            <FieldList>
              <Field label="Completed">{formatDate(c.completedAt)}</Field>
              <Field label="Hours" testId="hours">{c.hours === null ? '-' : c.hours}</Field>
              <Field label="Score" testId="score">{c.score === null ? 'No quiz' : `${c.score}%`}</Field>
              <Field label="Certificate"><Text span ff="monospace" size="sm">{c.verificationCode}</Text></Field>
              <Field label="Validity" span testId="validity"><ValidityCell course={c} /></Field>
            </FieldList>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function CompletedTable({ courses }: { courses: CompletedCourse[] }) {
  const phone = usePhoneLayout();
  if (phone) return <CompletedCards courses={courses} />;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped aria-labelledby="completed-courses-heading">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Completed</Table.Th>
            <Table.Th scope="col">Course</Table.Th>
            <Table.Th scope="col" ta="right">Hours</Table.Th>
            <Table.Th scope="col" ta="right">Score</Table.Th>
            <Table.Th scope="col">Certificate</Table.Th>
            <Table.Th scope="col">Validity</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {courses.map((c) => (
            <Table.Tr key={c.certificateId} data-certificate={c.verificationCode}>
              <Table.Td>{formatDate(c.completedAt)}</Table.Td>
              <Table.Td>
                <CourseTitleCell course={c} />
              </Table.Td>
              <Table.Td ta="right">{c.hours === null ? '-' : c.hours}</Table.Td>
              <Table.Td ta="right">{c.score === null ? <Text span size="sm" c="dimmed">No quiz</Text> : `${c.score}%`}</Table.Td>
              <Table.Td><Text span ff="monospace" size="sm">{c.verificationCode}</Text></Table.Td>
              <Table.Td>
                <ValidityCell course={c} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface CpdListProps {
  entries: CpdEntry[];
  editable: boolean;
  onEdit?: (e: CpdEntry) => void;
  onDelete?: (e: CpdEntry) => void;
}

function CpdActions({ entry: e, onEdit, onDelete }: { entry: CpdEntry; onEdit?: (e: CpdEntry) => void; onDelete?: (e: CpdEntry) => void }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => onEdit?.(e)} aria-label={`Edit ${e.activity}`}>
        Edit
      </Button>
      <Button size="xs" color="red.9" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => onDelete?.(e)} aria-label={`Delete ${e.activity}`}>
        Delete
      </Button>
    </Group>
  );
}

/** The CPD activities on a phone: one card each, with its Edit and Delete. */
function CpdCards({ entries, editable, onEdit, onDelete }: CpdListProps) {
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby="cpd-heading">
      {entries.map((e) => (
        <Paper component="li" withBorder p="md" radius="md" key={e.id} data-entry={e.id}>
          <Stack gap="sm">
            <Text fw={600} size="sm">{e.activity}</Text>
            <FieldList>
              <Field label="Date">{formatDate(e.activityDate)}</Field>
              <Field label="Hours" testId="hours"><span title={hoursText(e.hours)}>{e.hours}</span></Field>
              <Field label="What I learnt" span>
                <Text span size="sm" style={{ whiteSpace: 'pre-line' }}>{e.learnt}</Text>
              </Field>
              <Field label="Reflection" span>
                {e.reflection ? <Text span size="sm" style={{ whiteSpace: 'pre-line' }}>{e.reflection}</Text> : '-'}
              </Field>
            </FieldList>
            {editable ? <CpdActions entry={e} onEdit={onEdit} onDelete={onDelete} /> : null}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function CpdTable({ entries, editable, onEdit, onDelete }: CpdListProps) {
  const phone = usePhoneLayout();
  if (phone) return <CpdCards entries={entries} editable={editable} onEdit={onEdit} onDelete={onDelete} />;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped aria-labelledby="cpd-heading" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col">Activity</Table.Th>
            <Table.Th scope="col" ta="right">Hours</Table.Th>
            <Table.Th scope="col">What I learnt</Table.Th>
            <Table.Th scope="col">Reflection</Table.Th>
            {editable ? <Table.Th scope="col">Actions</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id} data-entry={e.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(e.activityDate)}</Table.Td>
              <Table.Td><Text fw={500} size="sm">{e.activity}</Text></Table.Td>
              <Table.Td ta="right" title={hoursText(e.hours)}>{e.hours}</Table.Td>
              <Table.Td><Text size="sm" style={{ whiteSpace: 'pre-line' }} lineClamp={4}>{e.learnt}</Text></Table.Td>
              <Table.Td>
                {e.reflection ? <Text size="sm" style={{ whiteSpace: 'pre-line' }} lineClamp={4}>{e.reflection}</Text> : <Text size="sm" c="dimmed">-</Text>}
              </Table.Td>
              {editable ? (
                <Table.Td>
                  <CpdActions entry={e} onEdit={onEdit} onDelete={onDelete} />
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
