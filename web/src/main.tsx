import '@/app/mantine-styles';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from '@/app/provider';
import { prefetchFirstPage } from '@/app/prefetch';
import { router } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';
import { configureZod } from '@/lib/zod-config';

// zod would probe `new Function` to compile faster parsers; the Content-Security-Policy allows no
// eval, so the probe would be reported as a violation. Validate without it (set without importing
// zod, which only the forms' chunks need).
configureZod();

const queryClient = createQueryClient();
prefetchFirstPage(queryClient);

// The first render as a transition: React renders it in slices and yields to the browser between
// them, instead of one long task that blocks input while the page starts (docs/PERFORMANCE.md).
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
});
