// The accessibility statement (public, /accessibility), in the form UK public-sector bodies publish
// under the Public Sector Bodies (Websites and Mobile Applications) (No. 2) Accessibility
// Regulations 2018. Its WCAG level, test date and screen widths come from
// lib/accessibility-statement.ts, the same facts the browser tests check against. Its words are the
// pages catalogue's (accessibility.*), in English and in Welsh.
import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { PageMeta } from '@/lib/page/page-meta';
import { DEFAULT_SITE_NAME } from '@shared/domain.ts';
import { useUser } from '@/lib/auth/user';
import { useSiteSettings } from '@/lib/site-settings/get-settings';
import { formatDate } from '@/lib/format';
import { LAST_TESTED, STATEMENT_PREPARED, TESTED_WIDTHS, WCAG_STANDARD } from '@/lib/accessibility-statement';

export function AccessibilityRoute() {
  const { t } = useTranslation('accessibility');
  const { data: user, isPending } = useUser();
  const { data: settings } = useSiteSettings(isPending ? undefined : (user?.id ?? null));
  const siteName = settings?.siteName ?? DEFAULT_SITE_NAME;
  const contact = settings?.contactEmail ?? null;
  const standard = `WCAG ${WCAG_STANDARD.version} ${WCAG_STANDARD.level}`;
  const [first, second] = TESTED_WIDTHS;
  const widths = t('accessibility.widths', { first, second });

  return (
    <Stack gap="md" maw={760}>
      <PageMeta title={t('accessibility.title')} description={t('accessibility.description')} />
      <Title order={1}>{t('accessibility.heading', { siteName })}</Title>
      <Text>{t('accessibility.appliesTo', { siteName })}</Text>
      <Text>{t('accessibility.languages')}</Text>
      <Text>{t('accessibility.wantIntro')}</Text>
      <List>
        <List.Item>{t('accessibility.wantColours')}</List.Item>
        <List.Item>{t('accessibility.wantZoom')}</List.Item>
        <List.Item>{t('accessibility.wantKeyboard')}</List.Item>
        <List.Item>{t('accessibility.wantSpeech')}</List.Item>
        <List.Item>{t('accessibility.wantScreenReader')}</List.Item>
      </List>

      <Title order={2}>{t('accessibility.howAccessibleHeading')}</Title>
      <Text>{t('accessibility.howAccessibleIntro')}</Text>
      <List>
        <List.Item>{t('accessibility.issuePdf')}</List.Item>
        <List.Item>{t('accessibility.issueImages')}</List.Item>
        <List.Item>{t('accessibility.issueContent')}</List.Item>
      </List>

      <Title order={2}>{t('accessibility.feedbackHeading')}</Title>
      <Text>{t('accessibility.feedbackIntro')}</Text>
      <List>
        {contact ? (
          <List.Item>
            <Trans t={t} i18nKey="accessibility.feedbackEmail" values={{ contact }} components={{ mail: <Anchor href={`mailto:${contact}`} /> }} />
          </List.Item>
        ) : null}
        <List.Item>{t('accessibility.feedbackContact')}</List.Item>
      </List>
      <Text>{t('accessibility.feedbackResponse')}</Text>

      <Title order={2}>{t('accessibility.enforcementHeading')}</Title>
      <Text>{t('accessibility.enforcementEhrc')}</Text>
      <Text>{t('accessibility.enforcementNi')}</Text>

      <Title order={2}>{t('accessibility.technicalHeading')}</Title>
      <Text>{t('accessibility.technicalCommitment')}</Text>
      <Title order={3}>{t('accessibility.complianceHeading')}</Title>
      <Text data-testid="compliance-status">
        {t('accessibility.complianceStatus', { version: WCAG_STANDARD.version, level: WCAG_STANDARD.level, standard })}
      </Text>
      <Title order={3}>{t('accessibility.nonAccessibleHeading')}</Title>
      <Text>{t('accessibility.nonAccessibleText')}</Text>

      <Title order={2}>{t('accessibility.testedHeading')}</Title>
      <Text data-testid="last-tested">{t('accessibility.lastTested', { date: formatDate(LAST_TESTED) })}</Text>
      <Text>{t('accessibility.testedHow', { standard, widths })}</Text>

      <Title order={2}>{t('accessibility.preparationHeading')}</Title>
      <Text>
        {t('accessibility.preparation', { prepared: formatDate(STATEMENT_PREPARED), reviewed: formatDate(LAST_TESTED) })}
      </Text>
      <Anchor component={Link} to="/">
        {t('shared.returnHome')}
      </Anchor>
    </Stack>
  );
}
