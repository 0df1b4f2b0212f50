// /passport: the learner's training passport. Their credentials (every certificate as a signed Open
// Badges 3.0 credential) with status, downloads, "Add to LinkedIn" and the public share switch; then
// the credentials they hold from other issuers, with "Add a credential".
import { useState } from 'react';
import { Alert, Anchor, Group, Pagination, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { PASSPORT_PAGE_SIZE, usePassport } from '../api/get-passport';
import { CredentialCard } from './CredentialCard';
import { HeldCredentials } from './HeldCredentials';

export function PassportPage({ userId }: { userId: string }) {
  const { t } = useTranslation('passport');
  const [page, setPage] = useState(1);
  const query = usePassport(userId, page);
  return (
    <Stack gap="xl">
      <div>
        <Title order={1}>{t('heading')}</Title>
        <Text mt="xs">{t('intro')}</Text>
        <Text size="sm" mt={4}>
          {t('verifyHint')} <Anchor component={Link} to="/verify-credential">{t('verifyLink')}</Anchor>
        </Text>
      </div>
      <Stack gap="md" component="section" aria-labelledby="own-heading">
        <Title order={2} size="h3" id="own-heading">{t('own.heading')}</Title>
        {query.isPending ? (
          <PageSpinner label={t('loading')} />
        ) : query.isError ? (
          <Alert color="red" title={t('loadFailed')}>{errorDescription(query.error, t('card.tryAgain'))}</Alert>
        ) : query.data.items.length === 0 ? (
          <Text>{t('own.none')}</Text>
        ) : (
          <>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              {query.data.items.map((credential) => <CredentialCard key={credential.id} credential={credential} />)}
            </SimpleGrid>
            {query.data.total > PASSPORT_PAGE_SIZE ? (
              <Group justify="center">
                <Pagination
                  total={Math.ceil(query.data.total / PASSPORT_PAGE_SIZE)}
                  value={page}
                  onChange={setPage}
                  getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
                />
              </Group>
            ) : null}
          </>
        )}
      </Stack>
      <HeldCredentials userId={userId} />
    </Stack>
  );
}
