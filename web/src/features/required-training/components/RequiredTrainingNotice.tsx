// The header notice: '{n} required training items overdue or due soon', linking to the
// dashboard's list. Only for a signed-in user with n > 0; it shares the dashboard list's query.
import { Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMyRequiredTraining } from '../api/required-training';

export function RequiredTrainingNotice({ userId }: { userId: string | null | undefined }) {
  const { data } = useMyRequiredTraining(userId);
  const n = data?.attention ?? 0;
  if (!userId || n === 0) return null;
  // Its words load only when it shows: a visitor's first page does not fetch the catalogue.
  return <Notice count={n} />;
}

function Notice({ count: n }: { count: number }) {
  const { t } = useTranslation('required-training');
  const text = t('requiredTrainingNotice.text', { count: n });
  // White on red 9 (5.6:1) in both colour schemes; on small screens only the count, with the words
  // for assistive technology.
  return (
    <>
      <Button
        component={Link}
        to="/dashboard#required-training"
        data-testid="required-training-notice"
        size="compact-sm"
        color="red.9"
        visibleFrom="sm"
        leftSection={<IconAlertTriangle size={16} aria-hidden="true" />}
      >
        {text}
      </Button>
      <Button
        component={Link}
        to="/dashboard#required-training"
        data-testid="required-training-notice-compact"
        size="compact-sm"
        color="red.9"
        hiddenFrom="sm"
        aria-label={text}
        leftSection={<IconAlertTriangle size={16} aria-hidden="true" />}
      >
        {n}
      </Button>
    </>
  );
}
