// The learning record as the screen shows it: totals, the completed courses (every
// certificate, with hours, score, code and validity) and the CPD activities, with Add / Edit /
// Delete when it is the learner's own record, and the PDF and CSV downloads. On a phone both tables
// become stacked cards with every field and action.
import { Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type CompletedCourse, type CpdEntry, type LearningRecord } from '@shared/cpd.ts';
import { CertificateStateBadge, validityText } from '@/components/CertificateValidity';
import { ServiceBadge } from '@/components/ServiceBadge';
import { Field, FieldList } from '@/components/FieldList';
import { formatDate, formatHours, formatNumber } from '@/lib/format';
import { usePhoneLayout } from '@/lib/use-phone-layout';
import { NotInWelsh, useLocalise } from '@/components/Localised';

/** A total; `name` makes its ids (`figure-<name>`), the same in every language. */
function Figure({ name, label, value }: { name: string; label: string; value: string }) {
  const id = `figure-${name}`;
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
  const { t } = useTranslation('learning-record');
  const { totals } = record;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Text c="dimmed">
          {t('view.intro', { name: record.learner.name })}
        </Text>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={downloading === 'pdf'}
            onClick={() => onDownload('pdf')}
          >
            {t('view.downloadPdf')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={downloading === 'csv'}
            onClick={() => onDownload('csv')}
          >
            {t('view.downloadCsv')}
          </Button>
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Figure name="total-hours" label={t('view.totalHours')} value={formatNumber(totals.totalHours)} />
        <Figure
          name="course-hours"
          label={t('view.courseHours')}
          value={t('view.courseHoursValue', { hours: formatNumber(totals.courseHours), count: totals.completedCourses })}
        />
        <Figure
          name="cpd-hours"
          label={t('view.cpdHours')}
          value={t('view.cpdHoursValue', { hours: formatNumber(totals.cpdHours), count: totals.cpdEntries })}
        />
      </SimpleGrid>

      <Stack gap="sm" component="section" aria-labelledby="completed-courses-heading">
        <Title order={2} size="h3" id="completed-courses-heading">{t('view.completedCourses')}</Title>
        {record.completedCourses.length === 0 ? (
          <Text c="dimmed">{t('view.noCompletedCourses')}</Text>
        ) : (
          <CompletedTable courses={record.completedCourses} />
        )}
        <Text size="sm" c="dimmed">
          {t('view.hoursNote')}
        </Text>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="cpd-heading">
        <Group justify="space-between">
          <Title order={2} size="h3" id="cpd-heading">{t('view.cpdActivities')}</Title>
          {editable ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onAdd}>{t('view.addCpdActivity')}</Button>
          ) : null}
        </Group>
        {record.cpdEntries.length === 0 ? (
          <Text c="dimmed">
            {editable ? t('view.noCpdActivities') : t('view.noCpdActivitiesRecorded')}
          </Text>
        ) : (
          <CpdTable entries={record.cpdEntries} editable={editable} onEdit={onEdit} onDelete={onDelete} />
        )}
      </Stack>
    </Stack>
  );
}

function CourseTitleCell({ course: c }: { course: CompletedCourse }) {
  const { t } = useTranslation('learning-record');
  const title = useLocalise()(c.courseTitle, c.courseTitleCy);
  return (
    <Stack gap={4} align="flex-start">
      <Text fw={500} size="sm" lang={title.lang}>{title.text}</Text>
      {title.fallback ? <NotInWelsh /> : null}
      <Group gap={6}>
        {c.service ? <ServiceBadge code={c.service} /> : null}
        {c.cycle > 1 ? <Text size="xs" c="dimmed">{t('view.recertification', { number: c.cycle - 1 })}</Text> : null}
      </Group>
    </Stack>
  );
}

/** A certificate's validity line, beside its badge. */
function ValidityCell({ course: c }: { course: CompletedCourse }) {
  useTranslation();
  const text = validityText(c);
  return (
    <Stack gap={4} align="flex-start">
      <CertificateStateBadge state={c.state} />
      <Text size="xs" span>{text}</Text>
    </Stack>
  );
}

