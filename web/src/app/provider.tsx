// Everything the app runs inside: TanStack Query, Mantine (theme, colour scheme), toasts.
import { lazy, Suspense, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { localStorageColorSchemeManager, MantineProvider, useComputedColorScheme } from '@mantine/core';
import { areToastsWanted, subscribeToToasts } from '@/lib/notify';
import { cssVariablesResolver, theme } from '@/lib/theme';

// The toast container comes with the first toast, not with the first page.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

function Toasts() {
  const wanted = useSyncExternalStore(subscribeToToasts, areToastsWanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      {/* Bottom right: clear of the header's bell and menu, which people reach for right after signing in. */}
      <Notifications limit={1} position="bottom-right" containerWidth={420} />
    </Suspense>
  );
}

const colorSchemeManager = localStorageColorSchemeManager({ key: 'mantine-color-scheme-value' });

/** Mirrors the computed scheme as a class on <html> (`light` or `dark`), so plain CSS can follow it too. */
function ColorSchemeClass() {
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  useEffect(() => {
    const root = document.documentElement;
    root.classList.remove(computed === 'dark' ? 'light' : 'dark');
    root.classList.add(computed);
  }, [computed]);
  return null;
}

export interface AppProviderProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off Mantine transitions and dropdown hiding, which jsdom cannot measure. */
  env?: 'default' | 'test';
}

export function AppProvider({ queryClient, children, env = 'default' }: AppProviderProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        colorSchemeManager={colorSchemeManager}
        defaultColorScheme="auto"
        env={env}
      >
        <ColorSchemeClass />
        <Toasts />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
