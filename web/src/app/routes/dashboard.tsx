// /dashboard: the learner dashboard, with the certificates feature in its Certificates tab and the
// required-training feature's section above the courses.
import { useUser } from '@/lib/auth/user';
import { useCertificates } from '@/features/certificates/api/get-certificates';
import { CertificateList } from '@/features/certificates/components/CertificateList';
import { LearnerDashboard } from '@/features/my-learning/components/LearnerDashboard';
import { RequiredTrainingSection } from '@/features/required-training/components/RequiredTrainingSection';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';

export function DashboardRoute() {
  const { data: user } = useUser();
  // The certificate count is the server's total of real certificates (page 1 carries it).
  const certificates = useCertificates();
  if (!user) return <PageSpinner label="Loading your dashboard" />;
  return (
    <>
      <PageMeta title="Dashboard" description="Your learning at a glance: courses in progress, completions and required training." />
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
