// An administrator names the people of their organisation who assess a course's practical
// assessments (beside the service's instructors, who assess already): the list, a people search to
// add one, and removal. The database decides whom an administrator may name (their own people).
import { useRef, useState } from 'react';
import { Button, Group, Loader, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCourseAssessors, useNameAssessor, usePeopleSearch, useRemoveAssessor } from '../api/assessments';

export function CourseAssessorsDialog({ course, onClose }: { course: { id: string; title: string }; onClose: () => void }) {
  const { t } = useTranslation('assessments');
  const assessors = useCourseAssessors(course.id);
  const name = useNameAssessor(course.id);
  const remove = useRemoveAssessor(course.id);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [personId, setPersonId] = useState<string | null>(null);
  const people = usePeopleSearch(debounced);
  const picker = useRef<HTMLInputElement>(null);
  const options = (people.data?.items ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.username})` }));

  function add() {
    if (!personId) return;
    name.mutate(personId, {
      onSuccess: (named) => {
        notifySuccess(t('assessors.named'), named.name ?? '');
        setPersonId(null);
        setSearch('');
        setTimeout(() => picker.current?.focus(), 0);
      },
      onError: (error) => notifyFailure(t('assessors.nameError'), errorDescription(error, t('tryAgain'))),
    });
  }

  return (
    <Modal opened onClose={onClose} title={t('assessors.title', { title: course.title })} size="lg" closeButtonProps={{ 'aria-label': t('close') }}>
      <Stack gap="md">
        <Text size="sm">{t('assessors.intro')}</Text>
        <Group align="flex-end" wrap="wrap">
          <Select
            ref={picker}
            label={t('assessors.person')}
            placeholder={t('assessors.searchHint')}
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            data={options}
            value={personId}
            onChange={setPersonId}
            nothingFoundMessage={debounced.trim().length >= 2 && !people.isFetching ? t('assessors.noPeople') : undefined}
            rightSection={people.isFetching ? <Loader size="xs" aria-hidden /> : undefined}
            filter={({ options: all }) => all}
            style={{ flex: 1, minWidth: 220 }}
          />
          <Button onClick={add} disabled={!personId} loading={name.isPending}>
            {t('assessors.add')}
          </Button>
        </Group>
        {assessors.isPending ? (
          <Text role="status">{t('loading')}</Text>
        ) : assessors.isError ? (
          <Text c="red.8">{errorDescription(assessors.error, t('loadFailed'))}</Text>
        ) : assessors.data.length === 0 ? (
          <Text size="sm">{t('assessors.none')}</Text>
        ) : (
          <Table>
            <Table.Caption>{t('assessors.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('assessors.name')}</Table.Th>
                <Table.Th scope="col">{t('assessors.namedAt')}</Table.Th>
                <Table.Th scope="col">{t('assessors.action')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {assessors.data.map((a) => (
                <Table.Tr key={a.personId}>
                  <Table.Td>{a.name ?? a.username ?? a.personId}</Table.Td>
                  <Table.Td>{formatDate(a.namedAt)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red.9"
                      loading={remove.isPending && remove.variables === a.personId}
                      aria-label={t('assessors.removeFor', { name: a.name ?? a.username ?? '' })}
                      onClick={() =>
                        remove.mutate(a.personId, {
                          onSuccess: () => {
                            notifySuccess(t('assessors.removed'), a.name ?? '');
                            setTimeout(() => picker.current?.focus(), 0);
                          },
                          onError: (error) => notifyFailure(t('assessors.removeError'), errorDescription(error, t('tryAgain'))),
                        })
                      }
                    >
                      {t('assessors.remove')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export default CourseAssessorsDialog;
