// One mechanism for every page's document title and meta description. A page renders
// <PageMeta title="Course title" description="..." />; the tab then reads
// "Course title · <site name>", the site name being the one in the site settings (AppLayout
// provides it, without its version suffix) or the product name until they load. The home page
// passes no title and gets the site name alone. index.html holds the same elements for the first
// paint and for clients without JavaScript; this updates them in place, so there is only ever one.
import { createContext, useContext, useEffect } from 'react';
import { PRODUCT_NAME } from '@shared/domain.ts';

export const TITLE_SEPARATOR = ' · ';
const DESCRIPTION_LIMIT = 160;

/** The site name used in titles; AppLayout provides the configured one. */
export const SiteNameContext = createContext<string>(PRODUCT_NAME);

export function documentTitle(title: string | null | undefined, siteName: string): string {
  const page = title?.trim();
  return page ? `${page}${TITLE_SEPARATOR}${siteName}` : siteName;
}

/** Plain text of at most 160 characters, cut at a word with an ellipsis (search results show ~155). */
export function metaDescription(text: string): string {
  const plain = text.replace(/[#*_`>[\]]/g, '').replace(/\s+/g, ' ').trim();
  if (plain.length <= DESCRIPTION_LIMIT) return plain;
  const cut = plain.slice(0, DESCRIPTION_LIMIT - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 80 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/**
 * Where a page's title and description go when it is rendered to HTML at build time (web/prerender.mjs):
 * effects do not run there, so the page reports them while it renders.
 */
export const PageMetaSink = createContext<((title: string, description: string) => void) | null>(null);

export function usePageMeta(title: string | null | undefined, description: string) {
  const siteName = useContext(SiteNameContext);
  const fullTitle = documentTitle(title, siteName);
  const content = metaDescription(description);
  useContext(PageMetaSink)?.(fullTitle, content);
  useEffect(() => {
    document.title = fullTitle;
  }, [fullTitle]);
  useEffect(() => {
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = content;
  }, [content]);
}

/** Sets the page's title and description; renders nothing. */
export function PageMeta({ title, description }: { title?: string | null; description: string }) {
  usePageMeta(title, description);
  return null;
}
