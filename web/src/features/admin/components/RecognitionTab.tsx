// Recognised training (Admin, "Recognised training" tab): the issuers an organisation trusts and the
// achievements of theirs it accepts as equivalent to its own required courses. A person's verified,
// unexpired credential of such an achievement then satisfies the required course until it expires
// (decided on the server). Either form can be filled in from a credential a new joiner brings.
// A national administrator chooses the organisation; an organisation's administrator has their own.
import { useRef, useState, type ReactNode } from 'react';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Group, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@shared/domain.ts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CourseSelect } from '@/components/CourseSelect';
import { CredentialJsonInput, parseCredentialJson } from '@/components/CredentialJsonInput';
import { PageSpinner } from '@/components/PageSpinner';
import { ApiError, errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useAddEquivalence, useEquivalences, useRemoveEquivalence, type Equivalence } from '../api/equivalences';
import { useOrganisations } from '../api/organisations';
import { useAddTrustedIssuer, useRemoveTrustedIssuer, useTrustedIssuers, type TrustedIssuer } from '../api/trusted-issuers';
import { credentialFacts, type CredentialFacts } from '../lib/credential-facts';

export function RecognitionTab({ user }: { user: CurrentUser }) {
  const { t } = useTranslation('admin');
  const national = !user.organisation;
  const organisations = useOrganisations(national);
  const [chosen, setChosen] = useState<string | null>(null);
  // An organisation's administrator: their own (the API fills it in); a national one chooses.
  const organisationId = national ? chosen : null;
  const ready = !national || Boolean(chosen);
  return (
    <Stack gap="xl">
      <div>
        <Title order={2} size="h3">{t('recognition.heading')}</Title>
        <Text size="sm" c="dimmed" maw={760}>{t('recognition.intro')}</Text>
      </div>
      {national ? (
        <Select
          label={t('recognition.organisation')}
          placeholder={t('recognition.chooseOrganisation')}
          data={(organisations.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
          value={chosen}
          onChange={setChosen}
          searchable
          maw={420}
        />
      ) : null}
      {ready ? (
        <>
          <TrustedIssuersSection organisationId={organisationId} />
          <EquivalencesSection organisationId={organisationId} />
        </>
      ) : null}
    </Stack>
  );
}

/** "Fill in from a credential": a credential pasted or uploaded, read here for its issuer and achievement. */
function FillFromCredential({ onFacts }: { onFacts: (facts: CredentialFacts) => void }) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!open) {
    return (
      <Group>
        <Button variant="subtle" onClick={() => setOpen(true)}>{t('recognition.fillFromCredential')}</Button>
      </Group>
    );
  }
  return (
    <Stack gap="xs">
      <CredentialJsonInput value={text} onChange={setText} error={error} />
      <Group>
        <Button
          variant="default"
          onClick={() => {
            const parsed = parseCredentialJson(text);
            if (parsed.error !== undefined) return setError(parsed.error);
            const facts = credentialFacts(parsed.credential);
            if (!facts.issuerId) return setError(t('recognition.noIssuerInCredential'));
            setError(null);
            onFacts(facts);
            setOpen(false);
            setText('');
          }}
        >
          {t('recognition.useCredential')}
        </Button>
        <Button variant="subtle" onClick={() => setOpen(false)}>{t('recognition.cancel')}</Button>
      </Group>
    </Stack>
  );
}

/** A section's list of what the organisation has, each with Remove (after a confirmation; the focus
 * then goes to the section's heading), above the form that adds one. Shared by both lists. */
