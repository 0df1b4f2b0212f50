// Home (/): the hero, then the catalogue; under login-browse a visitor is asked to sign in instead.
// An address carrying Auth's refusal (?error=…&error_description=…: a SAML sign-in refused at the
// ACS goes to the site URL, not to redirect_to) is passed on to /auth/callback, which shows it.
import { Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PRODUCT_NAME } from '@shared/domain.ts';
import { isServiceCode } from '@shared/services.ts';
import { labelOf } from '@/lib/i18n/labels';
import { authErrorQuery, CALLBACK_PATH } from '@/lib/auth/auth-refusal';
import { useUser } from '@/lib/auth/user';
import { useSiteSettings } from '@/lib/site-settings/get-settings';
import { CourseCatalogue } from '@/features/catalogue/components/CourseCatalogue';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function HomeRoute() {
  const { t } = useTranslation('pages');
  // Passed on after the first render, which stays the prerendered page's (hydrated as it is).
  const refusal = authErrorQuery(useLocation().search);
  const navigate = useNavigate();
  useEffect(() => {
    if (refusal) void navigate(`${CALLBACK_PATH}${refusal}`, { replace: true });
  }, [navigate, refusal]);
  const { data: user, isPending: userPending } = useUser();
  const settings = useSiteSettings(userPending ? undefined : (user?.id ?? null));
  const [params] = useSearchParams();
  const service = params.get('service');
  const serviceName = isServiceCode(service) ? labelOf('service', service) : null;
  const courseAccess = settings.data?.courseAccess;
  const mustSignIn = !user && courseAccess === 'login-browse';

  return (
    <Stack gap="xl">
      <PageMeta
        title={serviceName ? t('home.serviceTitle', { service: serviceName }) : null}
        description={
          serviceName
            ? t('home.serviceDescription', { service: serviceName })
            : t('home.description')
        }
      />
      <Paper withBorder p={{ base: 'lg', sm: 'xl' }} radius="lg">
        <Stack gap="md" maw={720}>
          <Title order={1}>{PRODUCT_NAME}</Title>
          <Text size="lg">{t('home.tagline')}</Text>
          <Group>
            <Button component={Link} to={user ? '/my-courses' : '/auth'} size="md">
              {t('home.getStarted')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Box component="section" aria-labelledby="available-courses">
        <Title order={2} id="available-courses" mb="md">
          {t('home.availableCourses')}
        </Title>
        {userPending || (settings.isPending && !settings.isError) ? (
          // A screen's height while the courses load (as in the prerendered page, web/prerender.mjs),
          // so the footer starts below the fold and does not move when the cards arrive.
          <Box mih="100vh">
            <PageSpinner label={t('home.loadingCourses')} />
          </Box>
        ) : mustSignIn ? (
          <Paper withBorder p="lg">
            <Stack gap="sm" align="flex-start">
              <Title order={3}>{t('home.signInToBrowse')}</Title>
              <Text>{t('home.membersOnly')}</Text>
              <Button component={Link} to="/auth">
                {t('home.login')}
              </Button>
            </Stack>
          </Paper>
        ) : (
          <CourseCatalogue user={user ?? null} publicEnroll={courseAccess === 'public-enroll'} />
        )}
      </Box>
    </Stack>
  );
}
