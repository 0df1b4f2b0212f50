// Choosing a person's organisation, unit and line manager (the Users tab's filters and the
// user dialog). The unit list shows each unit's path from the top; the manager is found by typing
// part of a name, username or email of a person of the organisation.
import { useMemo, useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { unitOptions, useOrganisations, usePeopleOf, useUnitsOf } from '../api/organisations';

export function OrganisationSelect(props: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  /** The option meaning "none" (a filter's "All organisations", the dialog's "No organisation"). */
  noneLabel: string;
  disabled?: boolean;
  description?: string;
  error?: string;
}) {
  const { t } = useTranslation('admin');
  const organisations = useOrganisations();
  const data = useMemo(
    () => (organisations.data ?? []).map((o) => ({ value: o.id, label: `${o.name} (${o.code})` })),
    [organisations.data],
  );
  return (
    <Select
      label={props.label}
      data={data}
      value={props.value}
      placeholder={props.noneLabel}
      clearable={!props.disabled}
      clearButtonProps={{ 'aria-label': t('placement.clear', { field: props.label.toLowerCase() }) }}
      searchable
      disabled={props.disabled}
      description={props.description}
      error={props.error}
      nothingFoundMessage={t('placement.noOrganisationFound')}
      onChange={(value) => props.onChange(value ? value : null)}
    />
  );
}

export function UnitSelect(props: {
  label: string;
  organisationId: string | null;
  value: string | null;
  onChange: (value: string | null) => void;
  noneLabel: string;
  disabled?: boolean;
  error?: string;
}) {
  const { t } = useTranslation('admin');
  const units = useUnitsOf(props.organisationId);
  const data = useMemo(() => unitOptions(units.data ?? []), [units.data]);
  return (
    <Select
      label={props.label}
      data={data}
      value={props.value}
      placeholder={props.noneLabel}
      clearable={!props.disabled}
      clearButtonProps={{ 'aria-label': t('placement.clear', { field: props.label.toLowerCase() }) }}
      searchable
      disabled={props.disabled || !props.organisationId}
      description={props.organisationId ? undefined : t('placement.chooseOrganisationFirst')}
      error={props.error}
      nothingFoundMessage={t('placement.noUnitFound')}
      onChange={(value) => props.onChange(value ? value : null)}
    />
  );
}

/** A person of the organisation, searched on the server as one types (never another organisation's). */
export function ManagerSelect(props: {
  label: string;
  organisationId: string | null;
  value: string | null;
  /** The chosen person's name, shown before any search (e.g. the list row's managerName). */
  valueLabel?: string;
  onChange: (value: string | null, label: string | null) => void;
  noneLabel: string;
  /** Said under the label once an organisation is chosen. */
  hint?: string;
  /** The person being edited: never their own manager. */
  excludeId?: string;
  disabled?: boolean;
  error?: string;
}) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  // While the field shows a chosen "Name (@username)", the search is for that username.
  const term = /\(@([^)]+)\)$/.exec(debounced)?.[1] ?? debounced;
  const people = usePeopleOf(props.organisationId, term);
  const data = useMemo(() => {
    const chosen = props.value && props.valueLabel ? { value: props.value, label: props.valueLabel } : null;
    const found = (people.data?.items ?? [])
      .filter((p) => p.id !== props.excludeId)
      .map((p) => ({ value: p.id, label: `${p.name} (@${p.username})` }));
    return chosen && !found.some((o) => o.value === chosen.value) ? [chosen, ...found] : found;
  }, [people.data, props.excludeId, props.value, props.valueLabel]);
  return (
    <Select
      label={props.label}
      placeholder={props.noneLabel}
      data={data}
      value={props.value}
      clearable={!props.disabled}
      clearButtonProps={{ 'aria-label': t('placement.clear', { field: props.label.toLowerCase() }) }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server has searched already: show what it found as it is.
      filter={({ options }) => options}
      disabled={props.disabled || !props.organisationId}
      description={props.organisationId ? props.hint : t('placement.chooseOrganisationFirst')}
      error={props.error}
      nothingFoundMessage={people.isFetching ? t('placement.searching') : t('placement.nobodyMatches')}
      onChange={(value, option) => props.onChange(value ? value : null, value ? option?.label ?? null : null)}
    />
  );
}
