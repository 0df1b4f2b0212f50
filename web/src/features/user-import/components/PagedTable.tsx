// Pages a long list for the preview and result tables (a 10,000-row file stays quick to render).
import { useState } from 'react';
import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';

export const ROWS_PER_PAGE = 50;

export function usePage<T>(items: readonly T[], resetKey: unknown) {
  // The page chosen for this resetKey; another key (a new file, another filter) starts at page 1.
  const [chosen, setChosen] = useState<{ page: number; resetKey: unknown }>({ page: 1, resetKey });
  const page = Object.is(chosen.resetKey, resetKey) ? chosen.page : 1;
  const setPage = (next: number) => setChosen({ page: next, resetKey });
  const pages = Math.max(1, Math.ceil(items.length / ROWS_PER_PAGE));
  const current = Math.min(page, pages);
  return {
    page: current,
    pages,
    setPage,
    visible: items.slice((current - 1) * ROWS_PER_PAGE, current * ROWS_PER_PAGE),
  };
}

export function PageControls({ page, pages, total, noun, onChange, label }: {
  page: number;
  pages: number;
  total: number;
  /** What is counted: rows of the file, or users. */
  noun: 'rows' | 'users';
  onChange: (page: number) => void;
  label: string;
}) {
  const { t } = useTranslation('user-import');
  if (pages <= 1) return null;
  const first = (page - 1) * ROWS_PER_PAGE + 1;
  const last = Math.min(page * ROWS_PER_PAGE, total);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {t(noun === 'rows' ? 'pageControls.rangeRows' : 'pageControls.rangeUsers', {
          first: formatNumber(first),
          last: formatNumber(last),
          total: formatNumber(total),
        })}
      </Text>
      <Pagination
        total={pages}
        value={page}
        onChange={onChange}
        aria-label={label}
        getControlProps={(control) => ({ 'aria-label': t(`pageControls.control.${control}`) })}
        getItemProps={(item) => ({ 'aria-label': t('pageControls.page', { page: item }) })}
      />
    </Group>
  );
}
