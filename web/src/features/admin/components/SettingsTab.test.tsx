// The Settings tab in Welsh: every label, heading, description and button of the form.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type PublicSettings } from '@shared/admin.ts';
import type { CurrentUser } from '@shared/domain.ts';
import { i18n } from '@/lib/i18n/i18n';
import { settingsKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { SettingsTab } from './SettingsTab';

const admin: CurrentUser = { ...makeUser({ id: '40000000-0000-4000-8000-000000000001', role: 'ADMIN' }), hasReports: false };
const settings = {
  ...DEFAULT_SETTINGS,
  updatedAt: '2026-01-01T00:00:00.000Z',
  contactEmail: null,
} as PublicSettings;

describe('Settings tab', () => {
  it('shows the settings form in English', async () => {
    renderWithProviders(<SettingsTab currentUserId={admin.id} />, { user: admin, queryData: [[settingsKeys.forCaller(admin.id), settings]] });
    expect(await screen.findByRole('form', { name: 'System settings' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Site name/)).toBeInTheDocument();
    expect(screen.getByText('Authors cannot upload a package (.zip) larger than this. 1 to 1,024 MB; the default is 200 MB.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Settings' })).toBeInTheDocument();
  });

  it('speaks Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<SettingsTab currentUserId={admin.id} />, { user: admin, queryData: [[settingsKeys.forCaller(admin.id), settings]] });
    const form = await screen.findByRole('form', { name: "Gosodiadau'r system" });
    expect(screen.getByLabelText(/Enw'r wefan/)).toBeInTheDocument();
    expect(screen.getByLabelText(/E-bost y gweinyddwr/)).toBeInTheDocument();
    expect(screen.getByLabelText(/Mynediad at gyrsiau/, { selector: 'input' })).toHaveValue('Pori cyhoeddus, mewngofnodi i gofrestru');
    expect(screen.getByLabelText(/Templed tystysgrif/, { selector: 'input' })).toHaveValue('Safonol');
    expect(screen.getByRole('heading', { name: 'Hysbysiadau' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Pecynnau SCORM' })).toBeInTheDocument();
    expect(screen.getByText("Ni all awduron uwchlwytho pecyn (.zip) sy'n fwy na hyn. 1 i 1,024 MB; y gwerth diofyn yw 200 MB.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Ailosod i'r gwerthoedd diofyn" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Cadw'r gosodiadau" })).toBeInTheDocument();
    expect(form.textContent).not.toMatch(/Settings|Notifications|Site name|Course access|Footer|analytics|reminders|days/);
  });
});
