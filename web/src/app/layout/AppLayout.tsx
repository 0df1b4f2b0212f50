// The page frame: skip link, sticky header (burger on small screens, product
// title with version badge, account area), sidebar navigation, main content and footer.
import { AppShell, Anchor, Badge, Box, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, Outlet, useNavigation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEFAULT_SITE_NAME } from '@shared/domain.ts';
import { useUser } from '@/lib/auth/user';
import { useAuthListener } from '@/lib/auth/use-auth-listener';
import { useSiteSettings } from '@/lib/site-settings/get-settings';
import { SiteNameContext } from '@/lib/page/page-meta';
import { useFocusHeadingOnNavigate } from '@/lib/page/focus-heading';
import { splitSiteName } from '@/lib/site-settings/site-title';
import { PageSpinner } from '@/components/PageSpinner';
import { Sidebar } from './Sidebar';
import { LanguageSwitch } from './LanguageSwitch';
import { ThemeToggle } from './ThemeToggle';
import { UserMenu } from './UserMenu';
import { UpdatePrompt } from './UpdatePrompt';
import classes from './AppLayout.module.css';

// The bell is for signed-in people only: a visitor's first page does not load its code.
const NotificationBell = lazy(() =>
  import('@/features/notifications/components/NotificationBell').then((m) => ({ default: m.NotificationBell })));
// So are the required-training notice (with its list's query), the offline banner and the replay
// of the offline queue.
const RequiredTrainingNotice = lazy(() =>
  import('@/features/required-training/components/RequiredTrainingNotice').then((m) => ({ default: m.RequiredTrainingNotice })));
const OfflineStatus = lazy(() => import('./OfflineStatus').then((m) => ({ default: m.OfflineStatus })));

/**
 * The site's settings (name, footer, contact) as the header, the footer and the pages' titles show
 * them. Each reader is a small component of its own: the settings arrive after the page has
 * started, and their answer then renders these few parts, not the whole frame.
 */
function useSiteTitle() {
  const { data: user, isPending: userPending } = useUser();
  const { data: settings } = useSiteSettings(userPending ? undefined : (user?.id ?? null));
  return { settings, title: splitSiteName(settings?.siteName ?? DEFAULT_SITE_NAME) };
}

function SiteTitle() {
  const { title } = useSiteTitle();
  return (
    <Group gap={8} wrap="nowrap">
      <Text component="span" fw={700} size="lg" lineClamp={1} data-testid="site-name" className={classes.titleText}>
        {title.name}
      </Text>
      {title.version ? (
        <Badge variant="filled" color="blue" size="sm" tt="none" style={{ flexShrink: 0 }} visibleFrom="xs">
          {title.version}
        </Badge>
      ) : null}
    </Group>
  );
}

function SiteName({ children }: { children: ReactNode }) {
  const { title } = useSiteTitle();
  return <SiteNameContext.Provider value={title.name}>{children}</SiteNameContext.Provider>;
}

function SiteFooter() {
  const { t } = useTranslation();
  const { settings } = useSiteTitle();
  return (
    <Box component="footer" className={classes.footer}>
      <Text size="sm" c="dimmed" data-testid="footer-text">
        {settings ? settings.footerText : `© ${new Date().getFullYear()} ${DEFAULT_SITE_NAME}.`}
      </Text>
      {/* Side by side, well apart: stacked, two links of one line each were too close to touch (WCAG 2.5.8). */}
      <Group gap="xl" justify="center">
        <Anchor component={Link} to="/accessibility" size="sm" className={classes.footerLink}>
          {t('layout.accessibility')}
        </Anchor>
        <Anchor component={Link} to="/help" size="sm" className={classes.footerLink}>
          {t('layout.help')}
        </Anchor>
        <Anchor component={Link} to="/verify-credential" size="sm" className={classes.footerLink}>
          {t('layout.verifyCredential')}
        </Anchor>
      </Group>
      {settings?.contactEmail ? (
        <Text size="sm" c="dimmed">
          {t('layout.contact')} <Anchor href={`mailto:${settings.contactEmail}`} size="sm">{settings.contactEmail}</Anchor>
        </Text>
      ) : null}
    </Box>
  );
}

/**
 * pageLoading: the first page's own code is still on its way (the router's hydrate fallback). The
 * header, navigation and footer show at once, so the visitor sees the service while it arrives.
 */
export function AppLayout({ pageLoading = false }: { pageLoading?: boolean }) {
  const { t } = useTranslation();
  useAuthListener();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { data: user } = useUser();
  const navigation = useNavigation();
  useFocusHeadingOnNavigate('main-content');

  return (
    <>
      <a href="#main-content" className={classes.skipLink}>
        {t('layout.skipLink')}
      </a>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 256, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header className={classes.header}>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={opened ? t('layout.closeNavigation') : t('layout.openNavigation')}
                aria-expanded={opened}
                aria-controls="app-navigation"
              />
              <Anchor component={Link} to="/" underline="never" c="var(--mantine-color-text)" className={classes.title}>
                <SiteTitle />
              </Anchor>
            </Group>
            <Group gap="sm" wrap="nowrap">
              {user ? (
                <>
                  {/* Shown only when something is due, so nothing in its place while its code loads. */}
                  <Suspense fallback={null}>
                    <RequiredTrainingNotice userId={user.id} />
                  </Suspense>
                  {/* The bell's size while its code loads, so the header does not move. */}
                  <Suspense fallback={<Box w={34} h={34} />}>
                    <NotificationBell userId={user.id} />
                  </Suspense>
                </>
              ) : null}
              <LanguageSwitch />
              {/* On a phone the colour scheme is in the navigation, leaving the header its room. */}
              <Box visibleFrom="xs">
                <ThemeToggle />
              </Box>
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar id="app-navigation" aria-label={t('layout.mainNavigation')}>
          <Sidebar user={user} onNavigate={close} />
          <Box hiddenFrom="xs" px="md" pb="md">
            <ThemeToggle />
          </Box>
        </AppShell.Navbar>

        <AppShell.Main id="main-content" tabIndex={-1} className={classes.main}>
          <Box className={classes.content} aria-busy={navigation.state === 'loading'}>
            {user ? (
              <Suspense fallback={null}>
                <OfflineStatus personId={user.id} />
              </Suspense>
            ) : null}
            <SiteName>
              {pageLoading ? (
                // A screen's height, so the footer stays below the fold and does not jump when the page arrives.
                <Box mih="100vh">
                  <PageSpinner />
                </Box>
              ) : (
                <Suspense fallback={<PageSpinner />}>
                  <Outlet />
                </Suspense>
              )}
            </SiteName>
          </Box>
          <SiteFooter />
        </AppShell.Main>
      </AppShell>
      <UpdatePrompt />
    </>
  );
}
