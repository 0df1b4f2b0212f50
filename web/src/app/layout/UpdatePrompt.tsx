// "A new version is available: Reload": shown when a new service worker waits (web/src/lib/offline/
// register.ts); Reload lets it take over and reloads the page into the new version.
import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { applyUpdate, useUpdateAvailable } from '@/lib/offline/update';
import classes from './AppLayout.module.css';

export function UpdatePrompt() {
  const { t } = useTranslation();
  const available = useUpdateAvailable();
  if (!available) return null;
  return (
    <Paper className={classes.updatePrompt} shadow="md" withBorder p="sm" role="status" data-testid="update-prompt">
      <Group gap="sm" wrap="nowrap">
        <Text size="sm" fw={600}>
          {t('offline.updateAvailable')}
        </Text>
        <Button size="xs" onClick={applyUpdate}>
          {t('offline.reload')}
        </Button>
      </Group>
    </Paper>
  );
}