/** The completed courses on a phone: one card each, every column of the table as a named field. */
function CompletedCards({ courses }: { courses: CompletedCourse[] }) {
  const { t } = useTranslation('learning-record');
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby="completed-courses-heading">
      {courses.map((c) => (
        <Paper component="li" withBorder p="md" radius="md" key={c.certificateId} data-certificate={c.verificationCode}>
          <Stack gap="sm">
            <CourseTitleCell course={c} />
            <FieldList>
              <Field label={t('view.completed')}>{formatDate(c.completedAt)}</Field>
              <Field label={t('view.hours')} testId="hours">{c.hours === null ? '-' : formatNumber(c.hours)}</Field>
              <Field label={t('view.score')} testId="score">{c.score === null ? t('view.noQuiz') : `${c.score}%`}</Field>
              <Field label={t('view.certificate')}><Text span ff="monospace" size="sm">{c.verificationCode}</Text></Field>
              <Field label={t('view.validity')} span testId="validity"><ValidityCell course={c} /></Field>
            </FieldList>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function CompletedTable({ courses }: { courses: CompletedCourse[] }) {
  const { t } = useTranslation('learning-record');
  const phone = usePhoneLayout();
  if (phone) return <CompletedCards courses={courses} />;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped aria-labelledby="completed-courses-heading">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('view.completed')}</Table.Th>
            <Table.Th scope="col">{t('view.course')}</Table.Th>
            <Table.Th scope="col" ta="right">{t('view.hours')}</Table.Th>
            <Table.Th scope="col" ta="right">{t('view.score')}</Table.Th>
            <Table.Th scope="col">{t('view.certificate')}</Table.Th>
            <Table.Th scope="col">{t('view.validity')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {courses.map((c) => (
            <Table.Tr key={c.certificateId} data-certificate={c.verificationCode}>
              <Table.Td>{formatDate(c.completedAt)}</Table.Td>
              <Table.Td>
                <CourseTitleCell course={c} />
              </Table.Td>
              <Table.Td ta="right">{c.hours === null ? '-' : formatNumber(c.hours)}</Table.Td>
              <Table.Td ta="right">{c.score === null ? <Text span size="sm" c="dimmed">{t('view.noQuiz')}</Text> : `${c.score}%`}</Table.Td>
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
  const { t } = useTranslation('learning-record');
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => onEdit?.(e)} aria-label={t('view.editActivity', { activity: e.activity })}>
        {t('view.edit')}
      </Button>
      <Button size="xs" color="red.9" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => onDelete?.(e)} aria-label={t('view.deleteActivity', { activity: e.activity })}>
        {t('view.delete')}
      </Button>
    </Group>
  );
}

/** The CPD activities on a phone: one card each, with its Edit and Delete. */
function CpdCards({ entries, editable, onEdit, onDelete }: CpdListProps) {
  const { t } = useTranslation('learning-record');
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby="cpd-heading">
      {entries.map((e) => (
        <Paper component="li" withBorder p="md" radius="md" key={e.id} data-entry={e.id}>
          <Stack gap="sm">
            <Text fw={600} size="sm">{e.activity}</Text>
            <FieldList>
              <Field label={t('view.date')}>{formatDate(e.activityDate)}</Field>
              <Field label={t('view.hours')} testId="hours"><span title={formatHours(e.hours)}>{formatNumber(e.hours)}</span></Field>
              <Field label={t('view.learnt')} span>
                <Text span size="sm" style={{ whiteSpace: 'pre-line' }}>{e.learnt}</Text>
              </Field>
              <Field label={t('view.reflection')} span>
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
  const { t } = useTranslation('learning-record');
  const phone = usePhoneLayout();
  if (phone) return <CpdCards entries={entries} editable={editable} onEdit={onEdit} onDelete={onDelete} />;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped aria-labelledby="cpd-heading" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('view.date')}</Table.Th>
            <Table.Th scope="col">{t('view.activity')}</Table.Th>
            <Table.Th scope="col" ta="right">{t('view.hours')}</Table.Th>
            <Table.Th scope="col">{t('view.learnt')}</Table.Th>
            <Table.Th scope="col">{t('view.reflection')}</Table.Th>
            {editable ? <Table.Th scope="col">{t('view.actions')}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id} data-entry={e.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(e.activityDate)}</Table.Td>
              <Table.Td><Text fw={500} size="sm">{e.activity}</Text></Table.Td>
              <Table.Td ta="right" title={formatHours(e.hours)}>{formatNumber(e.hours)}</Table.Td>
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
