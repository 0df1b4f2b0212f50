import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '@/app/routes';
import { makeUser, renderWithProviders } from '@/test/render';

function form(name: 'Login' | 'Register') {
  return within(screen.getByRole('form', { name }));
}

describe('/auth', () => {
  it('shows the login tab first and switches headings and texts with the tabs', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/auth' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to your account' })).toBeInTheDocument();
    expect(screen.getByText('Enter your credentials to access your courses.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    expect(document.title).toMatch(/^Sign in/);

    await user.click(screen.getByRole('tab', { name: 'Register' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Create a new account' })).toBeInTheDocument();
    expect(screen.getByText('Register to access courses and track your progress.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: 'Login' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to your account' })).toBeInTheDocument();
  });

  it('links between the tabs and back to the home page', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/auth' });
    await screen.findByRole('heading', { name: 'Sign in to your account' });
    expect(screen.getByText(/Don't have an account\?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to home page' })).toHaveAttribute('href', '/');

    await user.click(screen.getByRole('button', { name: 'Register now' }));
    expect(screen.getByRole('heading', { name: 'Create a new account' })).toBeInTheDocument();
    expect(screen.getByText(/Already have an account\?/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('heading', { name: 'Sign in to your account' })).toBeInTheDocument();
  });

  it('opens on the Register tab with ?tab=register', async () => {
    renderWithProviders(null, { routes, route: '/auth?tab=register' });
    expect(await screen.findByRole('heading', { name: 'Create a new account' })).toBeInTheDocument();
  });

  it('shows each login field message under its field when submitted empty', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/auth' });
    await screen.findByRole('heading', { name: 'Sign in to your account' });
    await user.click(screen.getByRole('button', { name: 'Login' }));

    const username = form('Login').getByLabelText(/Username/);
    const password = form('Login').getByLabelText(/Password/);
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(username).toHaveAccessibleDescription(expect.stringContaining('Username is required'));
    expect(password).toHaveAccessibleDescription(expect.stringContaining('Password is required'));

    await user.type(username, 'jane');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.queryByText('Username is required')).not.toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('shows each register field message on submit with empty values', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/auth?tab=register' });
    await screen.findByRole('heading', { name: 'Create a new account' });
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const f = form('Register');
    expect(f.getByLabelText(/Username/)).toHaveAccessibleDescription('Username must be at least 3 characters');
    expect(f.getByLabelText(/Email/)).toHaveAccessibleDescription('Invalid email address');
    expect(f.getByLabelText(/Full name/)).toHaveAccessibleDescription('Name must be at least 2 characters');
    expect(f.getByLabelText(/^Password/)).toHaveAccessibleDescription(expect.stringContaining('Password must be at least 6 characters'));
    expect(f.getByLabelText(/Confirm password/)).toHaveAccessibleDescription('Please confirm your password');
  });

  it('shows the messages for values that are too short or malformed', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/auth?tab=register' });
    await screen.findByRole('heading', { name: 'Create a new account' });
    const f = form('Register');
    await user.type(f.getByLabelText(/Username/), 'ab');
    await user.type(f.getByLabelText(/Email/), 'not-an-email');
    await user.type(f.getByLabelText(/Full name/), 'J');
    await user.type(f.getByLabelText(/^Password/), '12345');
    await user.type(f.getByLabelText(/Confirm password/), '12345');
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect(screen.getByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
  });

  it("shows 'Passwords do not match' under the confirmation", async () => {
    const { user } = renderWithProviders(null, { routes, route: '/auth?tab=register' });
    await screen.findByRole('heading', { name: 'Create a new account' });
    const f = form('Register');
    await user.type(f.getByLabelText(/Username/), 'jane');
    await user.type(f.getByLabelText(/Email/), 'jane@example.org');
    await user.type(f.getByLabelText(/Full name/), 'Jane Smith');
    await user.type(f.getByLabelText(/^Password/), 'secret1');
    await user.type(f.getByLabelText(/Confirm password/), 'secret2');
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect(f.getByLabelText(/Confirm password/)).toHaveAccessibleDescription('Passwords do not match');
    expect(f.getByLabelText(/Username/)).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('labels every input and marks the purpose for autofill', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/auth' });
    await screen.findByRole('heading', { name: 'Sign in to your account' });
    expect(form('Login').getByLabelText(/Username/)).toHaveAttribute('autocomplete', 'username');
    expect(form('Login').getByLabelText(/Password/)).toHaveAttribute('autocomplete', 'current-password');
    await user.click(screen.getByRole('tab', { name: 'Register' }));
    expect(form('Register').getByLabelText(/Email/)).toHaveAttribute('autocomplete', 'email');
    expect(form('Register').getByLabelText(/Confirm password/)).toHaveAttribute('autocomplete', 'new-password');
  });

  it('shows a spinner while the session loads', async () => {
    renderWithProviders(null, { routes, route: '/auth', user: 'loading' });
    expect(await screen.findByLabelText('Checking your session')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sign in to your account' })).not.toBeInTheDocument();
  });

  it('sends a signed-in user to the home page', async () => {
    const { router } = renderWithProviders(null, { routes, route: '/auth', user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'Available Courses' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a signed-in user to a safe redirect path, never elsewhere', async () => {
    const first = renderWithProviders(null, { routes, route: '/auth?redirect=%2Fmy-courses', user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'My Courses' })).toBeInTheDocument();
    expect(first.router.state.location.pathname).toBe('/my-courses');
    first.unmount();

    const second = renderWithProviders(null, { routes, route: '/auth?redirect=%2F%2Fevil.example', user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'Available Courses' })).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/');
  });
});
