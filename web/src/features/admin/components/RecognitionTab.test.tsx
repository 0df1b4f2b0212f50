// Recognised training for an organisation's administrator: the trusted issuers and equivalences
// listed; an issuer trusted from a pasted credential (its id and name read from it); an equivalence
// of that issuer's achievement to the organisation's course, filled in from the same credential; an
// issuer named in a credential but not trusted refused before anything is sent; removing asks first.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '@shared/domain.ts';
import type { Equivalence, TrustedIssuer } from '@shared/recognition.ts';
import { recognitionKeys } from '@/lib/query-keys';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { RecognitionTab } from './RecognitionTab';

const ORG = '10000000-0000-4000-8000-000000000001';
const COURSE = '50000000-0000-4000-8000-000000000001';
const SOUTHSHIRE = 'https://learn.example/functions/v1/api/issuers/20000000-0000-4000-8000-000000000001';
const ACHIEVEMENT = 'https://learn.example/functions/v1/api/courses/60000000-0000-4000-8000-000000000001/achievement';
const orgAdmin: CurrentUser = {
  ...makeUser({ id: '40000000-0000-4000-8000-000000000002', role: 'ADMIN', name: 'Olive Orgadmin', organisationId: ORG }),
  organisation: { id: ORG, name: 'Eastshire Ambulance Service', code: 'EAS' },
  hasReports: false,
};
const credential = {
  '@context': ['https://www.w3.org/ns/credentials/v2'],
  type: ['VerifiableCredential', 'OpenBadgeCredential'],
  issuer: { id: SOUTHSHIRE, type: ['Profile'], name: 'Southshire Ambulance Service NHS Trust' },
  credentialSubject: { type: ['AchievementSubject'], achievement: { id: ACHIEVEMENT, type: ['Achievement'], name: 'Manual Handling (Core Skills)' } },
};
const trusted: TrustedIssuer = { id: 't1', organisationId: ORG, issuerId: SOUTHSHIRE, name: 'Southshire Ambulance Service NHS Trust', platformIssuer: '20000000-0000-4000-8000-000000000001', createdAt: '2026-11-30T09:00:00.000Z' };
const equivalence: Equivalence = {
  id: 'e1', organisationId: ORG, course: { id: COURSE, title: 'Moving and Handling' }, issuerId: SOUTHSHIRE, issuerName: trusted.name,
  achievementId: ACHIEVEMENT, achievementName: 'Manual Handling (Core Skills)', platformCourseId: '60000000-0000-4000-8000-000000000001', createdAt: '2026-11-30T09:05:00.000Z',
};

const show = (issuers: TrustedIssuer[], equivalences: Equivalence[]) =>
  renderWithProviders(<RecognitionTab user={orgAdmin} />, {
    user: orgAdmin,
    queryData: [[recognitionKeys.trustedIssuers(null), { items: issuers }], [recognitionKeys.equivalences(null), { items: equivalences }]],
  });

async function paste(user: ReturnType<typeof show>['user'], scope: ReturnType<typeof within>, json: unknown) {
  await user.click(scope.getByRole('button', { name: 'Fill in from a credential' }));
  await user.click(scope.getByRole('textbox', { name: 'Credential (JSON)' }));
  await user.paste(JSON.stringify(json));
  await user.click(scope.getByRole('button', { name: 'Use this credential' }));
}

afterEach(() => vi.restoreAllMocks());

describe('RecognitionTab', () => {
  it('lists what the organisation trusts and accepts, and removes an equivalence after asking', async () => {
    const api = fakeApi({ 'DELETE /recognition/equivalences/e1': { status: 204 }, 'GET /recognition/equivalences': { body: { items: [] } }, 'GET /recognition/trusted-issuers': { body: { items: [trusted] } } });
    const { user } = show([trusted], [equivalence]);
    const issuers = within(screen.getByRole('table', { name: 'Trusted issuers' }));
    expect(issuers.getByText('On this platform')).toBeInTheDocument();
    expect(issuers.getByText(SOUTHSHIRE)).toBeInTheDocument();
    const row = within(screen.getByRole('table', { name: 'Equivalent courses' })).getByText('Moving and Handling').closest('tr')!;
    expect(row).toHaveTextContent('Manual Handling (Core Skills)');
    await user.click(within(row).getByRole('button', { name: 'Remove Manual Handling (Core Skills) as Moving and Handling' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'DELETE' && r.path === '/recognition/equivalences/e1')).toBe(true));
    expect(await screen.findByText('No equivalences yet.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Equivalent courses' })).toHaveFocus());
  });

  it("trusts an issuer read from a new joiner's credential", async () => {
    const api = fakeApi({ 'POST /recognition/trusted-issuers': { status: 201, body: trusted }, 'GET /recognition/trusted-issuers': { body: { items: [trusted] } }, 'GET /recognition/equivalences': { body: { items: [] } } });
    const { user } = show([], []);
    expect(screen.getByText('Trust an issuer first: equivalences name one of your trusted issuers.')).toBeInTheDocument();
    const form = within(screen.getByRole('form', { name: 'Trust an issuer' }));
    await paste(user, form, credential);
    expect(form.getByRole('textbox', { name: /Issuer's name/ })).toHaveValue('Southshire Ambulance Service NHS Trust');
    expect(form.getByRole('textbox', { name: /Issuer's id/ })).toHaveValue(SOUTHSHIRE);
    await user.click(form.getByRole('button', { name: 'Trust an issuer' }));
    await waitFor(() => expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ issuerId: SOUTHSHIRE, name: 'Southshire Ambulance Service NHS Trust' }));
    expect(await within(await screen.findByRole('table', { name: 'Trusted issuers' })).findByText(SOUTHSHIRE)).toBeInTheDocument();
  });

  it("adds an equivalence filled in from the credential; an issuer it does not trust is refused", async () => {
    const api = fakeApi({
      'POST /recognition/equivalences': { status: 201, body: equivalence },
      'GET /recognition/equivalences': { body: { items: [equivalence] } },
      'GET /recognition/trusted-issuers': { body: { items: [trusted] } },
      'GET /courses': { body: { items: [{ id: COURSE, title: 'Moving and Handling' }], total: 1, page: 1, pageSize: 20 } },
    });
    const { user } = show([trusted], []);
    const form = within(screen.getByRole('form', { name: 'Add an equivalence' }));
    await paste(user, form, { ...credential, issuer: { id: 'https://elsewhere.example/issuer', name: 'Elsewhere Training Ltd' } });
    expect(form.getByText('Elsewhere Training Ltd is not a trusted issuer: trust it first')).toBeInTheDocument();
    await paste(user, form, credential);
    expect(form.getByRole('textbox', { name: /Achievement's name/ })).toHaveValue('Manual Handling (Core Skills)');
    expect(form.getByRole('textbox', { name: /Achievement's id/ })).toHaveValue(ACHIEVEMENT);
    await user.click(form.getByRole('button', { name: 'Add an equivalence' }));
    expect(form.getByText('Choose a course')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.click(form.getByRole('combobox', { name: /Your course/ }));
    await user.click(await screen.findByRole('option', { name: 'Moving and Handling' }));
    await user.click(form.getByRole('button', { name: 'Add an equivalence' }));
    await waitFor(() => expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({
      courseId: COURSE, issuerId: SOUTHSHIRE, achievementId: ACHIEVEMENT, achievementName: 'Manual Handling (Core Skills)',
    }));
  });
});
