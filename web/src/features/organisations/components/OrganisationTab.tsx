// Organisation tab of the Admin Dashboard. A national administrator sees every organisation (name,
// code, service, people), adds one, and opens one to see its units; an organisation's administrator
// sees their own organisation's units directly (UnitTree), each with its automatic provisioning
// (ProvisioningPanel) and its sign-in through its identity provider (SignInPanel). After each action the focus goes to the
// thing acted on (or back where it came from when a dialog is cancelled).
import { useState } from 'react';
import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { IconPlus } from '@tabler/icons-react';
import type { CurrentUser } from '@shared/domain.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { errorDescription } from '@/lib/api-client';
import { useOrganisations } from '../api/organisations';
import { useFocusRequest } from '../hooks/use-focus-request';
import { AddOrganisationDialog } from './AddOrganisationDialog';
import { ProvisioningPanel } from './ProvisioningPanel';
import { SignInPanel } from './SignInPanel';
import { UnitTree } from './UnitTree';

export function OrganisationTab({ user }: { user: CurrentUser }) {
  if (user.organisation) {
    return (
      <Stack>
        <UnitTree organisation={user.organisation} />
        <ProvisioningPanel organisation={user.organisation} />
        <SignInPanel organisation={user.organisation} national={false} />
      </Stack>
    );
  }
  return <NationalOrganisations />;
}

/** National administrators: the organisations. */
function NationalOrganisations() {
  const { t } = useTranslation('organisations');
  const { data, isPending, isError, error } = useOrganisations();
  // The organisation opened is in the URL (?organisation=), so a reload keeps it and Back returns
  // to the list.
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('organisation');
  const setSelectedId = (id: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set('organisation', id);
      else next.delete('organisation');
      return next;
    });
  const [adding, setAdding] = useState(false);
  const focus = useFocusRequest();
  const selected = data?.find((o) => o.id === selectedId) ?? null;

  if (selected) {
    return (
      <Stack>
        <Group>
          <Button
            variant="default"
            size="sm"
            onClick={() => {
              setSelectedId(null);
              focus(`organisation-open-${selected.id}`);
            }}
          >
            {t('organisationTab.allOrganisations')}
          </Button>
        </Group>
        <UnitTree organisation={selected} focusHeading />
        <ProvisioningPanel organisation={selected} />
        <SignInPanel organisation={selected} national />
      </Stack>
    );
  }

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3" id="organisations-heading" tabIndex={-1}>{t('organisationTab.heading')}</Title>
          <Text c="dimmed" size="sm">{t('organisationTab.intro')}</Text>
        </div>
        <Button data-focus-id="organisation-add" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          {t('organisationTab.add')}
        </Button>
      </Group>
      {isError ? <Text c="red.8">{errorDescription(error, t('organisationTab.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('organisationTab.loading')}</Text> : null}
      {data && data.length === 0 ? (
        <Stack gap={4} py="xl" ta="center">
          <Text fw={600}>{t('organisationTab.emptyTitle')}</Text>
          <Text c="dimmed">{t('organisationTab.emptyText')}</Text>
        </Stack>
      ) : null}
      {data && data.length > 0 ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover aria-labelledby="organisations-heading">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('shared.name')}</Table.Th>
                <Table.Th>{t('organisationTab.code')}</Table.Th>
                <Table.Th>{t('organisationTab.service')}</Table.Th>
                <Table.Th ta="right">{t('organisationTab.people')}</Table.Th>
                <Table.Th><Text span size="sm" fw={700}>{t('organisationTab.units')}</Text></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((o) => (
                <Table.Tr key={o.id} data-organisation-code={o.code}>
                  <Table.Td><Text fw={500}>{o.name}</Text></Table.Td>
                  <Table.Td><Text span ff="monospace">{o.code}</Text></Table.Td>
                  <Table.Td><ServiceBadge code={o.service} /></Table.Td>
                  <Table.Td ta="right">{o.people}</Table.Td>
                  <Table.Td>
                    <Button
                      data-focus-id={`organisation-open-${o.id}`}
                      size="xs"
                      variant="default"
                      aria-label={t('organisationTab.viewUnitsOf', { name: o.name })}
                      onClick={() => setSelectedId(o.id)}
                    >
                      {t('organisationTab.viewUnits')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <AddOrganisationDialog
        opened={adding}
        onClose={(created) => {
          setAdding(false);
          if (created) setSelectedId(created.id);
          else focus('organisation-add');
        }}
      />
    </Stack>
  );
}
