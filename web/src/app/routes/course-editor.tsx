// /course-creator and /course/create are create mode; /course/edit/:id is edit mode.
import { useParams } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { PageSpinner } from '@/components/PageSpinner';
import { CourseEditor } from '@/features/course-editor/components/CourseEditor';
import { useTranslation } from 'react-i18next';
import { assessmentDialog } from '../assessment-slots';

export function CourseEditorRoute() {
  const { t } = useTranslation('pages');
  const { id } = useParams();
  const { data: user, isPending } = useUser();
  if (isPending || !user) return <PageSpinner label={t('shared.checkingSession')} />;
  // Keyed by id: create mode becomes edit mode on a fresh editor after the first save.
  return <CourseEditor key={id ?? 'new'} user={user} courseId={id} assessmentDialog={assessmentDialog} />;
}
