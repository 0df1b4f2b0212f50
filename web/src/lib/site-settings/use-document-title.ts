// Keeps the browser tab's title equal to the configured site name (settings take effect at once).
import { useEffect } from 'react';

export function useDocumentTitle(siteName: string | undefined) {
  useEffect(() => {
    if (siteName) document.title = siteName;
  }, [siteName]);
}
