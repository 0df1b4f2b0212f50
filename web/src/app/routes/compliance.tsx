// /compliance: admins and instructors only; anyone else gets the 'Access denied' toast and goes to /.
// The API refuses them too (403), whatever the screen does.
import { Stack, Text, Title } from '@mantine/core';
import type { CurrentUser, User } from '@shared/domain.ts';
import { RequireRole } from '@/components/RequireRole';
import { ComplianceView } from '@/features/compliance/components/ComplianceView';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function ComplianceRoute() {
  const { t } = useTranslation('pages');
  return (
    <RequireRole roles={['INSTRUCTOR', 'ADMIN']} denied={t('compliance.denied')}>
      {(user) => <CompliancePage user={user} />}
    </RequireRole>
  );
}

function CompliancePage({ user }: { user: User }) {
  const { t } = useTranslation('pages');
  const isAdmin = user.role === 'ADMIN';
  // An organisation's administrator: their organisation only, by the database.
  const own = (user as CurrentUser).organisation;
  const organisation = isAdmin && own ? { id: own.id, name: own.name } : null;
  return (
    <Stack gap="md">
      <PageMeta title={t('compliance.title')} description={t('compliance.description')} />
      <div>
        <Title order={1}>{t('compliance.title')}</Title>
        <Text c="dimmed">
          {organisation
            ? t('compliance.introOrganisation', { organisation: organisation.name })
            : isAdmin
            ? t('compliance.introAdmin')
            : t('compliance.introInstructor')}
        </Text>
      </div>
      <ComplianceView isAdmin={isAdmin} services={user.services} organisation={organisation} />
    </Stack>
  );
}
