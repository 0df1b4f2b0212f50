// Renders a component or the whole route table inside the app's providers: a fresh QueryClient
// (retry off), Mantine with the app theme, toasts and a memory router. `user` seeds the ['user']
// query (null = visitor, undefined = still loading), so no test needs a server.
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { User } from '@shared/domain.ts';
import { AppProvider } from '@/app/provider';
import { userKeys } from '@/lib/query-keys';
import { createQueryClient } from '@/lib/query-client';

export interface RenderOptions {
  /** Initial URL. */
  route?: string;
  /** The signed-in user; null for a visitor; 'loading' leaves the user query pending. */
  user?: User | null | 'loading';
  /** Routes to render instead of `ui` (e.g. the app's route table). */
  routes?: RouteObject[];
  /** Answers already in the cache (key, data): the component renders them without a request. */
  queryData?: ReadonlyArray<readonly [readonly unknown[], unknown]>;
}

export function renderWithProviders(ui: ReactElement | null, options: RenderOptions = {}) {
  const { route = '/', user = null, routes, queryData = [] } = options;
  const queryClient = createQueryClient();
  for (const [key, data] of queryData) queryClient.setQueryData(key, data);
  if (user === 'loading') {
    // A fetch that never settles keeps the user "loading" without a request: while it is in flight,
    // components asking for the user (with the app's own query function) wait for it.
    void queryClient.prefetchQuery({ queryKey: userKeys.current, queryFn: () => new Promise<never>(() => {}) });
  } else {
    queryClient.setQueryData(userKeys.current, user);
  }
  const router = createMemoryRouter(routes ?? [{ path: '*', element: ui }], { initialEntries: [route] });
  const result = render(
    <AppProvider queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, queryClient, user: userEvent.setup() };
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    username: 'jane',
    email: 'jane@example.org',
    name: 'Jane Smith',
    role: 'STUDENT',
    services: ['MISC'],
    language: 'en-GB',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
