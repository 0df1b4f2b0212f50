// /instructor: instructors and admins only; anyone else gets the 'Access denied' toast and goes to /.
// The API refuses them too (403), whatever the screen does.
import { RequireRole } from '@/components/RequireRole';
import { InstructorDashboard } from '@/features/instructor/components/InstructorDashboard';
import { RequiredTrainingTab } from '@/features/required-training/components/RequiredTrainingTab';
import { useTranslation } from 'react-i18next';
import { AssessmentsTabSlot } from '../assessment-slots';

export function InstructorRoute() {
  const { t } = useTranslation('pages');
  return (
    <RequireRole roles={['INSTRUCTOR', 'ADMIN']} denied={t('instructor.denied')}>
      {(user) => <InstructorDashboard name={user.name} isAdmin={user.role === 'ADMIN'} requiredTrainingTab={<RequiredTrainingTab />} assessmentsTab={<AssessmentsTabSlot />} />}
    </RequireRole>
  );
}
