import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SERVICE_CODES, SERVICES } from '@shared/services.ts';
import { routes } from '@/app/routes';
import { makeUser, renderWithProviders } from '@/test/render';

function sidebar() {
  return within(screen.getByRole('navigation', { name: 'Main navigation' }));
}

describe('app shell', () => {
  it('shows landmarks, a skip link and the product title with its version', async () => {
    renderWithProviders(null, { routes, route: '/' });
    await screen.findByRole('heading', { name: 'Available Courses' });
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute('href', '#main-content');
    const title = screen.getByRole('link', { name: /Emergency Services Learning/ });
    expect(title).toHaveAttribute('href', '/');
    expect(within(title).getByText('v3')).toBeInTheDocument();
  });

  it('offers a Login button to visitors and only the public menu', async () => {
    renderWithProviders(null, { routes, route: '/', user: null });
    const login = await screen.findByRole('link', { name: 'Login' });
    expect(login).toHaveAttribute('href', '/auth');
    expect(sidebar().getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(sidebar().getByRole('link', { name: 'My Courses' })).toHaveAttribute('href', '/my-courses');
    expect(sidebar().getByRole('link', { name: 'Certificates' })).toHaveAttribute('href', '/certificates');
    expect(sidebar().queryByRole('link', { name: 'My Dashboard' })).not.toBeInTheDocument();
    expect(sidebar().queryByRole('link', { name: 'Instructor Dashboard' })).not.toBeInTheDocument();
    expect(sidebar().queryByRole('link', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
  });

  it('shows a placeholder, not the Login button, while the user loads', async () => {
    renderWithProviders(null, { routes, route: '/', user: 'loading' });
    expect(await screen.findByText('Loading your account')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('links every service to the filtered catalogue', async () => {
    renderWithProviders(null, { routes, route: '/' });
    await screen.findByRole('heading', { name: 'Available Courses' });
    for (const code of SERVICE_CODES) {
      const link = sidebar().getByRole('link', { name: SERVICES[code].label });
      expect(link).toHaveAttribute('href', `/?service=${code}`);
      expect(link.querySelector(`[data-service-dot="${code}"]`)).not.toBeNull();
    }
  });

  it('marks the selected service as the current page', async () => {
    renderWithProviders(null, { routes, route: '/?service=UKAS' });
    await screen.findByRole('heading', { name: 'Available Courses' });
    expect(sidebar().getByRole('link', { name: SERVICES.UKAS.label })).toHaveAttribute('aria-current', 'page');
    expect(sidebar().getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('shows a student the user menu with initials, without admin entries', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/', user: makeUser({ name: 'Jane Mary Smith' }) });
    const menuButton = await screen.findByRole('button', { name: /Jane Mary Smith/ });
    expect(within(menuButton).getByText('JM')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    expect(sidebar().queryByRole('link', { name: 'Instructor Dashboard' })).not.toBeInTheDocument();

    await user.click(menuButton);
    expect(await screen.findByRole('menuitem', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    // The learner's Dashboard, in the menu and the sidebar.
    expect(screen.getByRole('menuitem', { name: 'My Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(sidebar().getByRole('link', { name: 'My Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('menuitem', { name: 'My Courses' })).toHaveAttribute('href', '/my-courses');
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
  });

  it('shows My team to a manager only, in the sidebar and the user menu', async () => {
    const manager = Object.assign(makeUser({ name: 'Mo Manager' }), { hasReports: true });
    const { user, unmount } = renderWithProviders(null, { routes, route: '/', user: manager });
    expect(await sidebar().findByRole('link', { name: 'My team' })).toHaveAttribute('href', '/team');
    await user.click(screen.getByRole('button', { name: /Mo Manager/ }));
    expect(await screen.findByRole('menuitem', { name: 'My team' })).toHaveAttribute('href', '/team');
    unmount();

    const learner = Object.assign(makeUser({ name: 'Lee Learner' }), { hasReports: false });
    const second = renderWithProviders(null, { routes, route: '/', user: learner });
    await second.user.click(await screen.findByRole('button', { name: /Lee Learner/ }));
    expect(await screen.findByRole('menuitem', { name: 'My Dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'My team' })).not.toBeInTheDocument();
    expect(sidebar().queryByRole('link', { name: 'My team' })).not.toBeInTheDocument();
  });

  it('shows an instructor the Instructor Dashboard link but no admin link', async () => {
    renderWithProviders(null, { routes, route: '/', user: makeUser({ role: 'INSTRUCTOR' }) });
    await screen.findByRole('heading', { name: 'Available Courses' });
    expect(sidebar().getByRole('link', { name: 'Instructor Dashboard' })).toHaveAttribute('href', '/instructor');
    expect(sidebar().queryByRole('link', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
  });

  it('shows an admin the admin links in the sidebar and the user menu', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/', user: makeUser({ name: 'Ada', role: 'ADMIN' }) });
    await screen.findByRole('heading', { name: 'Available Courses' });
    expect(sidebar().getByRole('link', { name: 'Instructor Dashboard' })).toBeInTheDocument();
    expect(sidebar().getByRole('link', { name: 'Admin Dashboard' })).toHaveAttribute('href', '/admin');

    const menuButton = screen.getByRole('button', { name: /Ada/ });
    expect(within(menuButton).getByText('A')).toBeInTheDocument();
    await user.click(menuButton);
    expect(await screen.findByRole('menuitem', { name: 'Admin Dashboard' })).toHaveAttribute('href', '/admin');
  });

  it('toggles the mobile navigation with the burger', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/' });
    const burger = await screen.findByRole('button', { name: 'Open navigation' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    await user.click(burger);
    expect(screen.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('lets the user choose the colour theme and marks <html>', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/' });
    // The header's (a phone has it in the navigation instead).
    const header = within(await screen.findByRole('banner'));
    await user.click(await header.findByRole('button', { name: 'Colour theme: System' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Dark' }));
    expect(await header.findByRole('button', { name: 'Colour theme: Dark' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(document.documentElement).toHaveClass('dark');
  });
});
