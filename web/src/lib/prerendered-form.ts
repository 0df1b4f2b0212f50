// A form that may be in a page prerendered to HTML (web/prerender.mjs) before the app has started.
// A visitor can type into it, and submit it, before React owns it:
// - hydrating, React keeps what is in a field but reports no change, so the form's state lacks it;
//   and where the app renders the form anew rather than hydrate it (a part of the page that changed
//   while it hydrated), the fields start empty. web/theme-init.js notes each field's value as it is
//   typed (window.__earlyForms, by the form's aria-label and the field's name); on its first commit
//   the form takes the fields' values, or the noted ones where a field is empty;
// - a submit is stopped by web/theme-init.js while the form carries data-hydrating (the browser would
//   otherwise send the fields, password included, in a GET to the page's URL) and noted; the form
//   submits itself once it holds the typed values.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { UseFormReturnType } from '@mantine/form';

interface EarlyForm {
  values: Record<string, string>;
  submitted: boolean;
}

declare global {
  interface Window {
    __earlyForms?: Record<string, EarlyForm>;
  }
}

export function usePrerenderedForm<Values extends Record<string, unknown>>(form: UseFormReturnType<Values>) {
  const ref = useRef<HTMLFormElement>(null);
  const [live, setLive] = useState(false);
  const [queued, setQueued] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const label = element.getAttribute('aria-label') ?? '';
    const early = window.__earlyForms?.[label];
    // Read once: the password is not kept in memory longer than needed.
    if (early) delete window.__earlyForms![label];
    const values = form.getValues();
    const typed: Record<string, string> = { ...early?.values };
    for (const field of element.querySelectorAll<HTMLInputElement>('input[name]')) {
      if (field.value) typed[field.name] = field.value;
    }
    for (const [name, value] of Object.entries(typed)) {
      if (name in values && value && value !== values[name]) form.setFieldValue(name as never, value as never);
    }
    if (early?.submitted) setQueued(true);
    setLive(true);
    // Once, when the form first commits: later values are React's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (!queued) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setQueued(false);
    ref.current?.requestSubmit();
  }, [queued]);
  // method="post": were the app never to start, a submit would not put the fields in the URL.
  return { ref, method: 'post', 'data-hydrating': live ? undefined : '' } as const;
}
