// The trainers of a date: a search of the people who may run it (GET /api/modules/:moduleId/trainers,
// the server's rule, so nobody it would refuse is offered) and the chosen ones as chips, each removed
// by its own button (reached with Tab, pressed with Enter or Space).
import { type ReactNode, useMemo, useState } from 'react';
import { Group, Pill, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useTrainerCandidates } from '../api/sessions';

export interface ChosenTrainer {
  id: string;
  name: string;
}

export function TrainerPicker(props: {
  moduleId: string;
  /** The date's organisation when editing an organisation's date; null: decided as for a new date. */
  organisationId: string | null;
  value: ChosenTrainer[];
  onChange: (trainers: ChosenTrainer[]) => void;
  error?: ReactNode;
}) {
  const { t } = useTranslation('sessions');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const candidates = useTrainerCandidates(props.moduleId, debounced.trim(), props.organisationId);
  const data = useMemo(() => {
    const chosen = new Set(props.value.map((p) => p.id));
    return (candidates.data ?? []).filter((p) => !chosen.has(p.id)).map((p) => ({ value: p.id, label: `${p.name} (@${p.username})` }));
  }, [candidates.data, props.value]);

  function add(id: string | null) {
    const person = candidates.data?.find((p) => p.id === id);
    if (person && !props.value.some((p) => p.id === person.id)) props.onChange([...props.value, { id: person.id, name: person.name }]);
    setSearch('');
  }

  return (
    <Stack gap={6}>
      <Select
        label={t('dialog.trainersLabel')}
        description={t('dialog.trainersHint')}
        placeholder={t('dialog.trainersSearch')}
        data={data}
        value={null}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        // The server has searched already: show what it found as it is.
        filter={({ options }) => options}
        nothingFoundMessage={candidates.isFetching ? t('dialog.searchingTrainers') : t('dialog.noTrainerFound')}
        error={props.error}
        onChange={add}
      />
      {props.value.length === 0 ? (
        <Text size="sm" c="dimmed">{t('dialog.noTrainers')}</Text>
      ) : (
        <Group gap="xs" role="list" aria-label={t('dialog.chosenTrainers')}>
          {props.value.map((p) => (
            <Pill
              key={p.id}
              role="listitem"
              size="md"
              withRemoveButton
              onRemove={() => props.onChange(props.value.filter((q) => q.id !== p.id))}
              // Mantine hides the chip's remove button from the keyboard and screen readers: shown here.
              removeButtonProps={{ tabIndex: 0, 'aria-hidden': false, 'aria-label': t('dialog.removeTrainer', { name: p.name }) }}
            >
              {p.name}
            </Pill>
          ))}
        </Group>
      )}
    </Stack>
  );
}