function RecognitionSection<T extends { id: string }>({ id, title, intro, empty, list, columns, minWidth, row, removeLabel, removeConfirm, removed, remove, form }: {
  id: string;
  title: string;
  intro: string;
  empty: string;
  list: UseQueryResult<{ items: T[] }>;
  columns: string[];
  minWidth: number;
  row: (item: T) => ReactNode;
  removeLabel: (item: T) => string;
  removeConfirm: (item: T) => string;
  removed: [title: string, detail: string];
  remove: UseMutationResult<void, Error, string>;
  form: ReactNode;
}) {
  const { t } = useTranslation('admin');
  const heading = useRef<HTMLHeadingElement>(null);
  const [removing, setRemoving] = useState<T | null>(null);
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={3} size="h4" id={id} ref={heading} tabIndex={-1}>{title}</Title>
      <Text size="sm" c="dimmed">{intro}</Text>
      {list.isPending ? (
        <PageSpinner label={t('recognition.loading')} />
      ) : list.isError ? (
        <Alert color="red" title={t('recognition.loadFailed')}>{errorDescription(list.error, t('recognition.tryAgain'))}</Alert>
      ) : list.data.items.length === 0 ? (
        <Text>{empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': title } }}>
          <Table striped aria-labelledby={id}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => <Table.Th key={column}>{column}</Table.Th>)}
                <Table.Th><VisuallyHidden>{t('recognition.actions')}</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((item) => (
                <Table.Tr key={item.id} data-row={item.id}>
                  {row(item)}
                  <Table.Td>
                    <Button variant="default" size="xs" leftSection={<IconTrash size={14} aria-hidden />} aria-label={removeLabel(item)} onClick={() => setRemoving(item)}>
                      {t('recognition.remove')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Card withBorder padding="md" radius="md">{form}</Card>
      <ConfirmDialog
        opened={removing !== null}
        message={removing ? removeConfirm(removing) : ''}
        confirmLabel={t('recognition.remove')}
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing.id, {
          onSuccess: () => {
            setRemoving(null);
            notifySuccess(removed[0], removed[1], { action: 'recognition' });
            setTimeout(() => heading.current?.focus(), 0);
          },
          onError: (error) => notifyFailure(t('recognition.removeFailed'), errorDescription(error, t('recognition.tryAgain')), { action: 'recognition' }),
        })}
      />
    </Stack>
  );
}

/** What a failed add does: the server's field messages under their fields, and a toast. */
function useAddFailed(setErrors: (errors: Record<string, string>) => void) {
  const { t } = useTranslation('admin');
  return (error: Error) => {
    if (error instanceof ApiError && error.fields) setErrors(error.fields);
    notifyFailure(t('recognition.addFailed'), errorDescription(error, t('recognition.tryAgain')), { action: 'recognition' });
  };
}

function TrustedIssuersSection({ organisationId }: { organisationId: string | null }) {
  const { t } = useTranslation('admin');
  const list = useTrustedIssuers(organisationId);
  const add = useAddTrustedIssuer();
  const remove = useRemoveTrustedIssuer();
  const [issuerId, setIssuerId] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const addFailed = useAddFailed(setErrors);
  return (
    <RecognitionSection<TrustedIssuer>
      id="trusted-heading"
      title={t('recognition.trustedHeading')}
      intro={t('recognition.trustedIntro')}
      empty={t('recognition.noTrusted')}
      list={list}
      columns={[t('recognition.issuerName'), t('recognition.issuerId'), t('recognition.added')]}
      minWidth={560}
      row={(issuer) => (
        <>
          <Table.Td>
            {issuer.name}{' '}
            {issuer.platformIssuer ? <Badge variant="filled" color="blue.9" radius="sm">{t('recognition.onPlatform')}</Badge> : null}
          </Table.Td>
          <Table.Td><Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>{issuer.issuerId}</Text></Table.Td>
          <Table.Td>{formatDate(issuer.createdAt)}</Table.Td>
        </>
      )}
      removeLabel={(issuer) => t('recognition.removeIssuer', { name: issuer.name })}
      removeConfirm={(issuer) => t('recognition.removeIssuerConfirm', { name: issuer.name })}
      removed={[t('recognition.issuerRemoved'), t('recognition.issuerRemovedDetail')]}
      remove={remove}
      form={
        <form
          noValidate
          aria-labelledby="add-trusted-heading"
          onSubmit={(event) => {
            event.preventDefault();
            add.mutate(
              { ...(organisationId ? { organisationId } : {}), issuerId: issuerId.trim(), name: name.trim() },
              {
                onSuccess: (added) => {
                  setIssuerId('');
                  setName('');
                  setErrors({});
                  notifySuccess(t('recognition.issuerAdded'), t('recognition.issuerAddedDetail', { name: added.name }), { action: 'recognition' });
                },
                onError: addFailed,
              },
            );
          }}
        >
          <Stack gap="sm">
            <Title order={4} size="h5" id="add-trusted-heading">{t('recognition.addIssuer')}</Title>
            <FillFromCredential onFacts={(facts) => {
              setIssuerId(facts.issuerId);
              setName(facts.issuerName);
            }} />
            <TextInput label={t('recognition.issuerName')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} withAsterisk />
            <TextInput
              label={t('recognition.issuerId')}
              description={t('recognition.issuerIdHint')}
              value={issuerId}
              onChange={(e) => setIssuerId(e.currentTarget.value)}
              error={errors.issuerId}
              withAsterisk
            />
            <Group>
              <Button type="submit" loading={add.isPending} leftSection={<IconPlus size={16} aria-hidden />}>{t('recognition.addIssuer')}</Button>
            </Group>
          </Stack>
        </form>
      }
    />
  );
}

function EquivalencesSection({ organisationId }: { organisationId: string | null }) {
  const { t } = useTranslation('admin');
  const list = useEquivalences(organisationId);
  const issuers = useTrustedIssuers(organisationId);
  const add = useAddEquivalence();
  const remove = useRemoveEquivalence();
  const [courseId, setCourseId] = useState<string | null>(null);
  const [issuerId, setIssuerId] = useState<string | null>(null);
  const [achievementId, setAchievementId] = useState('');
  const [achievementName, setAchievementName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const addFailed = useAddFailed(setErrors);
  const trusted = issuers.data?.items ?? [];
  return (
    <RecognitionSection<Equivalence>
      id="equivalences-heading"
      title={t('recognition.equivalencesHeading')}
      intro={t('recognition.equivalencesIntro')}
      empty={t('recognition.noEquivalences')}
      list={list}
      columns={[t('recognition.ownCourse'), t('recognition.acceptedAchievement'), t('recognition.issuer')]}
      minWidth={640}
      row={(e) => (
        <>
          <Table.Td>{e.course.title}</Table.Td>
          <Table.Td>{e.achievementName}</Table.Td>
          <Table.Td>{e.issuerName}</Table.Td>
        </>
      )}
      removeLabel={(e) => t('recognition.removeEquivalence', { course: e.course.title, achievement: e.achievementName })}
      removeConfirm={(e) => t('recognition.removeEquivalenceConfirm', { achievement: e.achievementName, course: e.course.title })}
      removed={[t('recognition.equivalenceRemoved'), t('recognition.equivalenceRemovedDetail')]}
      remove={remove}
      form={
        <form
          noValidate
          aria-labelledby="add-equivalence-heading"
          onSubmit={(event) => {
            event.preventDefault();
            const missing: Record<string, string> = {};
            if (!courseId) missing.courseId = t('recognition.chooseCourse');
            if (!issuerId) missing.issuerId = t('recognition.chooseIssuer');
            if (Object.keys(missing).length) return setErrors(missing);
            add.mutate(
              { ...(organisationId ? { organisationId } : {}), courseId: courseId!, issuerId: issuerId!, achievementId: achievementId.trim(), achievementName: achievementName.trim() },
              {
                onSuccess: (added) => {
                  setAchievementId('');
                  setAchievementName('');
                  setErrors({});
                  notifySuccess(t('recognition.equivalenceAdded'), t('recognition.equivalenceAddedDetail', { achievement: added.achievementName, course: added.course.title }), { action: 'recognition' });
                },
                onError: addFailed,
              },
            );
          }}
        >
          <Stack gap="sm">
            <Title order={4} size="h5" id="add-equivalence-heading">{t('recognition.addEquivalence')}</Title>
            {trusted.length === 0 ? <Text size="sm">{t('recognition.trustFirst')}</Text> : null}
            <FillFromCredential onFacts={(facts) => {
              if (trusted.some((i) => i.issuerId === facts.issuerId)) setIssuerId(facts.issuerId);
              else setErrors({ issuerId: t('recognition.issuerNotTrusted', { name: facts.issuerName || facts.issuerId }) });
              setAchievementId(facts.achievementId);
              setAchievementName(facts.achievementName);
            }} />
            <CourseSelect all label={t('recognition.ownCourse')} description={t('recognition.ownCourseHint')} value={courseId} onChange={setCourseId} error={errors.courseId} withAsterisk />
            <Select
              label={t('recognition.issuer')}
              data={trusted.map((i) => ({ value: i.issuerId, label: i.name }))}
              value={issuerId}
              onChange={setIssuerId}
              error={errors.issuerId}
              withAsterisk
            />
            <TextInput label={t('recognition.achievementName')} value={achievementName} onChange={(e) => setAchievementName(e.currentTarget.value)} error={errors.achievementName} withAsterisk />
            <TextInput
              label={t('recognition.achievementId')}
              description={t('recognition.achievementIdHint')}
              value={achievementId}
              onChange={(e) => setAchievementId(e.currentTarget.value)}
              error={errors.achievementId}
              withAsterisk
            />
            <Group>
              <Button type="submit" loading={add.isPending} disabled={trusted.length === 0} leftSection={<IconPlus size={16} aria-hidden />}>{t('recognition.addEquivalence')}</Button>
            </Group>
          </Stack>
        </form>
      }
    />
  );
}
