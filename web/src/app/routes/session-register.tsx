// /sessions/:id/register: a classroom session's register (features/sessions), kept on a phone. The
// server decides who may see and mark it (trainers, the course's authors, administrators).
import { useParams } from 'react-router';
import { RegisterPage } from '@/features/sessions/components/RegisterPage';

export function SessionRegisterRoute() {
  const { id = '' } = useParams();
  return <RegisterPage key={id} sessionId={id} />;
}
