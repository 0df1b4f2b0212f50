// Help (public, /help): short answers for the people who use the platform — signing in (a password or
// their organisation's sign-in), finding and enrolling on courses, modules and quizzes, certificates
// and checking one, required training and its due dates, changing language, and who to contact (the
// site's contact email from the site settings, as the footer shows it). Its words are the pages
// catalogue's (help.*), in English and in Welsh.
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { DEFAULT_SITE_NAME } from '@shared/domain.ts';
import { useUser } from '@/lib/auth/user';
import { PageMeta } from '@/lib/page/page-meta';
import { useSiteSettings } from '@/lib/site-settings/get-settings';

const to = (path: string) => <Anchor component={Link} to={path} />;

export function HelpRoute() {
  const { t } = useTranslation('help');
  const { data: user, isPending } = useUser();
  const { data: settings } = useSiteSettings(isPending ? undefined : (user?.id ?? null));
  const siteName = settings?.siteName ?? DEFAULT_SITE_NAME;
  const contact = settings?.contactEmail ?? null;

  return (
    <Stack gap="md" maw={760}>
      <PageMeta title={t('help.title')} description={t('help.description')} />
      <Title order={1}>{t('help.heading', { siteName })}</Title>
      <Text>{t('help.intro')}</Text>

      <Title order={2}>{t('help.signInHeading')}</Title>
      <Text>
        <Trans t={t} i18nKey="help.signInPassword" components={{ signIn: to('/auth') }} />
      </Text>
      <Text>{t('help.signInOrganisation')}</Text>
      <Text>{t('help.signInTemporary')}</Text>

      <Title order={2}>{t('help.coursesHeading')}</Title>
      <Text>
        <Trans t={t} i18nKey="help.coursesFind" components={{ home: to('/') }} />
      </Text>
      <Text>
        <Trans t={t} i18nKey="help.coursesApproval" components={{ myCourses: to('/my-courses') }} />
      </Text>

      <Title order={2}>{t('help.modulesHeading')}</Title>
      <Text>{t('help.modulesWork')}</Text>
      <Text>{t('help.modulesQuiz')}</Text>

      <Title order={2}>{t('help.certificatesHeading')}</Title>
      <Text>
        <Trans t={t} i18nKey="help.certificatesGet" components={{ certificates: to('/certificates') }} />
      </Text>
      <Text>{t('help.certificatesVerify')}</Text>

      <Title order={2}>{t('help.requiredHeading')}</Title>
      <Text>
        <Trans t={t} i18nKey="help.requiredText" components={{ dashboard: to('/dashboard') }} />
      </Text>

      <Title order={2}>{t('help.languageHeading')}</Title>
      <Text>{t('help.languageText')}</Text>

      <Title order={2}>{t('help.contactHeading')}</Title>
      <Text data-testid="help-contact">
        {contact ? (
          <Trans t={t} i18nKey="help.contactEmail" values={{ contact }} components={{ mail: <Anchor href={`mailto:${contact}`} /> }} />
        ) : (
          t('help.contactAdministrator')
        )}
      </Text>
      <Text>{t('help.contactCourse')}</Text>
      <Text>
        <Trans t={t} i18nKey="help.contactAccessibility" components={{ accessibility: to('/accessibility') }} />
      </Text>
      <Anchor component={Link} to="/">
        {t('shared.returnHome')}
      </Anchor>
    </Stack>
  );
}
