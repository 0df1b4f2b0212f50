// Moves the focus to the element of a data-focus-id once it is on the page: after a dialog closes
// and the list it belongs to has been fetched again, the focus goes to the thing acted on.
import { useCallback, useEffect, useRef } from 'react';

/** Returns request(id): looks for [data-focus-id=id] after this render, then every 50 ms until it is
 * there (a dialog still closing, a list still arriving); a newer request replaces an older one. */
export function useFocusRequest(): (id: string) => void {
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback((id: string) => {
    window.clearTimeout(timer.current);
    const look = () => {
      // By data-focus-id: a menu's target button carries the id Mantine gives it.
      const element = document.querySelector<HTMLElement>(`[data-focus-id="${id}"]`);
      if (element) element.focus();
      else timer.current = window.setTimeout(look, 50);
    };
    timer.current = window.setTimeout(look, 0);
  }, []);
}
