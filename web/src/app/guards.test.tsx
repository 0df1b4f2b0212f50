import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '@/app/routes';
import { makeUser, renderWithProviders } from '@/test/render';

const PROTECTED: [string, string][] = [
  ['/my-courses', 'My Courses'],
  ['/dashboard', 'Learner Dashboard'],
  ['/profile', 'Profile'],
  ['/certificates', 'Certificates'],
  ['/course-manager', 'Course Manager'],
  ['/instructor', 'Instructor Dashboard'],
  ['/course-creator', 'Create Course'],
  ['/course/create', 'Create Course'],
  ['/course/edit/42', 'Edit Course'],
];

/** Waits until the page has rendered something in <main>: by then any guard redirect has happened. */
async function pageRendered() {
  await waitFor(() => expect(screen.getByRole('main').textContent?.trim()).not.toBe(''), { timeout: 10_000 });
}

describe('route guards', () => {
  it.each(PROTECTED)('sends a visitor from %s to /auth with a redirect back', async (path) => {
    const { router } = renderWithProviders(null, { routes, route: path, user: null });
    expect(await screen.findByRole('heading', { name: 'Sign in to your account' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(path);
  });

  it.each(PROTECTED)('lets a signed-in user stay on %s', async (path) => {
    // An admin, so that the pages' own role checks (course manager, instructor) do not send them away.
    const { router } = renderWithProviders(null, { routes, route: path, user: makeUser({ role: 'ADMIN' }) });
    await pageRendered();
    expect(router.state.location.pathname).toBe(path);
    expect(screen.queryByRole('heading', { name: 'Sign in to your account' })).not.toBeInTheDocument();
  });

  it('keeps the query string in the redirect', async () => {
    const { router } = renderWithProviders(null, { routes, route: '/my-courses?tab=completed', user: null });
    await screen.findByRole('heading', { name: 'Sign in to your account' });
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/my-courses?tab=completed');
  });

  it('shows a spinner while the user loads', async () => {
    const { router } = renderWithProviders(null, { routes, route: '/my-courses', user: 'loading' });
    expect(await screen.findByLabelText('Checking your session')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/my-courses');
  });

  it('sends a visitor from /admin to /auth', async () => {
    const { router } = renderWithProviders(null, { routes, route: '/admin', user: null });
    await screen.findByRole('heading', { name: 'Sign in to your account' });
    expect(router.state.location.pathname).toBe('/auth');
  });

  it.each(['STUDENT', 'INSTRUCTOR'] as const)('sends a %s from /admin to /', async (role) => {
    const { router } = renderWithProviders(null, { routes, route: '/admin', user: makeUser({ role }) });
    expect(await screen.findByRole('heading', { name: 'Available Courses' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
  });

  it('shows /admin to an admin', async () => {
    renderWithProviders(null, { routes, route: '/admin', user: makeUser({ role: 'ADMIN' }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeInTheDocument();
  });

  it.each(['/course/7', '/verify/ABC123'])('lets visitors see the public page %s', async (path) => {
    const { router } = renderWithProviders(null, { routes, route: path, user: null });
    await pageRendered();
    expect(router.state.location.pathname).toBe(path);
  });
});
