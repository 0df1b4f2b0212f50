// Who may open the instructor screens: a learner gets the 'Access denied'
// toast and is sent home from /instructor, and 'Access Denied' at /course-manager. No request is
// needed to decide: the signed-in user's role is enough (the API refuses them as well).
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '@/app/routes';
import { makeUser, renderWithProviders } from '@/test/render';

describe('instructor screens refuse learners', () => {
  it('sends a STUDENT from /instructor to / with the Access denied toast', async () => {
    const { router } = renderWithProviders(null, { routes, route: '/instructor', user: makeUser({ role: 'STUDENT' }) });
    expect(await screen.findByText("You don't have instructor permissions.")).toBeInTheDocument();
    expect(screen.getByText('Access denied')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows Access Denied at /course-manager with a way home', async () => {
    const { router, user } = renderWithProviders(null, { routes, route: '/course-manager', user: makeUser({ role: 'STUDENT' }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText('You do not have permission to access the course manager.')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Return to Home' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
