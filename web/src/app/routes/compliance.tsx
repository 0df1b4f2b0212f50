// /compliance: admins and instructors only; anyone else gets the 'Access denied' toast and goes to /.
// The API refuses them too (403), whatever the screen does.
import { Stack, Text, Title } from '@mantine/core';
import type { CurrentUser, User } from '@shared/domain.ts';
import { RequireRole } from '@/components/RequireRole';
import { ComplianceView } from '@/features/compliance/components/ComplianceView';
import { PageMeta } from '@/lib/page/page-meta';

export function ComplianceRoute() {
  return (
    <RequireRole roles={['INSTRUCTOR', 'ADMIN']} denied="Only instructors and administrators can see compliance.">
      {(user) => <CompliancePage user={user} />}
    </RequireRole>
  );
}

function CompliancePage({ user }: { user: User }) {
  const isAdmin = user.role === 'ADMIN';
  // An organisation's administrator: their organisation only, by the database.
  const own = (user as CurrentUser).organisation;
  const organisation = isAdmin && own ? { id: own.id, name: own.name } : null;
  return (
    <Stack gap="md">
      <PageMeta title="Compliance" description="Required training compliance across services and teams." />
      <div>
        <Title order={1}>Compliance</Title>
        <Text c="dimmed">
          {organisation
            ? `Required training across ${organisation.name}: who is compliant, due soon or overdue.`
            : isAdmin
            ? 'Required training across every service: who is compliant, due soon or overdue.'
            : 'Required training of the people in your services: who is compliant, due soon or overdue.'}
        </Text>
      </div>
      <ComplianceView isAdmin={isAdmin} services={user.services} organisation={organisation} />
    </Stack>
  );
}
