// The Organisation tab rendered with answers of the API already in the cache: the national
// administrator's list and the unit tree as nested, labelled lists with each unit's people; the
// organisation administrator's own tree directly. The tabs each kind of administrator sees are in
// web/src/app/routes/admin.test.tsx; the writes against the real API in e2e/organisations.test.ts.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '@shared/domain.ts';
import type { Organisation, Unit } from '@shared/organisations.ts';
import type { ScimSettings } from '@shared/scim.ts';
import { makeUser, renderWithProviders } from '@/test/render';
import { organisationKeys } from '@/lib/query-keys';
import { buildTree } from '../lib/unit-tree';
import { OrganisationTab } from './OrganisationTab';

const POLICE = 'a0000000-0000-4000-a000-000000000001';
const TRUST = 'a0000000-0000-4000-a000-000000000002';
const organisations: Organisation[] = [
  { id: POLICE, name: 'Northshire Police', code: 'NSP', service: 'UKPS', createdAt: '2026-11-01T00:00:00.000Z', people: 12 },
  { id: TRUST, name: 'Southshire Ambulance Service NHS Trust', code: 'SAS', service: 'UKAS', createdAt: '2026-11-01T00:00:00.000Z', people: 1 },
];
const unit = (id: string, parentId: string | null, name: string, people: number): Unit =>
  ({ id: `b0000000-0000-4000-a000-00000000000${id}`, organisationId: POLICE, parentId: parentId && `b0000000-0000-4000-a000-00000000000${parentId}`, name, people });
const units: Unit[] = [
  unit('3', '2', 'Red Watch', 3),
  unit('1', null, 'North Area', 7),
  unit('2', '1', 'Central Station', 5),
  unit('4', '1', 'Harbour Station', 1),
  unit('5', null, 'South Area', 1),
];

const national: CurrentUser = { ...makeUser({ role: 'ADMIN', username: 'admin', name: 'Admin' }), hasReports: false };
const orgAdmin: CurrentUser = {
  ...makeUser({ role: 'ADMIN', username: 'orgadmin', name: 'Org Admin', organisationId: POLICE }),
  organisation: { id: POLICE, name: 'Northshire Police', code: 'NSP' },
  hasReports: false,
};

const scim: ScimSettings = {
  baseUrl: 'https://learning.example/functions/v1/api/scim/v2',
  tokens: [
    { id: 'c0000000-0000-4000-a000-000000000001', label: 'Entra ID provisioning', hint: 'x7Qa', createdAt: '2026-11-20T09:00:00.000Z',
      createdByName: 'Org Admin', lastUsedAt: '2026-11-27T14:05:00.000Z', revokedAt: null },
    { id: 'c0000000-0000-4000-a000-000000000002', label: 'Old connector', hint: 'Pk2m', createdAt: '2026-10-01T09:00:00.000Z',
      createdByName: null, lastUsedAt: null, revokedAt: '2026-11-19T10:00:00.000Z' },
  ],
};

const seeded = [
  [organisationKeys.list(), organisations],
  [organisationKeys.units(POLICE), units],
  [organisationKeys.scim(POLICE), scim],
] as const;

describe('buildTree', () => {
  it('nests the units under their parents, each level in name order, with their paths', () => {
    const tree = buildTree(units);
    expect(tree.map((n) => n.unit.name)).toEqual(['North Area', 'South Area']);
    expect(tree[0].children.map((n) => n.unit.name)).toEqual(['Central Station', 'Harbour Station']);
    expect(tree[0].children[0].children[0].path).toBe('North Area › Central Station › Red Watch');
  });
});

