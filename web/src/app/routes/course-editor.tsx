// /course-creator and /course/create are create mode; /course/edit/:id is edit mode (specification §2).
import { useParams } from 'react-router';
import { ComingSoon } from '@/components/ComingSoon';

export function CourseEditorRoute() {
  const { id } = useParams();
  return id ? (
    <ComingSoon title="Edit Course" description="The course editor: details, cover image, modules and their order." />
  ) : (
    <ComingSoon title="Create Course" description="The course editor: details and cover image, then modules once the course is saved." />
  );
}
