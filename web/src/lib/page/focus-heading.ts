// After a client-side route change (never the first load) focus moves to the new page's main
// heading, so a screen-reader or keyboard user starts on the new page rather than on the link they
// followed or at the top of the document. The h1 gets tabIndex -1 (focusable from
// script, not in the tab order). The page is watched until its h1 appears (however slow the
// network: until the next navigation), then for ten seconds for an h1 the page replaces (a loading
// state giving way to the loaded page) while focus has fallen to the body; if the person or the
// page moves focus elsewhere, focus is left there.
// Only the path counts: a change of query string (filters, tabs, search) keeps focus where it is.
import { useEffect } from 'react';
import { useLocation } from 'react-router';

const WAIT_MS = 10_000;

export function useFocusHeadingOnNavigate(containerId: string) {
  const { pathname, key } = useLocation();
  // The document's first location (React Router's key "default"), whichever instance of the layout
  // shows it: the layout that stands in while the first page's code loads gives way to another,
  // and a link followed in between is still a navigation.
  const firstPage = key === 'default';

  useEffect(() => {
    if (firstPage) return;
    const container = document.getElementById(containerId);
    if (!container) return;
    const focusAtNavigation = document.activeElement;
    let focused: HTMLHeadingElement | null = null;
    let done = false;
    const observer = new MutationObserver(() => attempt());
    let timer: number | undefined;
    function finish() {
      done = true;
      observer.disconnect();
      if (timer !== undefined) window.clearTimeout(timer);
    }
    function attempt() {
      if (done) return;
      const active = document.activeElement;
      if (focused) {
        // The heading focused is still there: focus is wherever it (or the person) is now.
        if (focused.isConnected) return;
        // The page replaced it (a loading state giving way to the loaded page) and focus fell to
        // the body: the new page's heading takes it again; focus put elsewhere stays there.
        if (active && active !== document.body) return finish();
      } else if (active && active !== focusAtNavigation && active !== document.body && active.isConnected) {
        return finish();
      }
      const heading = container!.querySelector<HTMLHeadingElement>('h1');
      if (!heading) return;
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      heading.focus();
      // A page replaces its heading soon after, if at all: watched for ten seconds from here.
      if (!focused) timer = window.setTimeout(() => finish(), WAIT_MS);
      focused = heading;
    }
    attempt();
    observer.observe(container, { childList: true, subtree: true });
    return finish;
  }, [pathname, containerId, firstPage]);
}
