import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '@/app/routes';
import { renderWithProviders } from '@/test/render';

describe('not-found page', () => {
  it.each(['/no-such-page', '/courses', '/admin/users/1'])('reads 404 Page Not Found at %s', async (path) => {
    renderWithProviders(null, { routes, route: path, user: null });
    expect(await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to home page' })).toHaveAttribute('href', '/');
    // The title is set by an effect after the page renders.
    await waitFor(() => expect(document.title).toMatch(/Page not found/));
  });
});
