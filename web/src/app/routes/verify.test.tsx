// /verify/:code is public (a visitor is not sent to /auth) and its form refuses a malformed code
// before asking the server.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '@/app/routes';
import { renderWithProviders } from '@/test/render';

describe('/verify/:code', () => {
  it('opens for a visitor and checks the shape of another code', async () => {
    const { user, router } = renderWithProviders(null, { routes, route: '/verify/DEMO2026CERT0001', user: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Certificate verification' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verify/DEMO2026CERT0001');
    expect(document.title).toMatch(/^Verify certificate/);

    const input = screen.getByLabelText('Verification code');
    expect(input).toHaveValue('DEMO2026CERT0001');
    await user.clear(input);
    await user.type(input, 'abc');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 8 to 32 letters and digits of the verification code')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verify/DEMO2026CERT0001');

    await user.clear(input);
    await user.type(input, 'abcd1234efgh');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(router.state.location.pathname).toBe('/verify/ABCD1234EFGH');
  });
});
