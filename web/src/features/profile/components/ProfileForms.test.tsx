// The profile forms check the shared schemas' messages in the browser before anything is sent, and
// show the user's read-only username and role.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import { PasswordForm } from './PasswordForm';
import { ProfileForm } from './ProfileForm';

describe('ProfileForm', () => {
  it('shows username and role read-only and the name and email to edit', () => {
    const u = makeUser({ role: 'INSTRUCTOR' });
    renderWithProviders(<ProfileForm user={u} onSaved={() => {}} />, { user: u });
    const form = within(screen.getByRole('form', { name: 'Account details' }));
    expect(form.getByLabelText('Username')).toHaveValue('jane');
    expect(form.getByLabelText('Username')).toHaveAttribute('readonly');
    expect(form.getByLabelText('Role')).toHaveValue('Instructor');
    expect(form.getByLabelText('Full name')).toHaveValue('Jane Smith');
    expect(form.getByLabelText('Email')).toHaveValue('jane@example.org');
  });

  it('shows the organisation, unit and line manager read-only when the person has them', () => {
    const u = {
      ...makeUser(),
      organisation: { id: 'o1', name: 'Northshire Police', code: 'NSP' },
      unit: { id: 'u1', name: 'Central Station' },
      manager: { id: 'm1', name: 'Morgan Manager' },
      hasReports: false,
    };
    renderWithProviders(<ProfileForm user={u} onSaved={() => {}} />, { user: u });
    const form = within(screen.getByRole('form', { name: 'Account details' }));
    expect(form.getByLabelText('Organisation')).toHaveValue('Northshire Police');
    expect(form.getByLabelText('Organisation')).toHaveAttribute('readonly');
    expect(form.getByLabelText('Unit')).toHaveValue('Central Station');
    expect(form.getByLabelText('Unit')).toHaveAttribute('readonly');
    expect(form.getByLabelText('Line manager')).toHaveValue('Morgan Manager');
    expect(form.getByLabelText('Line manager')).toHaveAttribute('readonly');
  });

  it('shows nothing of an organisation to a person of none, and only what a person has', () => {
    const none = makeUser();
    const { unmount } = renderWithProviders(<ProfileForm user={none} onSaved={() => {}} />, { user: none });
    for (const label of ['Organisation', 'Unit', 'Line manager']) expect(screen.queryByLabelText(label)).toBeNull();
    unmount();
    const orgOnly = { ...makeUser(), organisation: { id: 'o1', name: 'Northshire Police', code: 'NSP' }, hasReports: false };
    renderWithProviders(<ProfileForm user={orgOnly} onSaved={() => {}} />, { user: orgOnly });
    expect(screen.getByLabelText('Organisation')).toHaveValue('Northshire Police');
    expect(screen.queryByLabelText('Unit')).toBeNull();
    expect(screen.queryByLabelText('Line manager')).toBeNull();
  });

  it('refuses a short name and a bad email with the specification messages', async () => {
    const u = makeUser();
    const { user } = renderWithProviders(<ProfileForm user={u} onSaved={() => {}} />, { user: u });
    await user.clear(screen.getByLabelText('Full name'));
    await user.type(screen.getByLabelText('Full name'), 'J');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
  });
});

describe('PasswordForm', () => {
  it('asks for the current password, a long enough new one and a matching confirmation', async () => {
    const { user } = renderWithProviders(<PasswordForm />, { user: makeUser() });
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Current password'), 'old-secret');
    await user.type(screen.getByLabelText('New password'), 'new-secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'other-secret');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
  });
});

describe('the profile forms in Welsh', () => {
  it('names every field, description and button in Welsh', async () => {
    await i18n.changeLanguage('cy');
    const u = {
      ...makeUser({ role: 'INSTRUCTOR' }),
      organisation: { id: 'o1', name: 'Northshire Police', code: 'NSP' },
      unit: { id: 'u1', name: 'Central Station' },
      manager: { id: 'm1', name: 'Morgan Manager' },
      hasReports: false,
    };
    renderWithProviders(<><ProfileForm user={u} onSaved={() => {}} /><PasswordForm /></>, { user: u });
    const details = within(screen.getByRole('form', { name: 'Manylion y cyfrif' }));
    expect(details.getByLabelText('Enw defnyddiwr')).toHaveValue('jane');
    expect(details.getByLabelText('Rôl')).toHaveValue('Hyfforddwr');
    expect(details.getByLabelText('Sefydliad')).toHaveValue('Northshire Police');
    expect(details.getByLabelText('Uned')).toHaveValue('Central Station');
    expect(details.getByLabelText('Rheolwr llinell')).toHaveValue('Morgan Manager');
    expect(details.getByLabelText('Enw llawn')).toHaveValue('Jane Smith');
    expect(details.getByText("Gallwch hefyd fewngofnodi gyda'r cyfeiriad hwn.")).toBeInTheDocument();
    expect(details.getByRole('button', { name: "Cadw'r newidiadau" })).toBeInTheDocument();
    const password = within(screen.getByRole('form', { name: 'Newid cyfrinair' }));
    expect(password.getByLabelText('Cyfrinair presennol')).toBeInTheDocument();
    expect(password.getByLabelText('Cyfrinair newydd')).toBeInTheDocument();
    expect(password.getByLabelText("Cadarnhau'r cyfrinair newydd")).toBeInTheDocument();
    expect(password.getByRole('button', { name: "Dangos neu guddio'r nodau a deipiwyd (presennol)" })).toBeInTheDocument();
    expect(password.getByRole('button', { name: 'Newid cyfrinair' })).toBeInTheDocument();
  });
});
