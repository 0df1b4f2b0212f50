// A browser as far as an identity provider's sign-in needs one: fetch with a cookie jar, redirects
// not followed (each hop is the caller's to take, and to time). The platform's sign-in tests and
// the sign-in benchmark drive the local providers' forms with it.

export function newCookieBrowser() {
  const jar = new Map();
  return {
    /** @param {string} url @param {RequestInit} [init] */
    async go(url, init = {}) {
      const headers = new Headers(init.headers);
      if (jar.size) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
      const response = await fetch(url, { ...init, headers, redirect: 'manual' });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (!value || /expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(name);
        else jar.set(name, value);
      }
      return response;
    },
  };
}

export const isRedirect = (/** @type {Response} */ r) => r.status >= 300 && r.status < 400;
export const nextUrl = (/** @type {Response} */ r, /** @type {string} */ from) => new URL(/** @type {string} */ (r.headers.get('location')), from).href;
