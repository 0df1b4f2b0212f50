/** A `redirect` search parameter is followed only when it is a path on this site. */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  if (target.startsWith('/auth')) return fallback;
  return target;
}
