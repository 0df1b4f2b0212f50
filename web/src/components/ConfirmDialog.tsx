// 'Are you sure?' before anything is deleted.
import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  opened: boolean;
  message: string;
  confirmLabel?: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ opened, message, confirmLabel, loading, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal closeButtonProps={{ 'aria-label': t('dialog.close') }} opened={opened} onClose={onClose} title={t('confirm.title')} centered>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>{t('action.cancel')}</Button>
        <Button color="red.9" onClick={onConfirm} loading={loading}>{confirmLabel ?? t('action.delete')}</Button>
      </Group>
    </Modal>
  );
}
