// Whether the app owns the page's DOM. A page prerendered to HTML (web/prerender.mjs) is on screen
// before the app has started, and React hydrates it later: until then its controls do nothing, and
// what a person typed into a field would not be in the form's state. Controls that must not be used
// before the app owns them (the sign-in form, the /auth tabs, a course's main button) render
// read-only or disabled while this is false: in the prerendered HTML and during hydration. React
// renders them again, live, right after hydrating; a page the app renders itself (createRoot, the
// unit tests) is live from its first render.
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
