// /course-manager: instructors (their own courses) and admins (every course); anyone else sees
// 'Access Denied'. The API and RLS refuse them anyway.
import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SERVICE_CODES } from '@shared/services.ts';
import { useUser } from '@/lib/auth/user';
import { CourseManager } from '@/features/course-manager/components/CourseManager';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function CourseManagerRoute() {
  const { t } = useTranslation('pages');
  const { data: user, isPending } = useUser();
  if (isPending) return <PageSpinner label={t('shared.checkingSession')} />;
  if (user?.role !== 'ADMIN' && user?.role !== 'INSTRUCTOR') {
    return (
      <Stack align="center" py="xl" gap="md">
        <PageMeta title={t('courseManager.title')} description={t('courseManager.text')} />
        <Title order={1}>{t('courseManager.title')}</Title>
        <Text>{t('courseManager.text')}</Text>
        <Button component={Link} to="/">
          {t('courseManager.returnHome')}
        </Button>
      </Stack>
    );
  }
  const isAdmin = user.role === 'ADMIN';
  // Instructors create courses only in their services (enforced by RLS); admins in any.
  return <CourseManager isAdmin={isAdmin} services={isAdmin ? SERVICE_CODES : user.services} />;
}
