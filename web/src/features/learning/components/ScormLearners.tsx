// The instructor's view of a SCORM module in its page: each active learner of the course
// with, per part (SCO) of the package, the status, best score, time spent over every attempt, the
// attempts and the last activity. Only the course's instructor and administrators get an answer
// (private.scorm_module_learners checks it); for anyone else the section is not shown. A table on
// wider screens, one card per learner on a phone (every column still there, each one named).
import { Pagination, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Field, FieldList } from '@/components/FieldList';
import { errorDescription } from '@/lib/api-client';
import { formatDate, formatTimeSpent } from '@/lib/format';
import { usePhoneLayout } from '@/lib/use-phone-layout';
import { SCORM_LEARNERS_PAGE_SIZE, type ScormLearner, type ScormLearnerSco, useScormLearners, useScormPlayer } from '../api/scorm';
import { scoStatusText } from './ScormPlayer';

interface Part {
  id: string;
  title: string;
  record: ScormLearnerSco | null;
}

const scoreText = (t: TFunction, part: Part) => (part.record?.score != null ? `${part.record.score}%` : t('scormLearners.noScore'));
/** The time the sessions really lasted (server clock), and the package's own figure when it differs. */
function timeText(t: TFunction, part: Part): string {
  const record = part.record;
  if (!record) return t('scormLearners.none');
  // Sittings that together lasted under a second by the server's clock still happened.
  const real = record.serverSeconds === 0 && record.attempts > 0 ? t('scormLearners.lessThanSecond') : formatTimeSpent(record.serverSeconds);
  const reported = formatTimeSpent(record.totalSeconds);
  // The package's figure only when it is far from the real one (more than a minute and a quarter off).
  const far = Math.abs(record.totalSeconds - record.serverSeconds) > Math.max(60, record.serverSeconds / 4);
  return record.totalSeconds > 0 && far && reported !== real ? t('scormLearners.packageReported', { real, reported }) : real;
}

/** The status, and a warning when the part was met far sooner than it usually takes. */
function StatusText({ part }: { part: Part }) {
  const { t } = useTranslation('learning');
  const quick = part.record?.quick ?? false;
  return (
    <>
      {scoStatusText(t, part.record?.status ?? null)}
      {quick ? (
        <Text component="span" size="sm" c="red.9" fw={600} display="block" data-testid="scorm-quick">
          {part.record?.typicalSeconds != null
            ? t('scormLearners.quickerThanTypical', { time: formatTimeSpent(part.record.typicalSeconds) })
            : t('scormLearners.quickerThanReported')}
        </Text>
      ) : null}
    </>
  );
}
const lastText = (t: TFunction, part: Part) => (part.record?.lastActivity ? formatDate(part.record.lastActivity) : t('scormLearners.never'));

function LearnerName({ learner }: { learner: ScormLearner }) {
  const { t } = useTranslation('learning');
  return (
    <>
      <Text fw={500} size="sm">
        {learner.name}
      </Text>
      <Text size="sm" c="dimmed">
        @{learner.username}
        {learner.moduleCompleted ? t('scormLearners.moduleCompleted') : ''}
      </Text>
    </>
  );
}

