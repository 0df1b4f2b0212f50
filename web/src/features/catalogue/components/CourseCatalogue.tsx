// The catalogue (/): 'All Services' and one filter per service (kept in the URL
// as ?service=), 'Available in Welsh' (?welsh=true, shown to every reader), a search box (?search=),
// the cards, featured first, and 'Load more'.
import { Alert, Button, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconSearch } from '@tabler/icons-react';
import { useDeferredValue, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { User } from '@shared/domain.ts';
import { isServiceCode, SERVICE_CODES } from '@shared/services.ts';
import { errorDescription } from '@/lib/api-client';
import { renderedWithAnswer, useHydrated } from '@/lib/hydrated';
import { labelOf } from '@/lib/i18n/labels';
import { catalogueFiltersOf, catalogueQueryOptions, useCatalogue } from '../api/get-courses';
import { CourseCard } from './CourseCard';

const SEARCH_DELAY_MS = 300;

export function emptyText(t: TFunction, service: string | null, welsh = false): string {
  if (welsh) {
    return service && isServiceCode(service)
      ? t('courseCatalogue.emptyServiceWelsh', { service: labelOf('service', service) })
      : t('courseCatalogue.emptyWelsh');
  }
  return service && isServiceCode(service)
    ? t('courseCatalogue.emptyService', { service: labelOf('service', service) })
    : t('courseCatalogue.empty');
}

export function CourseCatalogue({ user, publicEnroll }: { user: User | null; publicEnroll: boolean }) {
  const { t } = useTranslation('catalogue');
  const [params, setParams] = useSearchParams();
  const serviceParam = params.get('service');
  const service = isServiceCode(serviceParam) ? serviceParam : null;
  const search = params.get('search') ?? '';
  const [draft, setDraft] = useState(search);
  // The search box follows the URL when it changes (back, forward, a link): set while rendering, as
  // React advises for state that follows a prop, rather than in an effect after a first wrong render.
  const [draftOf, setDraftOf] = useState(search);
  if (draftOf !== search) {
    setDraftOf(search);
    setDraft(search);
  }

  // The URL follows the search box after a pause in typing.
  useEffect(() => {
    if (draft.trim() === search) return;
    const timer = setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (draft.trim()) next.set('search', draft.trim());
          else next.delete('search');
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, search, setParams]);

  function toggleWelsh() {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (next.get('welsh') === 'true') next.delete('welsh');
      else next.set('welsh', 'true');
      return next;
    });
  }

  function choose(code: string | null) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (code) next.set('service', code);
      else next.delete('service');
      return next;
    });
  }

  // The same filters the first page's prefetch and the page rendered on request use, so all find one answer.
  const filters = catalogueFiltersOf(params.toString());
  const welsh = filters.welsh === true;
  const query = useCatalogue(filters);
  // The cards render from a deferred copy of the answer: React renders them in slices, yielding to
  // the browser between them, instead of one long task when a page of courses arrives. Also on the
  // first render (the answer already in the cache, web/src/app/prefetch.ts): null first, the loader.
  // A home page rendered with its first cards (platform/page-render.mjs) starts from them, on the
  // server and while hydrating, so the cards in its HTML are kept.
  const hydrated = useHydrated();
  const startFrom = !hydrated && renderedWithAnswer(catalogueQueryOptions(filters).queryKey) ? (query.data ?? null) : null;
  const shown = useDeferredValue(query.data, startFrom);
  const courses = shown?.pages.flatMap((page) => page.items) ?? [];
  const total = shown?.pages[0]?.total ?? 0;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="md">
        <Group gap="md" align="flex-end">
          <Group gap="xs" role="group" aria-label={t('courseCatalogue.filterByService')}>
            {/* Rendered on request (platform/page-render.mjs), the controls do nothing until the app owns
                them (lib/hydrated.ts), and say so; the search box takes no keys until then. */}
            <Button variant={service ? 'default' : 'filled'} size="xs" aria-pressed={!service} aria-disabled={hydrated ? undefined : true} onClick={() => choose(null)}>
              {t('courseCatalogue.allServices')}
            </Button>
            {SERVICE_CODES.map((code) => (
              <Button
                key={code}
                size="xs"
                variant={service === code ? 'filled' : 'default'}
                aria-pressed={service === code}
                aria-disabled={hydrated ? undefined : true}
                title={labelOf('service', code)}
                onClick={() => choose(code)}
              >
                {code}
              </Button>
            ))}
          </Group>
          {/* A toggle like the service filters: in the HTML rendered on request it does nothing until the app owns it. */}
          <Button
            size="xs"
            variant={welsh ? 'filled' : 'default'}
            aria-pressed={welsh}
            aria-disabled={hydrated ? undefined : true}
            leftSection={welsh ? <IconCheck size={14} aria-hidden="true" /> : null}
            onClick={toggleWelsh}
            data-welsh-filter
          >
            {t('courseCatalogue.availableInWelsh')}
          </Button>
        </Group>
        <TextInput
          label={t('courseCatalogue.searchLabel')}
          placeholder={t('courseCatalogue.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          type="search"
          readOnly={!hydrated}
          w={{ base: '100%', sm: 280 }}
        />
      </Group>

      {query.isPending || (query.isSuccess && !shown) ? (
        // A screen's height, so the footer does not move when the cards arrive.
        <Group justify="center" align="flex-start" py="xl" mih="100vh" role="status">
          <Loader aria-label={t('courseCatalogue.loading')} />
        </Group>
      ) : query.isError ? (
        <Alert color="red" title={t('courseCatalogue.loadFailed')}>
          {errorDescription(query.error, t('courseCatalogue.tryAgain'))}
        </Alert>
      ) : courses.length === 0 ? (
        <Stack align="center" gap="xs" py="xl">
          <Title order={3}>{t('courseCatalogue.noCoursesFound')}</Title>
          <Text c="dimmed">{search ? t('courseCatalogue.noMatch', { search }) : emptyText(t, service, welsh)}</Text>
        </Stack>
      ) : (
        <>
          {/* A visitor's cards, rendered on request, wait unseen for the person's where a session is stored (AppLayout.module.css). */}
          <Text size="sm" c="dimmed" aria-live="polite" data-guest-view={user ? undefined : ''}>
            {t('courseCatalogue.showing', { shown: courses.length, count: total })}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-guest-view={user ? undefined : ''}>
            {courses.map((course) => (
              <CourseCard key={course.id} course={course} user={user} publicEnroll={publicEnroll} live={hydrated} />
            ))}
          </SimpleGrid>
          {query.hasNextPage ? (
            <Group justify="center">
              <Button variant="default" onClick={() => query.fetchNextPage()} loading={query.isFetchingNextPage} aria-disabled={hydrated ? undefined : true}>
                {t('courseCatalogue.loadMore')}
              </Button>
            </Group>
          ) : null}
        </>
      )}
    </Stack>
  );
}
