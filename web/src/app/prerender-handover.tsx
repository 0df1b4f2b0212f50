// The handover from a page prerendered at build time (web/prerender.mjs) to the app. The app hydrates
// the prerendered markup when it is the page asked for, as a visitor (the state it was rendered in):
// React keeps the DOM and only attaches to it. Otherwise (the home page answering for another path,
// a stored session) the app renders anew, replacing the markup in one commit. Either way, what a
// visitor typed into the prerendered form fields meanwhile, and the field they were in, carry over.
import { useEffect, useLayoutEffect, type ReactNode } from 'react';
import type { DataRouter } from 'react-router';
import type { QueryClient, QueryKey } from '@tanstack/react-query';

type AppRouter = Pick<DataRouter, 'state' | 'subscribe'>;

/** Resolves once the router has loaded the code of the first page's routes. */
export function whenRouterReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * The page in #root can be hydrated: it is the page of this path (web/theme-init.js marks the home
 * page answering for another one) and it was rendered for a visitor, as the app will render it.
 */
export function canHydrate(container: HTMLElement): boolean {
  const html = document.documentElement;
  return container.firstElementChild !== null && html.hasAttribute('data-prerendered') && !html.hasAttribute('data-other-page') && !html.hasAttribute('data-session');
}

/**
 * The API's answers a page rendered on request was rendered with (web/prerender.mjs writes them
 * as JSON beside #root): put in the cache, so the app's first render is that page.
 */
export function seedFromPage(queryClient: QueryClient) {
  const text = document.getElementById('page-data')?.textContent;
  if (!text) return;
  try {
    for (const [key, value] of JSON.parse(text) as [QueryKey, unknown][]) queryClient.setQueryData(key, value);
  } catch {
    // Unreadable: the app asks the API, as on any other page.
  }
}

export interface TypedInShell {
  /** The value of each text field of the prerendered page, in document order. */
  values: string[];
  /** The index of the field that had the focus, or -1. */
  focused: number;
}

const FIELDS = 'input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea';

export function typedInShell(container: HTMLElement): TypedInShell {
  const fields = [...container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(FIELDS)];
  return { values: fields.map((field) => field.value), focused: fields.findIndex((field) => field === document.activeElement) };
}

function setNativeValue(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  // React tracks the value it set; the prototype's setter and an input event make it see the change.
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Renders its child; on the app's first commit clears the prerendered page's marks on <html> and
 * restores what was typed. One child, no sibling: the tree (and so React's ids) stays the
 * prerendered one.
 */
export function PrerenderHandover({ typed, children }: { typed: TypedInShell | null; children: ReactNode }) {
  useLayoutEffect(() => {
    const html = document.documentElement;
    html.removeAttribute('data-other-page');
    html.removeAttribute('data-session');
    html.removeAttribute('data-prerendered');
  }, []);
  useEffect(() => {
    const shell = typed;
    if (!shell || (!shell.values.some(Boolean) && shell.focused < 0)) return;
    // The page under the layout's Suspense boundary hydrates in a commit of its own, after this one:
    // wait until React owns each field. A field React hydrated keeps what was typed (its form takes
    // it, lib/prerendered-form.ts); one it rendered anew (no hydration, or a part that differed from
    // the markup) is empty and gets the value typed before the app started.
    let frames = 0;
    let frame = 0;
    const restore = () => {
      const fields = [...document.getElementById('root')!.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(FIELDS)];
      const owned = fields.length > 0 && fields.every((field) => Object.keys(field).some((key) => key.startsWith('__reactProps$')));
      if (!owned && ++frames < 300) {
        frame = requestAnimationFrame(restore);
        return;
      }
      shell.values.forEach((value, index) => {
        const field = fields[index];
        if (value && field && !field.value) setNativeValue(field, value);
      });
      if (shell.focused >= 0 && document.activeElement !== fields[shell.focused]) fields[shell.focused]?.focus();
    };
    restore();
    return () => cancelAnimationFrame(frame);
  }, [typed]);
  return children;
}