describe('OrganisationTab', () => {
  it('lists every organisation for a national administrator, with code, service and people', async () => {
    renderWithProviders(<OrganisationTab user={national} />, { user: national, queryData: seeded });
    const table = screen.getByRole('table', { name: 'Organisations' });
    const row = within(table).getByRole('row', { name: /Northshire Police/ });
    expect(within(row).getByText('NSP')).toBeInTheDocument();
    expect(within(row).getByText('12')).toBeInTheDocument();
    expect(within(row).getByText('UKPS')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add organisation' })).toBeInTheDocument();
  });

  it('checks a new organisation with the shared schema\'s messages, under each field', async () => {
    const { user } = renderWithProviders(<OrganisationTab user={national} />, { user: national, queryData: seeded });
    await user.click(screen.getByRole('button', { name: 'Add organisation' }));
    const form = within(await screen.findByRole('form', { name: 'Add organisation' }));
    await user.type(form.getByLabelText('Code'), 'N S P');
    await user.click(form.getByRole('button', { name: 'Add organisation' }));
    expect(await form.findByText('Name is required')).toBeInTheDocument();
    expect(form.getByText('Code must be 2 to 16 letters, digits or dashes')).toBeInTheDocument();
    expect(form.getByText('Choose a service')).toBeInTheDocument();
    expect(form.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('opens an organisation\'s units as nested lists, each unit with its people, and goes back', async () => {
    const { user, router } = renderWithProviders(<OrganisationTab user={national} />, {
      user: national, route: '/admin?tab=organisation', queryData: seeded,
    });
    await user.click(screen.getByRole('button', { name: 'View units of Northshire Police' }));
    expect(new URLSearchParams(router.state.location.search).get('organisation')).toBe(POLICE); // kept on a reload
    const top = screen.getByRole('list', { name: 'Units of Northshire Police' });
    const north = within(top).getAllByRole('listitem').find((li) => li.dataset.unitName === 'North Area')!;
    expect(within(north).getByText('7 people')).toBeInTheDocument();
    const underNorth = within(north).getByRole('list', { name: 'Units under North Area' });
    const central = within(underNorth).getAllByRole('listitem').find((li) => li.dataset.unitName === 'Central Station')!;
    expect(central.dataset.level).toBe('2');
    const underCentral = within(central).getByRole('list', { name: 'Units under Central Station' });
    expect(within(underCentral).getByText('Red Watch')).toBeInTheDocument();
    expect(within(underCentral).getByText('3 people')).toBeInTheDocument();
    expect(screen.getAllByText('1 person')).toHaveLength(2); // Harbour Station and South Area
    expect(screen.getByRole('button', { name: 'Actions for Red Watch' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'All organisations' }));
    expect(screen.getByRole('table', { name: 'Organisations' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=organisation');
    // Focus returns once the list has rendered again (an effect after the navigation).
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'View units of Northshire Police' })).toHaveFocus());
  });

  it('shows an organisation administrator their own organisation\'s tree directly', () => {
    renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded });
    expect(screen.queryByRole('table', { name: 'Organisations' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add organisation' })).toBeNull();
    expect(screen.getByRole('heading', { name: /Northshire Police/ })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Units of Northshire Police' })).toBeInTheDocument();
  });

  it('shows the organisation\'s SCIM base URL and tokens: a live one with its revoke button, a revoked one with its date', () => {
    renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded });
    const panel = within(screen.getByRole('region', { name: 'Automatic provisioning (SCIM)' }));
    expect(panel.getByLabelText('SCIM base URL')).toHaveValue(scim.baseUrl);
    const table = within(panel.getByRole('table', { name: 'SCIM tokens of Northshire Police' }));
    const live = table.getByRole('row', { name: /Entra ID provisioning/ });
    expect(within(live).getByText('…x7Qa')).toBeInTheDocument();
    expect(within(live).getByText('27 November 2026 at 14:05')).toBeInTheDocument();
    expect(within(live).getByRole('button', { name: 'Revoke Entra ID provisioning' })).toBeInTheDocument();
    const revoked = table.getByRole('row', { name: /Old connector/ });
    expect(within(revoked).getByText('Revoked 19 November 2026')).toBeInTheDocument();
    expect(within(revoked).getByText('Never')).toBeInTheDocument();
    expect(within(revoked).queryByRole('button')).toBeNull();
  });

  it('asks for a name before creating a SCIM token', async () => {
    const { user } = renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded });
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create a SCIM token' }));
    await user.click(dialog.getByRole('button', { name: 'Create token' }));
    expect(await dialog.findByText('Give the token a label, such as "Microsoft Entra ID"')).toBeInTheDocument();
    expect(dialog.getByLabelText(/^Label/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers every unit but the one moved and those below it as its new parent, and the top level', async () => {
    const { user } = renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded });
    await user.click(screen.getByRole('button', { name: 'Actions for North Area' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Move' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Move North Area' }));
    await user.click(dialog.getByRole('combobox', { name: 'New parent unit' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Top level (no parent unit)', 'South Area']);

    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Actions for North Area' })).toHaveFocus());
  });

  it('asks for a name before adding a unit under another', async () => {
    const { user } = renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded });
    await user.click(screen.getByRole('button', { name: 'Actions for Central Station' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Add a unit under it' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a unit under Central Station' }));
    await user.click(dialog.getByRole('button', { name: 'Add unit' }));
    expect(await dialog.findByText('Name is required')).toBeInTheDocument();
    // The shared name rule: no invisible or bidirectional characters.
    await user.type(dialog.getByLabelText('Name'), 'Red\u202eWatch');
    await user.click(dialog.getByRole('button', { name: 'Add unit' }));
    expect(await dialog.findByText('Name may not contain invisible or control characters')).toBeInTheDocument();
  });
});
