// Organisations, units and managers in the Users tab, without a server (the answers are put in the query cache as the server
// gives them): once there are organisations, a national administrator filters by organisation, unit
// and manager and sees them in columns; the user dialog edits them (the unit list shows paths, the
// manager is chosen among the organisation's people); an organisation's administrator has no
// organisation filter or column, cannot change a person's organisation and adds no single account.
// With no organisation at all the tab is as it was.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UserList, UserListItem } from '@shared/admin.ts';
import type { CurrentUser } from '@shared/domain.ts';
import type { Organisation, Unit } from '@shared/organisations.ts';
import { i18n } from '@/lib/i18n/i18n';
import { adminKeys, organisationKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { UsersTab } from './UsersTab';

const ORG = '10000000-0000-4000-8000-000000000001';
const NORTH = '20000000-0000-4000-8000-000000000001';
const CENTRAL = '20000000-0000-4000-8000-000000000002';
const organisations: Organisation[] = [
  { id: ORG, name: 'Northshire Police', code: 'NSP', service: 'UKPS', createdAt: '2026-01-01T00:00:00.000Z', people: 4 },
];
const units: Unit[] = [
  { id: NORTH, organisationId: ORG, parentId: null, name: 'North Area', people: 0 },
  { id: CENTRAL, organisationId: ORG, parentId: NORTH, name: 'Central Station', people: 2 },
];
const lead: UserListItem = {
  ...makeUser({ id: '30000000-0000-4000-8000-000000000001', username: 'sergeant', name: 'Sam Sergeant', organisationId: ORG, unitId: CENTRAL }),
  organisationName: 'Northshire Police', unitName: 'Central Station',
};
const constable: UserListItem = {
  ...makeUser({
    id: '30000000-0000-4000-8000-000000000002', username: 'constable', name: 'Casey Constable', email: 'casey@example.org',
    organisationId: ORG, unitId: CENTRAL, managerId: lead.id,
  }),
  organisationName: 'Northshire Police', unitName: 'Central Station', managerName: 'Sam Sergeant',
};
const national: CurrentUser = { ...makeUser({ id: '40000000-0000-4000-8000-000000000001', role: 'ADMIN', name: 'Nat Admin' }), hasReports: false };
const orgAdmin: CurrentUser = {
  ...makeUser({ id: '40000000-0000-4000-8000-000000000002', role: 'ADMIN', name: 'Olive Orgadmin', organisationId: ORG }),
  organisation: { id: ORG, name: 'Northshire Police', code: 'NSP' },
  hasReports: false,
};

const list = (items: UserListItem[]): UserList => ({ items, total: items.length, page: 1, pageSize: 20, moreMatches: false });
const firstPage = {
  search: '', service: null, role: null, status: null, organisationId: null, unitId: null, managerId: null, page: 1, pageSize: 20,
};

function seed(withOrganisations: boolean): [readonly unknown[], unknown][] {
  return [
    [adminKeys.userList(firstPage), list(withOrganisations ? [constable, lead] : [{ ...makeUser() }])],
    [organisationKeys.list(), withOrganisations ? organisations : []],
    [organisationKeys.units(ORG), units],
    [adminKeys.people(ORG, ''), list([lead, constable])],
    [adminKeys.people(ORG, 'sergeant'), list([lead])],
  ];
}

describe('Users tab: organisations, units and managers', () => {
  it('gives a national administrator labelled filters and columns for organisation, unit and manager', async () => {
    renderWithProviders(<UsersTab currentUserId={national.id} />, { user: national, queryData: seed(true) });
    const table = await screen.findByRole('table', { name: 'Users' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Email', 'Services', 'Role', 'Organisation', 'Unit', 'Manager', 'Joined', 'Actions']);
    const row = within(table).getByText('Casey Constable').closest('tr')!;
    expect(within(row).getByText('Northshire Police')).toBeInTheDocument();
    expect(within(row).getByText('Central Station')).toBeInTheDocument();
    expect(within(row).getByText('Sam Sergeant')).toBeInTheDocument();
    // Every filter is a labelled input; unit and manager wait for an organisation.
    expect(screen.getByLabelText('Organisation', { selector: 'input' })).toBeEnabled();
    expect(screen.getByLabelText('Unit', { selector: 'input' })).toBeDisabled();
    expect(screen.getByLabelText('Manager', { selector: 'input' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add New User' })).toBeInTheDocument();
  });

  it('edits the organisation, unit (by its path, from the keyboard) and manager in the user dialog', async () => {
    const { user } = renderWithProviders(<UsersTab currentUserId={national.id} />, { user: national, queryData: seed(true) });
    await user.click(await screen.findByRole('button', { name: 'Edit Casey Constable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    const organisation = within(dialog).getByLabelText('Organisation', { selector: 'input' });
    expect(organisation).toHaveValue('Northshire Police (NSP)');
    expect(organisation).toBeEnabled();
    const unit = within(dialog).getByLabelText('Unit', { selector: 'input' });
    expect(unit).toHaveValue('North Area / Central Station');
    expect(within(dialog).getByLabelText('Manager', { selector: 'input' })).toHaveValue('Sam Sergeant (@sergeant)');

    // Keyboard: focus the unit, open its list (every unit, by its path), type to narrow it, choose.
    unit.focus();
    await user.keyboard('{ArrowDown}');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['North Area', 'North Area / Central Station']);
    await user.clear(unit);
    await user.keyboard('North');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(unit).toHaveValue('North Area');

    // The manager is one of the organisation's people, never the person themselves.
    await user.click(within(dialog).getByLabelText('Manager', { selector: 'input' }));
    const people = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(people).toContain('Sam Sergeant (@sergeant)');
    expect(people.some((text) => text?.includes('@constable'))).toBe(false);
  });

  it('keeps an organisation\'s administrator to their organisation', async () => {
    // The organisations an organisation's administrator is given: their own.
    const { user } = renderWithProviders(<UsersTab currentUserId={orgAdmin.id} />, { user: orgAdmin, queryData: seed(true) });
    const table = await screen.findByRole('table', { name: 'Users' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Email', 'Services', 'Role', 'Unit', 'Manager', 'Joined', 'Actions']);
    expect(screen.queryByLabelText('Organisation', { selector: 'input' })).toBeNull();
    expect(screen.getByLabelText('Unit', { selector: 'input' })).toBeEnabled();
    expect(screen.getByLabelText('Manager', { selector: 'input' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Add New User' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit Casey Constable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByLabelText('Organisation', { selector: 'input' })).toBeDisabled();
    expect(within(dialog).getByText('Only a national administrator moves a person to another organisation.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Unit', { selector: 'input' })).toBeEnabled();
    // Services: the organisation's own to grant, and the one the person already has, to take away.
    const services = within(within(dialog).getByRole('group', { name: 'Services' })).getAllByRole('checkbox');
    expect(services.map((box) => box.getAttribute('value'))).toEqual(['UKPS', 'MISC']);
  });

  it('offers a national administrator every service in the user dialog', async () => {
    const { user } = renderWithProviders(<UsersTab currentUserId={national.id} />, { user: national, queryData: seed(true) });
    await user.click(await screen.findByRole('button', { name: 'Edit Casey Constable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    const services = within(within(dialog).getByRole('group', { name: 'Services' })).getAllByRole('checkbox');
    expect(services.map((box) => box.getAttribute('value'))).toEqual(['UKPS', 'UKAS', 'UKFRS', 'UKHW', 'AUX', 'MISC']);
  });

  it('is as it was when there is no organisation', async () => {
    renderWithProviders(<UsersTab currentUserId={national.id} />, { user: national, queryData: seed(false) });
    const table = await screen.findByRole('table', { name: 'Users' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Email', 'Services', 'Role', 'Joined', 'Actions']);
    expect(screen.queryByLabelText('Unit', { selector: 'input' })).toBeNull();
  });

  it('speaks Welsh: filters, columns, actions, badges and the user dialog', async () => {
    await i18n.changeLanguage('cy');
    const deactivated = { ...constable, deactivatedAt: '2026-02-01T00:00:00.000Z' };
    const data = seed(true);
    data[0] = [adminKeys.userList(firstPage), list([deactivated, lead])];
    const { user } = renderWithProviders(<UsersTab currentUserId={national.id} />, { user: national, queryData: data });
    const table = await screen.findByRole('table', { name: 'Defnyddwyr' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Enw', 'E-bost', 'Gwasanaethau', 'Rôl', 'Sefydliad', 'Uned', 'Rheolwr', 'Ymunodd', 'Camau gweithredu']);
    expect(screen.getByLabelText('Chwilio am ddefnyddwyr')).toHaveAttribute('placeholder', 'Enw, enw defnyddiwr neu e-bost');
    expect(screen.getByLabelText('Gwasanaeth', { selector: 'input' })).toHaveValue('Pob gwasanaeth');
    expect(screen.getByLabelText('Rôl', { selector: 'input' })).toHaveValue('Pob rôl');
    expect(screen.getByLabelText('Statws', { selector: 'input' })).toHaveValue('Pob statws');
    expect(screen.getByLabelText('Uned', { selector: 'input' })).toHaveAttribute('placeholder', 'Pob uned');
    expect(screen.getByRole('button', { name: 'Ychwanegu defnyddiwr newydd' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Mewnforio defnyddwyr' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Allforio CSV' })).toBeInTheDocument();
    const row = within(table).getByText('Casey Constable').closest('tr')!;
    expect(within(row).getByText("Wedi'i ddadactifadu")).toBeInTheDocument();
    expect(within(row).getByText('Dysgwr')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Ailactifadu Casey Constable' })).toHaveTextContent('Ailactifadu');
    expect(within(row).getByRole('button', { name: 'Ailosod cyfrinair Casey Constable' })).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Cofnod dysgu Casey Constable' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Dileu Casey Constable' })).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Golygu Casey Constable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Golygu defnyddiwr' });
    expect(within(dialog).getByLabelText('Sefydliad', { selector: 'input' })).toHaveValue('Northshire Police (NSP)');
    expect(within(dialog).getByText('Teipiwch ran o enw, enw defnyddiwr neu e-bost person yn y sefydliad')).toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'Gwasanaethau' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: "Cadw'r newidiadau" })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Canslo' })).toBeInTheDocument();
    expect(dialog.textContent).not.toMatch(/Edit User|Organisation|Manager|Save Changes|Cancel/);
  });

  it('speaks Welsh when nothing is found', async () => {
    await i18n.changeLanguage('cy');
    const data = seed(false);
    data[0] = [adminKeys.userList(firstPage), list([])];
    renderWithProviders(<UsersTab currentUserId={national.id} />, { user: national, queryData: data });
    expect(await screen.findByText('Ni chafwyd hyd i unrhyw ddefnyddwyr')).toBeInTheDocument();
    expect(screen.getByText("Nid oes unrhyw ddefnyddwyr wedi'u cofrestru yn y system.")).toBeInTheDocument();
  });
});
