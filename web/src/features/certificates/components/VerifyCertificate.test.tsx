// Public verification: the organisation the learner belonged to when the certificate was
// issued is shown when there is one; nothing about an organisation otherwise. The signed Open
// Badges credential is linked while its learner shares it.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { VerifiedCertificate } from '@shared/certificates.ts';
import { renderWithProviders } from '@/test/render';
import { certificateKeys } from '@/lib/query-keys';
import { VerifyCertificate } from './VerifyCertificate';

const CODE = 'ABCDEF1234567890';
const certificate: VerifiedCertificate = {
  verificationCode: CODE,
  learnerName: 'Sam Learner',
  courseTitle: 'JESIP Awareness',
  courseTitleCy: null,
  service: 'UKPS',
  serviceLabel: 'United Kingdom Police Service',
  issuedAt: '2026-11-22T10:00:00.000Z',
  expiresAt: null,
  revokedAt: null,
  state: 'valid',
  valid: true,
};

const show = (c: VerifiedCertificate) =>
  renderWithProviders(<VerifyCertificate code={CODE} />, { queryData: [[certificateKeys.verify(CODE), c]] });

describe('VerifyCertificate', () => {
  it('names the organisation of issue when the certificate has one', () => {
    show({ ...certificate, organisationName: 'Northshire Police' });
    const card = within(screen.getByRole('region', { name: 'Certificate verified' }));
    expect(card.getByText('Organisation:')).toBeInTheDocument();
    expect(card.getByText('Northshire Police')).toBeInTheDocument();
  });

  it('says nothing of an organisation for a learner of none', () => {
    show(certificate);
    const card = within(screen.getByRole('region', { name: 'Certificate verified' }));
    expect(card.getByText('Sam Learner')).toBeInTheDocument();
    expect(card.queryByText('Organisation:')).toBeNull();
  });

  it('links to the signed Open Badges credential while it is shared, and not otherwise', () => {
    const url = 'https://example.org/functions/v1/api/credentials/shared/0123456789abcdef0123456789abcdef';
    const { unmount } = show({ ...certificate, credentialUrl: url });
    expect(screen.getByRole('link', { name: 'Download the digital credential (Open Badges 3.0)' })).toHaveAttribute('href', url);
    unmount();
    show(certificate);
    expect(screen.queryByRole('link', { name: 'Download the digital credential (Open Badges 3.0)' })).toBeNull();
  });
});
