// /course/:id/module/:moduleId: one module and its quiz (features/learning).
import { useParams } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { ModuleViewer } from '@/features/learning/components/ModuleViewer';
import { PageSpinner } from '@/components/PageSpinner';
import { useTranslation } from 'react-i18next';
import { assessmentPanel } from '../assessment-slots';

export function ModuleRoute() {
  const { t } = useTranslation('pages');
  const { id = '', moduleId = '' } = useParams();
  const { data: user, isPending } = useUser();
  if (isPending) return <PageSpinner label={t('module.loading')} />;
  return <ModuleViewer key={moduleId} courseId={id} moduleId={moduleId} user={user ?? null} assessmentPanel={assessmentPanel} />;
}
