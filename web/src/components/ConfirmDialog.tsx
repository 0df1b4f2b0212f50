// 'Are you sure?' before anything is deleted.
import { Button, Group, Modal, Text } from '@mantine/core';

export interface ConfirmDialogProps {
  opened: boolean;
  message: string;
  confirmLabel?: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ opened, message, confirmLabel = 'Delete', loading, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={opened} onClose={onClose} title="Are you sure?" centered>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>Cancel</Button>
        <Button color="red.9" onClick={onConfirm} loading={loading}>{confirmLabel}</Button>
      </Group>
    </Modal>
  );
}
