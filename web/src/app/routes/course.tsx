// /course/:id: the course page (features/course).
import { Box } from '@mantine/core';
import { useParams } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { useSiteSettings } from '@/lib/site-settings/get-settings';
import { CourseDetail } from '@/features/course/components/CourseDetail';
import { PageSpinner } from '@/components/PageSpinner';
import { useTranslation } from 'react-i18next';

export function CourseRoute() {
  const { t } = useTranslation('pages');
  const { id = '' } = useParams();
  const { data: user, isPending } = useUser();
  const settings = useSiteSettings(isPending ? undefined : (user?.id ?? null));
  if (isPending) {
    return (
      <Box mih="100vh">
        <PageSpinner label={t('course.loading')} />
      </Box>
    );
  }
  return <CourseDetail key={id} courseId={id} user={user ?? null} publicEnroll={settings.data?.courseAccess === 'public-enroll'} />;
}
