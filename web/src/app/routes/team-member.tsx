// /team/:personId: one of the manager's reports.
import { useParams } from 'react-router';
import { TeamMemberPage } from '@/features/my-team/components/TeamMemberPage';

export function TeamMemberRoute() {
  const { personId = '' } = useParams();
  return <TeamMemberPage key={personId} personId={personId} />;
}
