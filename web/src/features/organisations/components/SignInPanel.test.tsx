// The Organisation tab's sign-in panel, rendered with the API's answers in the cache (and writes
// answered by a fake fetch): what each kind of administrator may change, the shared schema's
// messages, the switch held off until a test sign-in passed, the test sign-ins as the provider sent
// them, and the test sign-in itself (supabase-js watched, no provider called).
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '@shared/domain.ts';
import type { Organisation } from '@shared/organisations.ts';
import type { OrganisationSignIn, SignInTest } from '@shared/sign-in.ts';
import { browserNavigation } from '@/lib/auth/organisation-sign-in';
import { organisationKeys } from '@/lib/query-keys';
import { loadSsoSupabase } from '@/lib/supabase';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { OrganisationTab } from './OrganisationTab';

const POLICE = 'a0000000-0000-4000-a000-000000000001';
const organisations: Organisation[] = [
  { id: POLICE, name: 'Northshire Police', code: 'NSP', service: 'UKPS', createdAt: '2026-11-01T00:00:00.000Z', people: 12 },
];
const national: CurrentUser = { ...makeUser({ role: 'ADMIN', username: 'admin', name: 'Admin' }), hasReports: false };
const orgAdmin: CurrentUser = {
  ...makeUser({ role: 'ADMIN', username: 'orgadmin', name: 'Org Admin', organisationId: POLICE }),
  organisation: { id: POLICE, name: 'Northshire Police', code: 'NSP' },
  hasReports: false,
};

const passed: SignInTest = {
  id: 'd0000000-0000-4000-a000-000000000001',
  createdAt: '2026-11-22T10:15:00.000Z',
  email: 'amira.khan@northshire.police.uk',
  passed: true,
  problem: null,
  received: { email: 'amira.khan@northshire.police.uk', department: 'Central Station', groups: ['officers', 'firearms'], tid: '6f1c2b7e-3d4a-4e8b-9c21-5a7d0e4f8b13' },
  mapped: { name: 'Amira Khan', unit: 'North Area › Central Station', manager: null, employeeNumber: 'NP1234', role: 'STUDENT', services: ['UKPS'], notes: ['No manager was sent'] },
};
const refused: SignInTest = {
  id: 'd0000000-0000-4000-a000-000000000002',
  createdAt: '2026-11-21T09:00:00.000Z',
  email: 'visitor@example.org',
  passed: false,
  problem: 'The address is not at one of the organisation\'s domains',
  received: {},
  mapped: { name: null, unit: null, manager: null, employeeNumber: null, role: null, services: [], notes: [] },
};

const provider = {
  redirectUri: 'https://learning.example/auth/v1/callback',
  samlEntityId: 'https://learning.example/auth/v1/sso/saml/metadata',
  samlAcsUrl: 'https://learning.example/auth/v1/sso/saml/acs',
};
const settings = (overrides: Partial<NonNullable<OrganisationSignIn['settings']>> = {}): NonNullable<OrganisationSignIn['settings']> => ({
  protocol: 'oidc',
  tenantId: '6f1c2b7e-3d4a-4e8b-9c21-5a7d0e4f8b13',
  samlMetadataUrl: null,
  samlRegistered: false,
  attributeMapping: { unit: 'department', employee_number: 'employeeid' },
  newPersonRole: 'STUDENT',
  newPersonServices: ['UKPS'],
  enabled: false,
  passwordSignIn: true,
  testedAt: null,
  updatedAt: '2026-11-20T09:00:00.000Z',
  ...overrides,
});
const signIn = (overrides: Partial<OrganisationSignIn> = {}): OrganisationSignIn => ({
  organisationId: POLICE,
  domains: ['northshire.police.uk'],
  settings: settings(),
  tests: [],
  provider,
  ...overrides,
});

const seeded = (answer: OrganisationSignIn) => [
  [organisationKeys.list(), organisations],
  [organisationKeys.units(POLICE), []],
  [organisationKeys.scim(POLICE), { baseUrl: 'https://learning.example/functions/v1/api/scim/v2', tokens: [] }],
  [organisationKeys.signIn(POLICE), answer],
] as const;

