// /dashboard: the learner dashboard, with the certificates feature in its Certificates tab and the
// required-training feature's section above the courses.
import { useUser } from '@/lib/auth/user';
import { useCertificates } from '@/features/certificates/api/get-certificates';
import { CertificateList } from '@/features/certificates/components/CertificateList';
import { LearnerDashboard } from '@/features/my-learning/components/LearnerDashboard';
import { RequiredTrainingSection } from '@/features/required-training/components/RequiredTrainingSection';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function DashboardRoute() {
  const { t } = useTranslation('pages');
  const { data: user } = useUser();
  // The certificate count is the server's total of real certificates (page 1 carries it).
  const certificates = useCertificates();
  if (!user) return <PageSpinner label={t('dashboard.loading')} />;
  return (
    <>
      <PageMeta title={t('dashboard.title')} description={t('dashboard.description')} />
      <LearnerDashboard
        userId={user.id}
        name={user.name}
        certificateCount={certificates.data?.total}
        certificatesPanel={<CertificateList />}
        requiredTraining={<RequiredTrainingSection userId={user.id} />}
      />
    </>
  );
}
