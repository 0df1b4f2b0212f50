import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { MarkdownContent, isSafeUrl, renderMarkdown } from './MarkdownContent';
import { ServiceBadge, readableTextOn } from './ServiceBadge';

describe('MarkdownContent', () => {
  it('renders headings, emphasis and lists', () => {
    renderWithProviders(<MarkdownContent source={'# Title\n\nSome **bold** text.\n\n- one\n- two'} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Title' })).toBeInTheDocument();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('moves headings down under a page title', () => {
    expect(renderMarkdown('# Title\n\n###### Deep', 1)).toMatch(/<h2[^>]*>Title<\/h2>[\s\S]*<h6[^>]*>Deep<\/h6>/);
  });

  it('escapes raw HTML instead of running it', () => {
    const html = renderMarkdown('Hello <script>alert(1)</script> <img src=x onerror="alert(2)">');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
    renderWithProviders(<MarkdownContent source={'<b onclick="x()">bold?</b>'} />);
    expect(document.querySelector('[data-markdown] b')).toBeNull();
    expect(screen.getByText(/<b onclick/)).toBeInTheDocument();
  });

  it('drops javascript: and data: links', () => {
    expect(renderMarkdown('[x](javascript:alert(1))')).toContain('href="#"');
    expect(renderMarkdown('![x](data:text/html;base64,AAAA)')).toContain('src="#"');
    expect(renderMarkdown('[gov](https://www.gov.uk/)')).toContain('href="https://www.gov.uk/"');
    expect(isSafeUrl('/relative/path')).toBe(true);
    expect(isSafeUrl('//evil.example')).toBe(false);
  });

  it('decodes character references and ignores control characters before judging an address', () => {
    for (const url of ['&#106;avascript:alert(1)', 'javascript&colon;alert(1)', 'java&#x09;script:alert(1)', 'java\tscript:alert(1)',
      '\u0001javascript:alert(1)', ' JaVaScRiPt:alert(1)', '&#x64;ata:text/html,x', '/\\evil.example', '\\\\evil.example']) {
      expect(isSafeUrl(url), url).toBe(false);
    }
    expect(renderMarkdown('[x](&#106;avascript:alert(1))')).toContain('href="#"');
    expect(renderMarkdown('[r][e]\n\n[e]: javascript&colon;alert(1)')).toContain('href="#"');
    for (const url of ['https://www.gov.uk/a?b=1&amp;c=2', 'mailto:help@example.uk', '/certificates', '#top', 'page?x=1:2']) {
      expect(isSafeUrl(url), url).toBe(true);
    }
  });
});

describe('ServiceBadge', () => {
  it('shows the code with the full name for screen readers', () => {
    renderWithProviders(<ServiceBadge code="UKAS" />);
    expect(screen.getByText('UKAS')).toBeInTheDocument();
    expect(screen.getByText('(United Kingdom Ambulance Service)', { exact: false })).toBeInTheDocument();
  });

  it('falls back to grey for an unknown service', () => {
    renderWithProviders(<ServiceBadge code="XYZ" />);
    expect(screen.getByText('XYZ').closest('[data-service]')).toHaveAttribute('data-service', 'XYZ');
  });

  it('picks the text colour with at least 4.5:1 contrast', () => {
    expect(readableTextOn('#f76707')).toBe('#000');
    expect(readableTextOn('#1864ab')).toBe('#fff');
  });
});
