// The course editor's dialog around a session module's dates (loaded only when an author opens it).
import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CourseModule } from '@shared/catalogue.ts';
import { SessionDatesPanel } from './SessionDatesPanel';

export default function SessionDatesDialog({ module, onClose }: { module: CourseModule; onClose: () => void }) {
  const { t } = useTranslation('sessions');
  return (
    <Modal opened onClose={onClose} title={t('dates.dialogTitle')} size="xl" closeButtonProps={{ 'aria-label': t('closeDialog') }}>
      <SessionDatesPanel moduleId={module.id} moduleTitle={module.title} />
    </Modal>
  );
}
