// The "Verify a credential" page: what the browser refuses before sending (empty, not JSON, not an
// object), the credential sent as pasted, and each verdict of the server's answer in plain words:
// verified, tampered, revoked, expired, another's key, with every check listed and the
// focus on the result's heading.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { fakeApi } from '@/test/fake-api';
import type { CredentialVerification } from '../api/verify-credential';
import { VerifyCredentialPage } from './VerifyCredentialPage';

const CREDENTIAL = { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential', 'OpenBadgeCredential'], name: 'JESIP Awareness' };

const allPassed = { schema: 'passed', proof: 'passed', issuerKey: 'passed', status: 'passed', dates: 'passed' } as const;
const answer = (over: Partial<CredentialVerification>): CredentialVerification => ({
  verified: true,
  codes: [],
  checks: allPassed,
  schemaErrors: [],
  credentialId: 'urn:uuid:1',
  issuer: { id: 'https://learn.example/api/issuers/o1', name: 'Northshire Police' },
  achievement: { id: 'https://learn.example/api/courses/k1/achievement', name: 'JESIP Awareness' },
  verificationMethod: 'https://learn.example/api/issuers/o1/keys/k1',
  validFrom: '2026-03-03T10:00:00.000Z',
  validUntil: '2027-03-03T10:00:00.000Z',
  ...over,
});

async function verify(json: string, response: CredentialVerification) {
  const api = fakeApi({ 'POST /credentials/verify': { body: response } });
  const view = renderWithProviders(<VerifyCredentialPage />);
  const box = screen.getByRole('textbox', { name: 'Credential (JSON)' });
  await view.user.click(box);
  await view.user.paste(json);
  await view.user.click(screen.getByRole('button', { name: 'Verify' }));
  const heading = await screen.findByRole('heading', { level: 2 });
  return { ...view, api, heading };
}

afterEach(() => vi.restoreAllMocks());

describe('VerifyCredentialPage', () => {
  it('refuses what is not a credential before sending anything', async () => {
    const api = fakeApi({});
    const { user } = renderWithProviders(<VerifyCredentialPage />);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Paste a credential or upload its .json file')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Credential (JSON)' }), 'not json');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('This is not JSON: paste the whole credential, from { to }')).toBeInTheDocument();
    await user.clear(screen.getByRole('textbox', { name: 'Credential (JSON)' }));
    await user.paste('[1, 2]');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('A credential is a JSON object, from { to }')).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it('sends the credential as pasted and says a good one is verified, with what it does not prove', async () => {
    const { api, heading } = await verify(JSON.stringify(CREDENTIAL), answer({}));
    expect(api.requests[0]!.body).toEqual(CREDENTIAL);
    expect(heading).toHaveTextContent('Verified');
    await waitFor(() => expect(heading).toHaveFocus());
    const result = within(screen.getByRole('region', { name: 'Verified' }));
    expect(result.getByTestId('verdict')).toHaveTextContent('Signed by Northshire Police; valid until 3 March 2027.');
    expect(result.getByText('Northshire Police awarded “JESIP Awareness” to the person the credential names.')).toBeInTheDocument();
    expect(result.getByText(/That the person showing it is the person it was awarded to/)).toBeInTheDocument();
    const checks = within(result.getByRole('list', { name: 'Checks' })).getAllByRole('listitem');
    expect(checks.map((c) => c.textContent)).toEqual([
      'Open Badges 3.0 data model: passed',
      'Signature: passed',
      "Issuer's public key: passed",
      'Revocation list: passed',
      'Dates: passed',
    ]);
  });

  it('says a changed credential proves nothing, naming the failed check', async () => {
    const given = { ...allPassed, proof: 'failed', status: 'not-checked', dates: 'not-checked' } as const;
    await verify(JSON.stringify(CREDENTIAL), answer({ verified: false, codes: ['tampered'], checks: given }));
    const result = within(screen.getByRole('region', { name: 'Changed since it was signed' }));
    expect(result.getByTestId('verdict')).toHaveTextContent('Someone has changed this credential since Northshire Police signed it');
    expect(result.queryByText('What it proves')).toBeNull();
    expect(result.getByText('Anything: do not rely on it.')).toBeInTheDocument();
    const checks = within(result.getByRole('list', { name: 'Checks' })).getAllByRole('listitem').map((c) => c.textContent);
    expect(checks).toEqual([
      'Open Badges 3.0 data model: passed',
      'Signature: failed',
      "Issuer's public key: passed",
      'Revocation list: not checked',
      'Dates: not checked',
    ]);
  });

  it.each([
    [['revoked'], 'Revoked', 'Signed by Northshire Police; revoked by its issuer.'],
    [['expired'], 'Expired', 'Signed by Northshire Police; expired on 3 March 2027.'],
    [['untrusted-issuer'], 'Not signed by its issuer', 'It claims to be from Northshire Police, but the key that signed it is not one of Northshire Police’s: it proves nothing.'],
    [['status-unavailable'], 'Revocation not checked', 'Signed by Northshire Police; its revocation list could not be read, so whether it has been revoked is unknown.'],
    [['unknown-issuer-key'], 'Signer not found', 'The key that signed it is not one that Northshire Police publishes: nothing shows who signed it.'],
    [['expired', 'revoked'], 'Revoked', 'Signed by Northshire Police; revoked by its issuer.'],
  ] as const)('words %j as "%s"', async (codes, title, sentence) => {
    await verify(JSON.stringify(CREDENTIAL), answer({ verified: false, codes: [...codes] }));
    const result = within(screen.getByRole('region', { name: title }));
    expect(result.getByTestId('verdict')).toHaveTextContent(sentence);
  });

  it('opened from a share link, reads the shared credential and checks it at once; a link switched off says so', async () => {
    const api = fakeApi({
      'GET /credentials/shared/0123456789abcdef': { body: CREDENTIAL },
      'GET /credentials/shared/fedcba9876543210': { status: 404, body: { message: 'Credential not found' } },
      'POST /credentials/verify': { body: answer({}) },
    });
    renderWithProviders(<VerifyCredentialPage />, { route: '/verify-credential?shared=0123456789abcdef' });
    expect(await screen.findByRole('region', { name: 'Verified' })).toBeInTheDocument();
    expect(api.requests.find((r) => r.method === 'POST')!.body).toEqual(CREDENTIAL);
    expect(screen.getByRole('textbox', { name: 'Credential (JSON)' })).toHaveValue(JSON.stringify(CREDENTIAL, null, 2));
    vi.restoreAllMocks();
    fakeApi({ 'GET /credentials/shared/fedcba9876543210': { status: 404, body: { message: 'Credential not found' } } });
    renderWithProviders(<VerifyCredentialPage />, { route: '/verify-credential?shared=fedcba9876543210' });
    expect(await screen.findByText('This shared credential is not available')).toBeInTheDocument();
  });
});
