import { useParams } from 'react-router';
import { ComingSoon } from '@/components/ComingSoon';

export function CourseRoute() {
  const { id } = useParams();
  return <ComingSoon title="Course" description={`The details and modules of course ${id ?? ''} will be shown here.`} />;
}
