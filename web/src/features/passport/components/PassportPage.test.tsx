// The training passport: each credential with its status and dates, the downloads, "Add to
// LinkedIn" with the credential's name, issuer, months and verification URL, the public share switch
// (PATCH, then its link, to the page that checks it, with a copy button), the held credentials with Remove, and "Add a credential"
// (sent as pasted; the server's reason shown under the box when it refuses).
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiBaseUrl } from '@/lib/api-client';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import { fakeApi } from '@/test/fake-api';
import { passportKeys } from '@/lib/query-keys';
import type { HeldCredential } from '../api/get-held-credentials';
import type { PassportCredential } from '../api/get-passport';
import { linkedInAddUrl } from '../lib/linkedin';
import { PassportPage } from './PassportPage';

const USER = makeUser({ name: 'Priya Sharma' });
const valid: PassportCredential = {
  id: 'cr1',
  verificationCode: 'ABCD1234EFGH5678',
  courseTitle: 'Manual Handling for Ambulance Crews',
  achievementName: 'Manual Handling (Core Skills)',
  certificateId: 'c1',
  issuerId: 'o1',
  issuerName: 'Southshire Ambulance Service NHS Trust',
  issuedAt: '2026-11-22T10:00:00.000Z',
  validUntil: '2027-11-22T10:00:00.000Z',
  status: 'valid',
  signed: true,
  shareEnabled: false,
  shareUrl: null,
  verifyUrl: 'https://learn.example/verify/ABCD1234EFGH5678',
};
const revoked: PassportCredential = {
  ...valid,
  id: 'cr2',
  verificationCode: 'ZZZZ1234EFGH5678',
  achievementName: 'JESIP Awareness',
  courseTitle: 'JESIP Awareness',
  status: 'revoked',
};
const page = (items: PassportCredential[]) => ({ items, total: items.length, page: 1, pageSize: 12 });
const held: HeldCredential[] = [{
  id: 'h1', issuerId: 'https://badges.example/issuers/1', issuerName: 'Eastshire Ambulance', achievementId: 'urn:uuid:a1', achievementName: 'Conflict Resolution',
  validFrom: '2026-01-05T10:00:00.000Z', validUntil: '2028-01-05T10:00:00.000Z', state: 'valid', codes: [], verifiedAt: '2026-11-28T10:00:00.000Z',
}];

const show = (credentials = [valid, revoked], heldItems = held) =>
  renderWithProviders(<PassportPage userId={USER.id} />, {
    user: USER,
    queryData: [[passportKeys.credentials(USER.id, 1), page(credentials)], [passportKeys.held(USER.id), { items: heldItems }]],
  });
const card = (name: string) => within(screen.getByRole('article', { name }));

afterEach(() => vi.restoreAllMocks());