/** On a phone: a card per learner, and in it each part's fields. */
function LearnerCards({ rows, multi }: { rows: { learner: ScormLearner; parts: Part[] }[]; multi: boolean }) {
  const { t } = useTranslation('learning');
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby="scorm-learners-heading">
      {rows.map(({ learner, parts }) => (
        <Paper component="li" withBorder p="sm" radius="md" key={learner.userId} data-learner={learner.userId}>
          <Stack gap="xs">
            <div>
              <LearnerName learner={learner} />
            </div>
            {parts.map((part) => (
              <Stack gap={4} key={part.id} data-sco={part.id || undefined}>
                {multi ? (
                  <Text size="sm" fw={600}>
                    {part.title}
                  </Text>
                ) : null}
                <FieldList>
                  <Field label={t('scormLearners.status')}><StatusText part={part} /></Field>
                  <Field label={t('scormLearners.score')}>{scoreText(t, part)}</Field>
                  <Field label={t('scormLearners.timeSpent')}>{timeText(t, part)}</Field>
                  <Field label={t('scormLearners.attempts')}>{part.record?.attempts ?? 0}</Field>
                  <Field label={t('scormLearners.lastActivity')} span>
                    {lastText(t, part)}
                  </Field>
                </FieldList>
              </Stack>
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

export default function ScormLearners({ moduleId }: { moduleId: string }) {
  const { t } = useTranslation('learning');
  const [page, setPage] = useState(1);
  const learners = useScormLearners(moduleId, page);
  // The package's parts in the manifest's order, with their titles (the list holds only ids).
  const player = useScormPlayer(moduleId);
  const phone = usePhoneLayout();

  // Nothing while loading: for most callers (not managing the course) the answer is 'not shown'.
  if (learners.isPending) return null;
  if (learners.isError) return <Text c="red.9">{errorDescription(learners.error, t('scormLearners.loadFailed'))}</Text>;
  const data = learners.data;
  if (!data) return null;

  const parts = player.data?.scos.map((s) => ({ id: s.id, title: s.title })) ?? [];
  const multi = parts.length > 1;
  const partsOf = (scos: ScormLearnerSco[]): Part[] => {
    const ids = parts.length > 0 ? parts.map((p) => p.id) : scos.map((s) => s.scoId);
    // A learner who has not opened a part has no record of it: shown as not started.
    return (ids.length > 0 ? ids : ['']).map((id) => ({
      id,
      title: parts.find((p) => p.id === id)?.title ?? id,
      record: scos.find((s) => s.scoId === id) ?? null,
    }));
  };
  const pages = Math.ceil(data.total / SCORM_LEARNERS_PAGE_SIZE);
  const rows = data.items.map((learner) => ({ learner, parts: partsOf(learner.scos) }));

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="scorm-learners-heading" data-testid="scorm-learners">
      <Stack gap="sm">
        <Title order={2} size="h3" id="scorm-learners-heading">
          {t('scormLearners.heading')}
        </Title>
        {data.total === 0 ? (
          <Text size="sm">{t('scormLearners.noLearners')}</Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {t('scormLearners.summary', { count: data.total })}
            </Text>
            {phone ? (
              <LearnerCards rows={rows} multi={multi} />
            ) : (
              <Table.ScrollContainer
                minWidth={multi ? 720 : 600}
                // The region that scrolls sideways when it is narrow is reachable by keyboard.
                scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('scormLearners.scrollRegion') } }}
              >
                <Table striped>
                  {/* The section's heading says it; the caption names the table for screen readers. */}
                  <VisuallyHidden component="caption">{player.data?.title ? t('scormLearners.caption', { title: player.data.title }) : t('scormLearners.captionThisPackage')}</VisuallyHidden>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('scormLearners.learner')}</Table.Th>
                      {multi ? <Table.Th scope="col">{t('scormLearners.part')}</Table.Th> : null}
                      <Table.Th scope="col">{t('scormLearners.status')}</Table.Th>
                      <Table.Th scope="col">{t('scormLearners.score')}</Table.Th>
                      <Table.Th scope="col" style={{ whiteSpace: 'nowrap' }}>{t('scormLearners.timeSpent')}</Table.Th>
                      <Table.Th scope="col">{t('scormLearners.attempts')}</Table.Th>
                      <Table.Th scope="col" style={{ whiteSpace: 'nowrap' }}>{t('scormLearners.lastActivity')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.flatMap(({ learner, parts }) =>
                      parts.map((part) => (
                        <Table.Tr key={`${learner.userId}:${part.id}`} data-learner={learner.userId} data-sco={part.id || undefined}>
                          <Table.Th scope="row" fw={400}>
                            <LearnerName learner={learner} />
                          </Table.Th>
                          {multi ? <Table.Td>{part.title}</Table.Td> : null}
                          <Table.Td><StatusText part={part} /></Table.Td>
                          <Table.Td>{scoreText(t, part)}</Table.Td>
                          <Table.Td>{timeText(t, part)}</Table.Td>
                          <Table.Td>{part.record?.attempts ?? 0}</Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>{lastText(t, part)}</Table.Td>
                        </Table.Tr>
                      )))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {pages > 1 ? (
              <Pagination
                total={pages}
                value={page}
                onChange={setPage}
                getControlProps={(control) => ({ 'aria-label': t(`scormLearners.pageControl.${control}`) })}
                getItemProps={(n) => ({ 'aria-label': t('scormLearners.page', { page: n }) })}
              />
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}
