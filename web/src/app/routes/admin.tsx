// /admin: the Admin Dashboard (the route table's RequireAdmin guard sends non-admins to /).
import { useUser } from '@/lib/auth/user';
import { AdminDashboard } from '@/features/admin/components/AdminDashboard';
import { OrganisationTab } from '@/features/organisations/components/OrganisationTab';
import { RequiredTrainingTab } from '@/features/required-training/components/RequiredTrainingTab';
import { PageSpinner } from '@/components/PageSpinner';
import { assessorsDialog } from '../assessment-slots';

export function AdminRoute() {
  const { data: user } = useUser();
  if (!user) return <PageSpinner />;
  return <AdminDashboard user={user} organisationTab={<OrganisationTab user={user} />} requiredTrainingTab={<RequiredTrainingTab />} assessorsDialog={assessorsDialog} />;
}