describe('PassportPage', () => {
  it('shows each credential with its status and dates, and no LinkedIn or sharing for a revoked one', () => {
    show();
    const one = card('Manual Handling (Core Skills)');
    expect(one.getByText('Course: Manual Handling for Ambulance Crews')).toBeInTheDocument();
    expect(one.getByText('Issued by Southshire Ambulance Service NHS Trust on 22 November 2026')).toBeInTheDocument();
    expect(one.getByText('Valid')).toBeInTheDocument();
    expect(one.getByText('Valid until 22 November 2027')).toBeInTheDocument();
    expect(one.getByRole('link', { name: /Add to LinkedIn/ })).toHaveAttribute('target', '_blank');
    const other = card('JESIP Awareness');
    expect(other.getByText('Revoked by its issuer: it no longer proves the achievement.')).toBeInTheDocument();
    expect(other.queryByRole('link', { name: /Add to LinkedIn/ })).toBeNull();
    expect(other.getByRole('switch', { name: 'Public link' })).toBeDisabled();
    expect(other.getByRole('link', { name: 'Check it by its code ZZZZ1234EFGH5678' })).toHaveAttribute('href', '/verify/ZZZZ1234EFGH5678');
  });

  it("builds LinkedIn's add-to-profile link with the name, issuer, London months and the verification URL", () => {
    show();
    const href = card('Manual Handling (Core Skills)').getByRole('link', { name: /Add to LinkedIn/ }).getAttribute('href')!;
    const url = new URL(href);
    expect(url.origin + url.pathname).toBe('https://www.linkedin.com/profile/add');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: 'Manual Handling (Core Skills)',
      organizationName: 'Southshire Ambulance Service NHS Trust',
      issueYear: '2026',
      issueMonth: '11',
      expirationYear: '2027',
      expirationMonth: '11',
      certUrl: 'https://learn.example/verify/ABCD1234EFGH5678',
      certId: 'ABCD1234EFGH5678',
    });
    // Half past midnight on 1 July in London is still 30 June in UTC: the month is London's.
    const edge = new URL(linkedInAddUrl({ name: 'x', organisation: 'y', issuedAt: '2026-06-30T23:30:00.000Z', validUntil: null, certUrl: 'https://a', certId: 'b' }));
    expect(edge.searchParams.get('issueMonth')).toBe('7');
    expect(edge.searchParams.has('expirationYear')).toBe(false);
  });

  it('switches the public link on, then shows it with a copy button; LinkedIn then points at it', async () => {
    const shared = { ...valid, shareEnabled: true, shareUrl: `${apiBaseUrl}/credentials/shared/0123456789abcdef` };
    const sharePage = `${window.location.origin}/verify-credential?shared=0123456789abcdef`;
    const api = fakeApi({
      'PATCH /passport/cr1': { body: { id: 'cr1', shareEnabled: true, shareUrl: shared.shareUrl } },
      'GET /passport': { body: page([shared, revoked]) },
      'GET /passport/held?pageSize=100': { body: { items: held } },
    });
    const { user } = show();
    const toggle = card('Manual Handling (Core Skills)').getByRole('switch', { name: 'Public link' });
    await user.click(toggle);
    expect(api.requests[0]).toMatchObject({ method: 'PATCH', path: '/passport/cr1', body: { shareEnabled: true } });
    const link = await card('Manual Handling (Core Skills)').findByRole('textbox', { name: 'Public link to this credential' });
    expect(link).toHaveValue(sharePage);
    expect(toggle).toHaveFocus();
    expect(card('Manual Handling (Core Skills)').getByRole('button', { name: 'Copy the public link to Manual Handling (Core Skills)' })).toBeInTheDocument();
    const href = new URL(card('Manual Handling (Core Skills)').getByRole('link', { name: /Add to LinkedIn/ }).getAttribute('href')!);
    expect(href.searchParams.get('certUrl')).toBe(sharePage);
  });

  it('lists held credentials and removes one after confirming', async () => {
    const api = fakeApi({
      'DELETE /passport/held/h1': { status: 204 },
      'GET /passport': { body: page([valid, revoked]) },
      'GET /passport/held?pageSize=100': { body: { items: [] } },
    });
    const { user } = show();
    const held = within(screen.getByRole('region', { name: 'Credentials from other issuers' }));
    expect(held.getByText('Conflict Resolution')).toBeInTheDocument();
    expect(held.getByText('Issued by Eastshire Ambulance')).toBeInTheDocument();
    expect(held.getByText(/Valid until 5 January 2028/)).toBeInTheDocument();
    await user.click(held.getByRole('button', { name: 'Remove Conflict Resolution' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'DELETE' && r.path === '/passport/held/h1')).toBe(true));
    expect(await held.findByText('You have not added any.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Credentials from other issuers' })).toHaveFocus());
  });

  it("adds a pasted credential, and shows the server's reason when it refuses one", async () => {
    let attempt = 0;
    const api = fakeApi({
      'POST /passport/held': () =>
        ++attempt === 1
          ? { status: 400, body: { message: 'Invalid credential', fields: { credential: 'This credential has been changed since it was signed' } } }
          : { status: 201, body: { heldCredential: { ...held[0], id: 'h2', achievementName: 'Safeguarding Adults' } } },
      'GET /passport': { body: page([valid, revoked]) },
      'GET /passport/held?pageSize=100': { body: { items: held } },
    });
    const { user } = show();
    const form = within(screen.getByRole('form', { name: 'Add a credential' }));
    await user.click(form.getByRole('textbox', { name: 'Credential (JSON)' }));
    await user.paste('{"type":["VerifiableCredential","OpenBadgeCredential"]}');
    await user.click(form.getByRole('button', { name: 'Add credential' }));
    expect(await form.findByText('This credential has been changed since it was signed')).toBeInTheDocument();
    await user.click(form.getByRole('button', { name: 'Add credential' }));
    await waitFor(() => expect(form.getByRole('textbox', { name: 'Credential (JSON)' })).toHaveValue(''));
    expect(api.requests.filter((r) => r.method === 'POST')[0]!.body).toEqual({ type: ['VerifiableCredential', 'OpenBadgeCredential'] });
  });

  it('says so when there are no credentials yet', () => {
    show([], []);
    expect(screen.getByText(/No credentials yet/)).toBeInTheDocument();
    expect(screen.getByText('You have not added any.')).toBeInTheDocument();
  });

  it('speaks Welsh, dates included', async () => {
    await i18n.changeLanguage('cy');
    show();
    expect(screen.getByRole('heading', { name: 'Pasbort hyfforddiant', level: 1 })).toBeInTheDocument();
    const one = card('Manual Handling (Core Skills)');
    expect(one.getByText('Cyhoeddwyd gan Southshire Ambulance Service NHS Trust ar 22 Tachwedd 2026')).toBeInTheDocument();
    expect(one.getByRole('button', { name: 'Lawrlwytho JSON' })).toBeInTheDocument();
    expect(one.getByRole('switch', { name: 'Dolen gyhoeddus' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Ychwanegu tystlythyr' })).toBeInTheDocument();
  });
});
