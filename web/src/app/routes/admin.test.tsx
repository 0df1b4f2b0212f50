// The Admin Dashboard as its route composes it (the organisations' tab handed in): the tabs each kind
// of administrator sees, and the organisation administrator's own units on the Organisation tab.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@shared/domain.ts';
import type { Organisation, Unit } from '@shared/organisations.ts';
import { makeUser, renderWithProviders } from '@/test/render';
import { organisationKeys } from '@/lib/query-keys';
import { AdminRoute } from './admin';

const POLICE = 'a0000000-0000-4000-a000-000000000001';
const organisations: Organisation[] = [
  { id: POLICE, name: 'Northshire Police', code: 'NSP', service: 'UKPS', createdAt: '2026-11-01T00:00:00.000Z', people: 12 },
];
const units: Unit[] = [
  { id: 'b0000000-0000-4000-a000-000000000001', organisationId: POLICE, parentId: null, name: 'North Area', people: 7 },
];

const national: CurrentUser = { ...makeUser({ role: 'ADMIN', username: 'admin', name: 'Admin' }), hasReports: false };
const orgAdmin: CurrentUser = {
  ...makeUser({ role: 'ADMIN', username: 'orgadmin', name: 'Org Admin', organisationId: POLICE }),
  organisation: { id: POLICE, name: 'Northshire Police', code: 'NSP' },
  hasReports: false,
};

const seeded = [[organisationKeys.list(), organisations], [organisationKeys.units(POLICE), units]] as const;

describe('AdminDashboard tabs', () => {
  const tabs = () => screen.getAllByRole('tab').map((t) => t.textContent);

  it('a national administrator sees every tab, Organisations among them', () => {
    renderWithProviders(<AdminRoute />, {
      user: national, route: '/admin?tab=organisation', queryData: seeded,
    });
    expect(tabs()).toEqual(['Users', 'Organisations', 'Courses', 'Permissions', 'Settings', 'Activity', 'Required training', 'Recognised training', 'Certificates', 'Delivery']);
    expect(screen.getByRole('tab', { name: 'Organisations' })).toHaveAttribute('aria-selected', 'true');
  });

  it('an organisation administrator sees only the tabs they can use, and no national one even by URL', () => {
    renderWithProviders(<AdminRoute />, {
      user: orgAdmin, route: '/admin?tab=organisation', queryData: seeded,
    });
    expect(tabs()).toEqual(['Users', 'Organisation', 'Courses', 'Required training', 'Recognised training', 'Delivery']);
    expect(screen.getByText(/of Northshire Police\.$/)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Units of Northshire Police' })).toBeInTheDocument();
  });

  it('sends an organisation administrator asking for a national tab to Users', () => {
    renderWithProviders(<AdminRoute />, {
      user: orgAdmin, route: '/admin?tab=settings', queryData: seeded,
    });
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('tab', { name: 'Settings' })).toBeNull();
  });
});
