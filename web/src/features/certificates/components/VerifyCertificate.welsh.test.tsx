// Public verification in Welsh: the verdict, the details with their dates in Welsh, and the form.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { certificateKeys } from '@/lib/query-keys';
import { renderWithProviders } from '@/test/render';
import type { VerifiedCertificate } from '../api/verify-certificate';
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
  expiresAt: '2027-11-22T10:00:00.000Z',
  revokedAt: null,
  state: 'valid',
  valid: true,
  organisationName: 'Northshire Police',
};

describe('VerifyCertificate in Welsh', () => {
  it('says the certificate is verified and until when, in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<VerifyCertificate code={CODE} />, { queryData: [[certificateKeys.verify(CODE), certificate]] });
    expect(screen.getByRole('heading', { level: 1, name: 'Gwirio tystysgrif' })).toBeInTheDocument();
    const card = within(screen.getByRole('region', { name: "Tystysgrif wedi'i gwirio" }));
    expect(card.getByText(/ac mae'n ddilys tan 22\sTachwedd\s2027\./)).toBeInTheDocument();
    expect(card.getByText('Sefydliad:')).toBeInTheDocument();
    expect(card.getByText('Yn ddilys tan:')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Gwirio tystysgrif arall' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Gwirio' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: "Lawrlwytho'r tystlythyr digidol (Open Badges 3.0)" })).toBeNull();
  });

  it('links to the shared Open Badges credential in Welsh', async () => {
    await i18n.changeLanguage('cy');
    const url = 'https://example.org/functions/v1/api/credentials/shared/0123456789abcdef0123456789abcdef';
    renderWithProviders(<VerifyCertificate code={CODE} />, { queryData: [[certificateKeys.verify(CODE), { ...certificate, credentialUrl: url }]] });
    expect(screen.getByRole('link', { name: "Lawrlwytho'r tystlythyr digidol (Open Badges 3.0)" })).toHaveAttribute('href', url);
  });

  it('shows the course\'s Welsh title as issued, in lang="cy"', async () => {
    await i18n.changeLanguage('cy');
    const welsh = { ...certificate, courseTitleCy: 'Ymwybyddiaeth JESIP' };
    renderWithProviders(<VerifyCertificate code={CODE} />, { queryData: [[certificateKeys.verify(CODE), welsh]] });
    const card = within(screen.getByRole('region', { name: "Tystysgrif wedi'i gwirio" }));
    expect(card.getByText('Ymwybyddiaeth JESIP')).toHaveAttribute('lang', 'cy');
    expect(card.queryByText('JESIP Awareness')).not.toBeInTheDocument();
    expect(card.queryByText('Ddim ar gael yn Gymraeg')).not.toBeInTheDocument();
  });

  it('shows the English title in lang="en-GB", marked, where the course had no Welsh title', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<VerifyCertificate code={CODE} />, { queryData: [[certificateKeys.verify(CODE), certificate]] });
    const card = within(screen.getByRole('region', { name: "Tystysgrif wedi'i gwirio" }));
    expect(card.getByText('JESIP Awareness')).toHaveAttribute('lang', 'en-GB');
    expect(card.getByText('Ddim ar gael yn Gymraeg')).toBeInTheDocument();
  });

  it('says plainly, in Welsh, when no certificate has the code', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<VerifyCertificate code={CODE} />, { queryData: [[certificateKeys.verify(CODE), null]] });
    expect(screen.getByText("Heb ddod o hyd i'r dystysgrif")).toBeInTheDocument();
    expect(screen.getByText(/Nid oes tystysgrif gyda'r cod/)).toBeInTheDocument();
  });
});
