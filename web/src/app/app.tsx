// The app's tree, the same in the browser (web/src/main.tsx) and in the build-time render
// (web/src/prerender.tsx), so the browser can hydrate what was prerendered.
import { StrictMode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from '@/app/provider';
import { PrerenderHandover } from '@/app/prerender-handover';

export function App({ queryClient, router }: { queryClient: QueryClient; router: DataRouter }) {
  return (
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <PrerenderHandover>
          <RouterProvider router={router} />
        </PrerenderHandover>
      </AppProvider>
    </StrictMode>
  );
}
