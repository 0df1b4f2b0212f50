// A course picker that searches the server as the user types (useCourseOptions), so every course
// can be chosen, not only the first page. The chosen course stays listed while other searches run.
import { useState } from 'react';
import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type CourseOptionsQuery, useCourseOptions } from '@/lib/courses';
import { useTranslation } from 'react-i18next';

type Option = { value: string; label: string };

type CourseSelectProps = Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange' | 'filter'> &
  Omit<CourseOptionsQuery, 'search'> & {
    value: string | null;
    onChange: (courseId: string | null) => void;
  };

export function CourseSelect({ all, status, value, onChange, nothingFoundMessage, placeholder, ...props }: CourseSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [chosen, setChosen] = useState<Option | null>(null);
  // Once a course is chosen the box shows its title: that is not a new search.
  const term = chosen && debounced === chosen.label.trim() ? '' : debounced;
  const options = useCourseOptions({ all, status, search: term });
  const found: Option[] = (options.data?.items ?? []).map((c) => ({ value: c.id, label: c.title }));
  const data = chosen && chosen.value === value && !found.some((o) => o.value === chosen.value) ? [chosen, ...found] : found;

  return (
    <Select
      {...props}
      searchable
      data={data}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      // The server has already searched: every option it sent is shown.
      filter={({ options: sent }) => sent}
      onChange={(id, option) => {
        setChosen(option ? { value: option.value, label: option.label } : null);
        onChange(id);
      }}
      placeholder={options.isPending ? t('courseSelect.loading') : placeholder}
      nothingFoundMessage={options.isFetching ? t('courseSelect.searching') : nothingFoundMessage ?? t('courseSelect.nothingFound')}
    />
  );
}
