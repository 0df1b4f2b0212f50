// The instructor's view of a SCORM module in its page: each active learner of the course
// with, per part (SCO) of the package, the status, best score, time spent over every attempt, the
// attempts and the last activity. Only the course's instructor and administrators get an answer
// (private.scorm_module_learners checks it); for anyone else the section is not shown. A table on
// wider screens, one card per learner on a phone (every column still there, each one named).
import { Pagination, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
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

const scoreText = (part: Part) => (part.record?.score != null ? `${part.record.score}%` : 'No score');
/** The time the sessions really lasted (server clock), and the package's own figure when it differs. */
function timeText(part: Part): string {
  const record = part.record;
  if (!record) return 'None';
  // Sittings that together lasted under a second by the server's clock still happened.
  const real = record.serverSeconds === 0 && record.attempts > 0 ? 'Less than a second' : formatTimeSpent(record.serverSeconds);
  const reported = formatTimeSpent(record.totalSeconds);
  // The package's figure only when it is far from the real one (more than a minute and a quarter off).
  const far = Math.abs(record.totalSeconds - record.serverSeconds) > Math.max(60, record.serverSeconds / 4);
  return record.totalSeconds > 0 && far && reported !== real ? `${real} (package reported ${reported})` : real;
}

/** The status, and a warning when the part was met far sooner than it usually takes. */
function StatusText({ part }: { part: Part }) {
  const quick = part.record?.quick ?? false;
  return (
    <>
      {scoStatusText(part.record?.status ?? null)}
      {quick ? (
        <Text component="span" size="sm" c="red.9" fw={600} display="block" data-testid="scorm-quick">
          {part.record?.typicalSeconds != null
            ? `Far quicker than usual (typically ${formatTimeSpent(part.record.typicalSeconds)})`
            : 'Far quicker than the package reported'}
        </Text>
      ) : null}
    </>
  );
}
const lastText = (part: Part) => (part.record?.lastActivity ? formatDate(part.record.lastActivity) : 'Never');

function LearnerName({ learner }: { learner: ScormLearner }) {
  return (
    <>
      <Text fw={500} size="sm">
        {learner.name}
      </Text>
      <Text size="sm" c="dimmed">
        @{learner.username}
        {learner.moduleCompleted ? ' · module completed' : ''}
      </Text>
    </>
  );
}

/** On a phone: a card per learner, and in it each part's fields. */
function LearnerCards({ rows, multi }: { rows: { learner: ScormLearner; parts: Part[] }[]; multi: boolean }) {
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
                  <Field label="Status"><StatusText part={part} /></Field>
                  <Field label="Score">{scoreText(part)}</Field>
                  <Field label="Time spent">{timeText(part)}</Field>
                  <Field label="Attempts">{part.record?.attempts ?? 0}</Field>
                  <Field label="Last activity" span>
                    {lastText(part)}
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
  const [page, setPage] = useState(1);
  const learners = useScormLearners(moduleId, page);
  // The package's parts in the manifest's order, with their titles (the list holds only ids).
  const player = useScormPlayer(moduleId);
  const phone = usePhoneLayout();

  // Nothing while loading: for most callers (not managing the course) the answer is 'not shown'.
  if (learners.isPending) return null;
  if (learners.isError) return <Text c="red.9">{errorDescription(learners.error, 'Learners\' progress could not be loaded.')}</Text>;
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
          Learners&apos; progress
        </Title>
        {data.total === 0 ? (
          <Text size="sm">No learners are enrolled on this course yet.</Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {`${data.total} ${data.total === 1 ? 'learner' : 'learners'} enrolled. The score is the best of their attempts; the time is how long their sessions lasted, over every attempt.`}
            </Text>
            {phone ? (
              <LearnerCards rows={rows} multi={multi} />
            ) : (
              <Table.ScrollContainer
                minWidth={multi ? 720 : 600}
                // The region that scrolls sideways when it is narrow is reachable by keyboard.
                scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Learners\' progress (scrolls sideways)' } }}
              >
                <Table striped>
                  {/* The section's heading says it; the caption names the table for screen readers. */}
                  <VisuallyHidden component="caption">{`Learners' progress on ${player.data?.title ?? 'this package'}`}</VisuallyHidden>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Learner</Table.Th>
                      {multi ? <Table.Th scope="col">Part</Table.Th> : null}
                      <Table.Th scope="col">Status</Table.Th>
                      <Table.Th scope="col">Score</Table.Th>
                      <Table.Th scope="col" style={{ whiteSpace: 'nowrap' }}>Time spent</Table.Th>
                      <Table.Th scope="col">Attempts</Table.Th>
                      <Table.Th scope="col" style={{ whiteSpace: 'nowrap' }}>Last activity</Table.Th>
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
                          <Table.Td>{scoreText(part)}</Table.Td>
                          <Table.Td>{timeText(part)}</Table.Td>
                          <Table.Td>{part.record?.attempts ?? 0}</Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>{lastText(part)}</Table.Td>
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
                getControlProps={(control) => ({ 'aria-label': `${control} page of learners` })}
                getItemProps={(n) => ({ 'aria-label': `Page ${n} of learners` })}
              />
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}
