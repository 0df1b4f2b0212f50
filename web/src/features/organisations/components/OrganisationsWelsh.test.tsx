// The Organisation tab in Welsh: the national list, an organisation's unit tree with its people,
// its SCIM tokens and its sign-in panel (the providers' own names, such as Tenant ID and the
// protocols, as the providers write them; the sentences around them in Welsh).
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@shared/domain.ts';
import type { Organisation, Unit } from '@shared/organisations.ts';
import type { ScimSettings } from '@shared/scim.ts';
import type { OrganisationSignIn } from '@shared/sign-in.ts';
import { i18n } from '@/lib/i18n/i18n';
import { organisationKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { OrganisationTab } from './OrganisationTab';

const POLICE = 'a0000000-0000-4000-a000-000000000001';
const organisations: Organisation[] = [
  { id: POLICE, name: 'Northshire Police', code: 'NSP', service: 'UKPS', createdAt: '2026-11-01T00:00:00.000Z', people: 12 },
];
const units: Unit[] = [
  { id: 'b0000000-0000-4000-a000-000000000001', organisationId: POLICE, parentId: null, name: 'North Area', people: 7 },
  { id: 'b0000000-0000-4000-a000-000000000002', organisationId: POLICE, parentId: 'b0000000-0000-4000-a000-000000000001', name: 'Central Station', people: 2 },
];
const scim: ScimSettings = {
  baseUrl: 'https://learning.example/functions/v1/api/scim/v2',
  tokens: [
    { id: 'c0000000-0000-4000-a000-000000000001', label: 'Entra ID provisioning', hint: 'x7Qa', createdAt: '2026-11-20T09:00:00.000Z',
      createdByName: 'Org Admin', lastUsedAt: null, revokedAt: null },
    { id: 'c0000000-0000-4000-a000-000000000002', label: 'Old connector', hint: 'Pk2m', createdAt: '2026-10-01T09:00:00.000Z',
      createdByName: null, lastUsedAt: null, revokedAt: '2026-11-19T10:00:00.000Z' },
  ],
};
const signIn: OrganisationSignIn = {
  organisationId: POLICE,
  domains: ['northshire.police.uk'],
  settings: {
    protocol: 'oidc', tenantId: '6f1c2b7e-3d4a-4e8b-9c21-5a7d0e4f8b13', samlMetadataUrl: null, samlRegistered: false,
    attributeMapping: { unit: 'department' }, newPersonRole: 'STUDENT', newPersonServices: ['UKPS'],
    enabled: false, passwordSignIn: true, testedAt: '2026-11-22T10:15:00.000Z', updatedAt: '2026-11-20T09:00:00.000Z',
  },
  tests: [],
  provider: {
    redirectUri: 'https://learning.example/auth/v1/callback',
    samlEntityId: 'https://learning.example/auth/v1/sso/saml/metadata',
    samlAcsUrl: 'https://learning.example/auth/v1/sso/saml/acs',
  },
};
const seeded = [
  [organisationKeys.list(), organisations],
  [organisationKeys.units(POLICE), units],
  [organisationKeys.scim(POLICE), scim],
  [organisationKeys.signIn(POLICE), signIn],
] as const;

const national: CurrentUser = { ...makeUser({ role: 'ADMIN', username: 'admin', name: 'Admin' }), hasReports: false };
const orgAdmin: CurrentUser = {
  ...makeUser({ role: 'ADMIN', username: 'orgadmin', name: 'Org Admin', organisationId: POLICE }),
  organisation: { id: POLICE, name: 'Northshire Police', code: 'NSP' },
  hasReports: false,
};

describe('the Organisation tab in Welsh', () => {
  it('lists the organisations in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<OrganisationTab user={national} />, { user: national, queryData: seeded });
    expect(screen.getByRole('heading', { name: 'Sefydliadau' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ychwanegu sefydliad' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Sefydliadau' });
    expect(within(table).getByRole('columnheader', { name: 'Gwasanaeth' })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Gweld unedau Northshire Police' })).toHaveTextContent('Gweld unedau');
  });

  it('shows an organisation\'s units, SCIM tokens and sign-in in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded });
    const tree = screen.getByRole('list', { name: 'Unedau Northshire Police' });
    expect(within(tree).getByText('7 unigolyn')).toBeInTheDocument();
    expect(within(tree).getByRole('list', { name: 'Unedau o dan North Area' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Camau ar gyfer North Area' })).toHaveTextContent('Camau');

    const scimPanel = within(screen.getByRole('region', { name: 'Darparu awtomatig (SCIM)' }));
    expect(scimPanel.getByText(/drwy SCIM 2\.0/)).toHaveTextContent('Gall eich darparwr hunaniaeth (er enghraifft Microsoft Entra ID) greu, diweddaru a dadactifadu pobl Northshire Police drwy SCIM 2.0.');
    expect(scimPanel.getByRole('button', { name: 'Dirymu Entra ID provisioning' })).toBeInTheDocument();
    expect(scimPanel.getByText('Dirymwyd 19 Tachwedd 2026')).toBeInTheDocument();
    expect(scimPanel.getAllByText('Heb ei ddefnyddio', { selector: 'td' })).toHaveLength(2);

    const panel = within(screen.getByRole('region', { name: /Mewngofnodi drwy eich darparwr hunaniaeth/ }));
    expect(panel.getByRole('list', { name: 'Parthau e-bost Northshire Police' })).toHaveTextContent('northshire.police.uk');
    expect(panel.getByLabelText(/^Tenant ID/)).toHaveValue('6f1c2b7e-3d4a-4e8b-9c21-5a7d0e4f8b13');
    expect(panel.getByRole('radio', { name: 'SAML 2.0' })).toBeInTheDocument();
    expect(panel.getByLabelText(/^Uned \(adran\)/)).toHaveAccessibleDescription(/Fel arfer department/);
    expect(panel.getByRole('button', { name: "Copïo'r URI ailgyfeirio" })).toBeInTheDocument();
    expect(panel.getByRole('button', { name: 'Profi mewngofnodi' })).toBeInTheDocument();
    const on = panel.getByRole('switch', { name: /^Mewngofnodi ein pobl drwy'r darparwr hunaniaeth/ });
    expect(on).toHaveAccessibleDescription(expect.stringContaining('Llwyddodd prawf mewngofnodi ar 22 Tachwedd 2026 am 10:15.'));
    expect(panel.getByRole('button', { name: "Cadw'r gosodiadau" })).toBeInTheDocument();
  });
});
