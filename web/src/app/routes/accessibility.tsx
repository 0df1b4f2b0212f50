// The accessibility statement (public, /accessibility), in the form UK public-sector bodies publish
// under the Public Sector Bodies (Websites and Mobile Applications) (No. 2) Accessibility
// Regulations 2018. Its WCAG level, test date and screen widths come from
// lib/accessibility-statement.ts, the same facts the browser tests check against.
import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageMeta } from '@/lib/page/page-meta';
import { DEFAULT_SITE_NAME } from '@shared/domain.ts';
import { useUser } from '@/lib/auth/user';
import { useSiteSettings } from '@/lib/site-settings/get-settings';
import { formatDate } from '@/lib/format';
import { LAST_TESTED, STATEMENT_PREPARED, TESTED_WIDTHS, WCAG_STANDARD } from '@/lib/accessibility-statement';

export function AccessibilityRoute() {
  const { data: user, isPending } = useUser();
  const { data: settings } = useSiteSettings(isPending ? undefined : (user?.id ?? null));
  const siteName = settings?.siteName ?? DEFAULT_SITE_NAME;
  const contact = settings?.contactEmail ?? null;
  const standard = `WCAG ${WCAG_STANDARD.version} ${WCAG_STANDARD.level}`;
  const widths = TESTED_WIDTHS.map((w) => `${w} pixels`).join(' and ');

  return (
    <Stack gap="md" maw={760}>
      <PageMeta title="Accessibility statement" description="How accessible this learning platform is, its known issues, how to report a problem or ask for another format, and how it was tested." />
      <Title order={1}>Accessibility statement for {siteName}</Title>
      <Text>
        This accessibility statement applies to the {siteName} learning platform, including the course catalogue, courses
        and their modules and quizzes, the learner, instructor and administrator dashboards, and certificate verification.
      </Text>
      <Text>
        We want as many people as possible to be able to use this website. For example, that means you should be able to:
      </Text>
      <List>
        <List.Item>change colours, contrast levels and fonts using browser or device settings, or switch to the dark theme</List.Item>
        <List.Item>zoom in up to 400% without the text spilling off the screen</List.Item>
        <List.Item>navigate most of the website using just a keyboard, with a link to skip to the main content</List.Item>
        <List.Item>navigate most of the website using speech recognition software</List.Item>
        <List.Item>listen to most of the website using a screen reader</List.Item>
      </List>

      <Title order={2}>How accessible this website is</Title>
      <Text>We know some parts of this website are not fully accessible:</Text>
      <List>
        <List.Item>certificate and learning record PDF files are not tagged, so screen readers may not read them in a sensible order</List.Item>
        <List.Item>images that instructors add to modules have a general text alternative (the module title), not a description of the image</List.Item>
        <List.Item>course content written by instructors may not always use headings and plain English consistently</List.Item>
      </List>

      <Title order={2}>Feedback and contact information</Title>
      <Text>
        If you need information on this website in a different format, such as accessible PDF, large print, easy read,
        audio recording or braille, or you find a problem not listed on this page:
      </Text>
      <List>
        {contact ? (
          <List.Item>
            email <Anchor href={`mailto:${contact}`}>{contact}</Anchor>
          </List.Item>
        ) : null}
        <List.Item>contact your training administrator or the instructor of your course</List.Item>
      </List>
      <Text>
        Tell us the web address of the page, the problem and the format you need. We will consider your request and get back
        to you within 5 working days. Your certificate and learning record are also shown as web pages, and the learning
        record can be downloaded as a CSV file, while a PDF in another format is prepared.
      </Text>

      <Title order={2}>Enforcement procedure</Title>
      <Text>
        The Equality and Human Rights Commission (EHRC) is responsible for enforcing the Public Sector Bodies (Websites and
        Mobile Applications) (No. 2) Accessibility Regulations 2018 (the accessibility regulations). If you are not happy with
        how we respond to your complaint, contact the Equality Advisory and Support Service (EASS).
      </Text>
      <Text>
        If you are in Northern Ireland and are not happy with how we respond to your complaint, you can contact the Equality
        Commission for Northern Ireland (ECNI), who are responsible for enforcing the accessibility regulations in Northern
        Ireland.
      </Text>

      <Title order={2}>Technical information about this website’s accessibility</Title>
      <Text>
        We are committed to making our website accessible, in accordance with the Public Sector Bodies (Websites and Mobile
        Applications) (No. 2) Accessibility Regulations 2018.
      </Text>
      <Title order={3}>Compliance status</Title>
      <Text data-testid="compliance-status">
        This website is partially compliant with the Web Content Accessibility Guidelines version {WCAG_STANDARD.version}{' '}
        {WCAG_STANDARD.level} standard ({standard}), due to the non-compliances listed below.
      </Text>
      <Title order={3}>Non-accessible content</Title>
      <Text>
        The content listed below is non-accessible for the following reasons. PDF certificates and learning records are not
        tagged (WCAG success criterion 1.3.1 Info and Relationships); module images have a general text alternative rather
        than a description (1.1.1 Non-text Content). We plan to produce tagged PDFs and to let instructors describe each image.
      </Text>

      <Title order={2}>How we tested this website</Title>
      <Text data-testid="last-tested">
        This website was last tested on {formatDate(LAST_TESTED)}. The test was carried out by the development team as part
        of the automated test suite, which runs on every change.
      </Text>
      <Text>
        Every page in the browser tests is opened in Chromium and checked with axe-core against the {standard} rules, and
        with a computed contrast check of the text of every visible button, link, badge and tab. Pages are checked at
        screen widths of {widths}. The tests also use each journey with the keyboard.
      </Text>

      <Title order={2}>Preparation of this accessibility statement</Title>
      <Text>
        This statement was prepared on {formatDate(STATEMENT_PREPARED)}. It was last reviewed on {formatDate(LAST_TESTED)}.
      </Text>
      <Anchor component={Link} to="/">
        Return to home page
      </Anchor>
    </Stack>
  );
}
