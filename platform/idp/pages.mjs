// What the local identity providers' pages share (platform/idp/oidc.mjs, saml.mjs): the page with the
// provider's name at the top, how it is sent, the form reader and the constant-time password check.
import { createHash, timingSafeEqual } from 'node:crypto';

/** @param {string} text */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Equal strings, compared in constant time (a password check that does not leak by timing). */
export function sameSecret(/** @type {string} */ a, /** @type {string} */ b) {
  const digest = (/** @type {string} */ s) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * A urlencoded form body, at most `limit` characters.
 * @param {import('node:http').IncomingMessage} req @param {number} [limit]
 */
export async function readForm(req, limit = 8192) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > limit) throw Object.assign(new Error('Form too large'), { statusCode: 413 });
  }
  return new URLSearchParams(body);
}

/**
 * The sign-in form's fields, labelled, with the problem (if any) tied to the name field.
 * @param {string} username @param {string} problem
 */
export function credentialFields(username, problem) {
  return `<label for="username">Email or username</label>
        <input id="username" name="username" type="text" autocomplete="username" required autofocus
          value="${escapeHtml(username)}"${problem ? ' aria-describedby="problem" aria-invalid="true"' : ''}>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <button type="submit">Sign in</button>`;
}

/**
 * @param {import('node:http').ServerResponse} res @param {number} status @param {string} html
 * @param {string[]} [formTargets] origins a form may lead to besides the IdP's own: browsers apply
 *   form-action to the redirects that follow a submission too (the sign-in ends at the application)
 */
export function send(res, status, html, formTargets = []) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${["'self'", ...formTargets].join(' ')}; frame-ancestors 'none'`,
  });
  res.end(html);
}

/** A page of the IdP: its name at the top, so a person sees whom they are signing in with. */
export function page(name, title, body) {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – ${escapeHtml(name)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f3f4f6; color: #111827; margin: 0; }
  main { max-width: 24rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 0.5rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.2); }
  .idp { font-weight: 700; color: #1e3a8a; margin: 0 0 1rem; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input { display: block; width: 100%; box-sizing: border-box; padding: 0.5rem; margin-top: 0.25rem; font-size: 1rem; border: 1px solid #6b7280; border-radius: 0.25rem; }
  button { margin-top: 1.25rem; width: 100%; padding: 0.6rem; font-size: 1rem; border-radius: 0.25rem; border: 0; background: #1e3a8a; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #1e3a8a; border: 1px solid #1e3a8a; margin-top: 0.5rem; }
  button:focus-visible, input:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  .problem { color: #991b1b; font-weight: 600; }
  .note { font-size: 0.85rem; color: #4b5563; margin-top: 1.5rem; }
</style>
</head>
<body>
<main>
<p class="idp">${escapeHtml(name)}</p>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}
