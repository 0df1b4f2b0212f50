// Whether the app owns the page's DOM. A page prerendered to HTML (web/prerender.mjs) is on screen
// before the app has started, and React hydrates it later: until then its controls do nothing, and
// what a person typed into a field would not be in the form's state. Controls that must not be used
// before the app owns them (the sign-in form, the /auth tabs, a course's main button) render
// read-only or disabled while this is false: in the prerendered HTML and during hydration. Right
// after hydrating, React renders them again, live, in a transition: in slices, yielding to the
// browser, where an external store's change would re-render the whole catalogue in one long task.
// A page the app renders itself (createRoot, the unit tests) is live from its first render.
import { startTransition, useEffect, useState } from 'react';
import { hashKey, type QueryKey } from '@tanstack/react-query';

// Set by app/start.tsx before it hydrates; the first of these hooks' effects, which run once the
// hydration has committed, clears it.
let hydrating = false;

export function startHydrating() {
  hydrating = true;
}

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(() => typeof document !== 'undefined' && !hydrating);
  useEffect(() => {
    hydrating = false;
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}

/** The keys of the answers the page being hydrated was rendered with (app/prerender-handover.tsx). */
const renderedWith = new Set<string>();

export function pageRenderedWith(keys: QueryKey[]) {
  for (const key of keys) renderedWith.add(hashKey(key));
}

/**
 * Whether the page was rendered with this answer: on the server (which renders only with the
 * answers it was given), and in the browser for the answers the hydrated page came with. A
 * component that would first render without an answer (a deferred copy of it) renders with it
 * instead while hydrating such a page, as the server did.
 */
export function renderedWithAnswer(key: QueryKey): boolean {
  return typeof document === 'undefined' || renderedWith.has(hashKey(key));
}
