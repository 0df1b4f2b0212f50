// The API and sign-in steps the browser tests share: set-up and checks go straight to the api
// function; what the test is about goes through the screens.
import type { Page } from 'playwright-core';
import { baseUrl } from './browser';

export const apiUrl = `${baseUrl}/functions/v1/api`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function apiCall<T = any>(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: T; text: string }> {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as T, text };
}

/** A test's course gone from the catalogue afterwards: deleted, or archived once learners have
 * records in it (a course with learner history is never deleted). */
export async function removeCourse(courseId: string, token: string): Promise<number> {
  const deleted = await apiCall('DELETE', `/courses/${courseId}`, token);
  if (deleted.status !== 409) return deleted.status;
  return (await apiCall('POST', `/courses/${courseId}/archive`, token)).status;
}

/** Signs in through the API: the access token and who it belongs to. */
export async function apiLogin(username: string, password = 'password123'): Promise<{ token: string; userId: string; name: string }> {
  const answer = await apiCall('POST', '/login', undefined, { username, password });
  if (answer.status !== 200) throw new Error(`login ${username}: ${answer.status} ${answer.text}`);
  return { token: answer.json.session.access_token, userId: answer.json.user.id, name: answer.json.user.name };
}

/**
 * Opens `path` (the home page unless told) signed in, as a returning person arrives: the API's
 * sign-in gives the session, put where supabase-js keeps it (local storage, `sessionStorageKey` in
 * web/src/lib/supabase.ts), with the user supabase-js stores beside it. The /auth screen's own
 * sign-in is proven once, in e2e/auth.test.ts and the files about passwords; here it would only
 * cost each journey a page.
 */
export async function uiLogin(page: Page, username: string, password = 'password123', path = '/') {
  const answer = await apiCall('POST', '/login', undefined, { username, password });
  if (answer.status !== 200) throw new Error(`login ${username}: ${answer.status} ${answer.text}`);
  const session = answer.json.session;
  const userAnswer = await fetch(`${baseUrl}/auth/v1/user`, {
    headers: { authorization: `Bearer ${session.access_token}`, apikey: process.env.SUPABASE_ANON_KEY ?? '' },
  });
  if (!userAnswer.ok) throw new Error(`auth user ${username}: ${userAnswer.status}`);
  const stored = JSON.stringify({ ...session, user: await userAnswer.json() });
  // A blank page of the app's origin to write its local storage from, then the home page.
  const blank = `${baseUrl}/e2e-blank`;
  await page.route(blank, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));
  await page.goto(blank);
  await page.evaluate((value) => localStorage.setItem(`sb-${location.hostname.split('.')[0]}-auth-token`, value), stored);
  await page.unroute(blank);
  await page.goto(`${baseUrl}${path}`);
}

/** Signs in through the /auth screen, as a person types it, and waits for the home page. */
export async function signInThroughForm(page: Page, username: string, password = 'password123') {
  await page.goto(`${baseUrl}/auth`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(`${baseUrl}/`);
}

/**
 * Signs in through /auth with a temporary password (added or imported by an admin): the app sends the
 * person to /choose-password first, where they choose their own. Returns the new password.
 */
export async function uiLoginWithTemporaryPassword(page: Page, username: string, temporaryPassword: string): Promise<string> {
  const newPassword = `Own-${Date.now().toString(36)}-pass`;
  await page.goto(`${baseUrl}/auth`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(temporaryPassword);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(`${baseUrl}/choose-password`);
  await page.getByLabel('Current password').fill(temporaryPassword);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await page.waitForURL(`${baseUrl}/dashboard`);
  return newPassword;
}

/** A person given a temporary password chooses their own (nothing else works until then). */
export async function apiChooseNewPassword(token: string, temporaryPassword: string, newPassword = `Own-${Date.now().toString(36)}-pass`): Promise<string> {
  const answer = await apiCall('PUT', '/profile/password', token, { currentPassword: temporaryPassword, newPassword, confirmPassword: newPassword });
  if (answer.status !== 204 && answer.status !== 200) throw new Error(`password change: ${answer.status} ${answer.text}`);
  return newPassword;
}