const panel = () => within(screen.getByRole('region', { name: /Sign-in through your identity provider/ }));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SignInPanel', () => {
  it('shows an organisation administrator the domains to read, with who adds them, and what to enter at Entra ID', () => {
    renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded(signIn()) });
    const p = panel();
    expect(p.getByRole('list', { name: 'Email domains of Northshire Police' })).toHaveTextContent('northshire.police.uk');
    expect(p.getByText(/A national administrator adds your organisation's domains, once they have confirmed that it owns them/)).toBeInTheDocument();
    expect(p.queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(p.queryByRole('textbox', { name: 'Email domain' })).toBeNull();
    expect(p.getByLabelText(/^Tenant id/)).toHaveValue('6f1c2b7e-3d4a-4e8b-9c21-5a7d0e4f8b13');
    expect(p.getByLabelText(/^Unit \(department\)/)).toHaveValue('department');
    expect(p.getByLabelText(/^Unit \(department\)/)).toHaveAccessibleDescription(/Usually department/);
    expect(p.getByLabelText(/^Redirect URI/)).toHaveValue(provider.redirectUri);
    expect(p.getByRole('button', { name: 'Copy the Redirect URI' })).toBeInTheDocument();
    expect(p.queryByLabelText(/^Entity ID/)).toBeNull();
  });

  it('lets a national administrator add a domain (the shared rule first) and remove one', async () => {
    const api = fakeApi({
      [`POST /organisations/${POLICE}/domains`]: ({ body }) => ({
        body: signIn({ domains: ['northshire.police.uk', (body as { domain: string }).domain] }),
      }),
      [`DELETE /organisations/${POLICE}/domains/northshire.police.uk`]: { body: signIn({ domains: ['nsp.police.uk'] }) },
    });
    const { user } = renderWithProviders(<OrganisationTab user={national} />, {
      user: national, route: `/admin?tab=organisation&organisation=${POLICE}`, queryData: seeded(signIn()),
    });
    const p = panel();
    expect(p.getByRole('button', { name: 'Remove northshire.police.uk' })).toBeInTheDocument();
    const input = p.getByRole('textbox', { name: 'Email domain' });
    await user.type(input, 'not a domain');
    await user.click(p.getByRole('button', { name: 'Add domain' }));
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Give a domain such as northshire.police.uk'));
    expect(api.requests).toHaveLength(0);

    await user.clear(input);
    await user.type(input, 'NSP.Police.UK');
    await user.click(p.getByRole('button', { name: 'Add domain' }));
    expect(await p.findByRole('button', { name: 'Remove nsp.police.uk' })).toBeInTheDocument();
    expect(api.requests[0]).toMatchObject({ method: 'POST', body: { domain: 'nsp.police.uk' } });
    expect(input).toHaveValue('');

    await user.click(p.getByRole('button', { name: 'Remove northshire.police.uk' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Are you sure?' }));
    expect(dialog.getByText(/People with addresses at northshire.police.uk can then no longer sign in/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Remove domain' }));
    await vi.waitFor(() => expect(p.queryByRole('button', { name: 'Remove northshire.police.uk' })).toBeNull());
    expect(api.requests[1]).toMatchObject({ method: 'DELETE' });
    await vi.waitFor(() => expect(input).toHaveFocus());
    expect(api.unanswered).toEqual([]);
  });

  it('checks the settings with the shared schema\'s messages, under each field, and shows the API\'s', async () => {
    const api = fakeApi({
      [`PUT /organisations/${POLICE}/sign-in`]: {
        status: 400, body: { message: 'Validation failed', fields: { samlMetadataUrl: 'The address did not answer with SAML metadata' } },
      },
    });
    const { user } = renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded(signIn({ settings: null })) });
    const p = panel();
    await user.click(p.getByRole('button', { name: 'Save settings' }));
    const tenant = p.getByLabelText(/^Tenant id/);
    expect(tenant).toHaveAccessibleDescription(expect.stringContaining('Give the Microsoft Entra ID tenant id'));
    expect(tenant).toHaveAttribute('aria-invalid', 'true');
    await vi.waitFor(() => expect(tenant).toHaveFocus());

    await user.type(tenant, 'northshire');
    await user.click(p.getByRole('button', { name: 'Save settings' }));
    expect(tenant).toHaveAccessibleDescription(expect.stringContaining('The tenant id is a GUID'));

    await user.click(p.getByRole('radio', { name: 'SAML 2.0' }));
    expect(p.getByLabelText(/^Entity ID/)).toHaveValue(provider.samlEntityId);
    expect(p.getByLabelText(/^Reply URL \(ACS URL\)/)).toHaveValue(provider.samlAcsUrl);
    await user.click(p.getByRole('button', { name: 'Save settings' }));
    const url = p.getByLabelText(/^Metadata URL/);
    expect(url).toHaveAccessibleDescription(expect.stringContaining('Give the metadata URL or paste the metadata XML'));
    expect(api.requests).toHaveLength(0);

    await user.type(url, 'https://login.example/metadata.xml');
    await user.click(p.getByRole('button', { name: 'Save settings' }));
    await vi.waitFor(() => expect(url).toHaveAccessibleDescription(expect.stringContaining('The address did not answer with SAML metadata')));
    expect(api.requests[0].body).toMatchObject({ protocol: 'saml', tenantId: null, samlMetadataUrl: 'https://login.example/metadata.xml' });
  });

  it('holds the switch off, saying why, until a test sign-in has passed', () => {
    renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded(signIn()) });
    const p = panel();
    const on = p.getByRole('switch', { name: /^Sign our people in through the identity provider/ });
    expect(on).toBeDisabled();
    expect(on).toHaveAccessibleDescription(expect.stringContaining('Run a test sign-in that passes before switching it on.'));
    const password = p.getByRole('checkbox', { name: 'Allow password sign-in for our people' });
    expect(password).toBeChecked();
    expect(password).toBeDisabled();
    expect(password).toHaveAccessibleDescription(expect.stringContaining('Administrators always keep their password'));
    expect(p.getByRole('button', { name: 'Test sign-in' })).toBeEnabled();
  });

  it('switches on once tested, and shows the API\'s refusal under the switch with the focus kept', async () => {
    fakeApi({
      [`POST /organisations/${POLICE}/sign-in/switch`]: { status: 409, body: { message: 'Run a test sign-in that passes before switching it on' } },
    });
    const { user } = renderWithProviders(<OrganisationTab user={orgAdmin} />, {
      user: orgAdmin, queryData: seeded(signIn({ settings: settings({ testedAt: '2026-11-22T10:15:00.000Z' }), tests: [passed] })),
    });
    const p = panel();
    const on = p.getByRole('switch', { name: /^Sign our people in through the identity provider/ });
    expect(on).toBeEnabled();
    expect(on).toHaveAccessibleDescription(expect.stringContaining('A test sign-in passed on 22 November 2026 at 10:15.'));
    await user.click(on);
    await vi.waitFor(() => expect(on).toHaveAccessibleDescription(expect.stringContaining('Run a test sign-in that passes before switching it on')));
    expect(on).not.toBeChecked();
    expect(on).toHaveFocus();
  });

  it('lists the latest test sign-ins: when, who, passed or the problem, the mapping and what the provider sent', async () => {
    const { user } = renderWithProviders(<OrganisationTab user={orgAdmin} />, { user: orgAdmin, queryData: seeded(signIn({ tests: [passed, refused] })) });
    const list = panel().getByRole('list', { name: 'Latest test sign-ins of Northshire Police' });
    const [first, second] = within(list).getAllByRole('listitem');
    const one = within(first);
    expect(one.getByText('22 November 2026 at 10:15')).toBeInTheDocument();
    expect(one.getByText('Passed')).toBeInTheDocument();
    const mapping = first.querySelector('dl')!;
    expect(mapping).toHaveTextContent('NameAmira Khan');
    expect(mapping).toHaveTextContent('UnitNorth Area › Central Station');
    expect(mapping).toHaveTextContent('ManagerNot sent');
    expect(mapping).toHaveTextContent('Employee numberNP1234');
    expect(mapping).toHaveTextContent('RoleStudent');
    expect(mapping).toHaveTextContent('ServicesUKPS');
    expect(mapping).toHaveTextContent('NotesNo manager was sent');

    const sent = one.getByText('What the provider sent');
    expect(sent.closest('details')).not.toHaveAttribute('open');
    await user.click(sent);
    expect(sent.closest('details')).toHaveAttribute('open');
    const claims = sent.closest('details')!.querySelector('dl')!;
    expect(claims).toHaveTextContent('departmentCentral Station');
    expect(claims).toHaveTextContent('groupsofficers, firearms');

    const two = within(second);
    expect(two.getByText('Not passed')).toBeInTheDocument();
    expect(two.getByText('The address is not at one of the organisation\'s domains')).toBeInTheDocument();
    expect(two.getByText('visitor@example.org')).toBeInTheDocument();
  });

  it('tests an OpenID Connect sign-in through Entra ID, back to this page, asking for the account', async () => {
    const sso = await loadSsoSupabase();
    const oauth = vi.spyOn(sso.auth, 'signInWithOAuth').mockResolvedValue({ data: { provider: 'azure', url: 'https://login.example/' }, error: null });
    const { user } = renderWithProviders(<OrganisationTab user={national} />, {
      user: national, route: `/admin?tab=organisation&organisation=${POLICE}`, queryData: seeded(signIn()),
    });
    await user.click(panel().getByRole('button', { name: 'Test sign-in' }));
    await vi.waitFor(() => expect(oauth).toHaveBeenCalledTimes(1));
    expect(oauth).toHaveBeenCalledWith({
      provider: 'azure',
      options: { redirectTo: `${window.location.origin}/admin?tab=organisation&organisation=${POLICE}`, queryParams: { prompt: 'login' }, scopes: 'email profile' },
    });
  });

  it('tests a SAML sign-in through the provider of the first domain', async () => {
    const sso = await loadSsoSupabase();
    const saml = vi.spyOn(sso.auth, 'signInWithSSO').mockResolvedValue({ data: { url: 'https://idp.example/saml?SAMLRequest=x' }, error: null });
    const leave = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    const { user } = renderWithProviders(<OrganisationTab user={orgAdmin} />, {
      user: orgAdmin, route: '/admin?tab=organisation',
      queryData: seeded(signIn({ settings: settings({ protocol: 'saml', tenantId: null, samlMetadataUrl: 'https://idp.example/metadata', samlRegistered: true }) })),
    });
    await user.click(panel().getByRole('button', { name: 'Test sign-in' }));
    await vi.waitFor(() => expect(leave).toHaveBeenCalledWith('https://idp.example/saml?SAMLRequest=x'));
    expect(saml).toHaveBeenCalledWith({ domain: 'northshire.police.uk', options: { redirectTo: `${window.location.origin}/admin?tab=organisation` } });
  });

  it('holds a SAML test until the organisation has a domain, saying why', () => {
    renderWithProviders(<OrganisationTab user={orgAdmin} />, {
      user: orgAdmin,
      queryData: seeded(signIn({ domains: [], settings: settings({ protocol: 'saml', tenantId: null, samlRegistered: true }) })),
    });
    const button = panel().getByRole('button', { name: 'Test sign-in' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('SAML finds your provider by the email domain: a national administrator must add one first.');
  });

  it('shows the test\'s answer when the provider sends the browser back, and takes it out of the address', async () => {
    const description = 'Test sign-in of amira.khan@northshire.police.uk recorded: the sign-in is being tested, nobody was signed in';
    const { router } = renderWithProviders(<OrganisationTab user={orgAdmin} />, {
      user: orgAdmin,
      route: `/admin?tab=organisation&error=access_denied&error_code=sign_in_tested&error_description=${encodeURIComponent(description)}#error=access_denied`,
      queryData: seeded(signIn({ tests: [passed] })),
    });
    const alert = panel().getByText('Test sign-in finished').closest('[tabindex="-1"]') as HTMLElement;
    expect(alert).toHaveTextContent(`${description} Its result is the first in the list below.`);
    await vi.waitFor(() => expect(router.state.location.search).toBe('?tab=organisation'));
    expect(router.state.location.hash).toBe('');
    expect(alert).toHaveFocus();
  });

  it('says so when the provider did not answer the test', async () => {
    renderWithProviders(<OrganisationTab user={orgAdmin} />, {
      user: orgAdmin, route: '/admin?tab=organisation&error=server_error&error_description=Error+reaching+the+identity+provider',
      queryData: seeded(signIn()),
    });
    expect(panel().getByText('Test sign-in did not finish')).toBeInTheDocument();
    expect(panel().getByText("Your organisation's sign-in is not answering. Try again, or sign in with your password.")).toBeInTheDocument();
  });
});
