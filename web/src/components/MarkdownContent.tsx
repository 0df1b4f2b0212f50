// Module text is markdown written by instructors. Rendered with `marked`, but any raw HTML in it is
// escaped (shown as text, never parsed) and link/image addresses other than http(s), mailto and
// relative ones are dropped, so an author cannot inject script into a learner's page.
import '@mantine/core/styles/Typography.css';
import { useMemo } from 'react';
import { Typography } from '@mantine/core';
import { Marked, type Tokens } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * The address as the browser will read it from the attribute: character references decoded
 * (`&#106;avascript:` and `javascript&colon;` are javascript:), in an inert textarea.
 */
function decodeCharacterReferences(value: string): string | null {
  if (!value.includes('&')) return value;
  if (typeof document === 'undefined') return null; // no DOM to decode with: not trusted
  const area = document.createElement('textarea');
  area.innerHTML = value;
  return area.value;
}

/** True for addresses safe to put in href/src. */
export function isSafeUrl(url: string): boolean {
  // Browsers ignore tabs and newlines inside a URL and leading spaces or control characters.
  const decoded = decodeCharacterReferences(url);
  if (decoded === null) return false;
  // eslint-disable-next-line no-control-regex -- removing control characters is the point here
  const value = decoded.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (/^(https?:|mailto:)/i.test(value)) return true;
  // Relative paths and fragments; anything with a scheme (javascript:, data:, vbscript:) is refused,
  // and so are protocol-relative addresses (// or a backslash, which browsers read as /).
  return !/^[a-z][a-z0-9+.-]*:/i.test(value) && !/^[\\/]{2}/.test(value);
}

function createMarked(headingOffset: number) {
  return new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text);
    },
  },
  walkTokens(token) {
    if ((token.type === 'link' || token.type === 'image') && !isSafeUrl(token.href)) {
      token.href = '#';
    }
    // Under a page's own h1, the text's headings move down a level to keep one outline.
    if (token.type === 'heading') token.depth = Math.min(6, token.depth + headingOffset);
  },
  });
}

const instances = new Map<number, Marked>();

/** headingOffset: how many levels to push the text's headings down (1 turns # into h2). */
export function renderMarkdown(source: string, headingOffset = 0): string {
  let instance = instances.get(headingOffset);
  if (!instance) {
    instance = createMarked(headingOffset);
    instances.set(headingOffset, instance);
  }
  return instance.parse(source, { async: false }) as string;
}

/** lang: the text's language where it may differ from the page's (English shown to a Welsh reader). */
export function MarkdownContent({ source, headingOffset = 0, lang }: { source: string; headingOffset?: number; lang?: string }) {
  const html = useMemo(() => renderMarkdown(source, headingOffset), [source, headingOffset]);
  return (
    <Typography>
      {/* Safe: raw HTML in the source is escaped above, and URLs are filtered. */}
      <div data-markdown lang={lang} dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
