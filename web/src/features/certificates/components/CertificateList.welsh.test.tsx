// The learner's certificates in Welsh: each course title in the reader's language, the Welsh title as
// issued where there is one, else the English in lang="en-GB" marked "Ddim ar gael yn Gymraeg".
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { certificateKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { type Certificate, CERTIFICATES_PAGE_SIZE } from '../api/get-certificates';
import { CertificateHistory, CertificateList } from './CertificateList';

const base: Certificate = {
  id: 'c1',
  verificationCode: 'ABCDEF1234567890',
  userId: 'u1',
  courseId: 'course-1',
  learnerName: 'Sam Learner',
  courseTitle: 'JESIP Awareness',
  courseTitleCy: 'Ymwybyddiaeth JESIP',
  service: 'UKPS',
  serviceLabel: 'United Kingdom Police Service',
  template: 'standard',
  cycle: 1,
  issuedAt: '2026-11-22T10:00:00.000Z',
  expiresAt: null,
  revokedAt: null,
  revokedReason: null,
  state: 'valid',
  current: true,
  enrolled: true,
  recertifying: false,
  verifyPath: '/verify/ABCDEF1234567890',
};
const english: Certificate = { ...base, id: 'c2', verificationCode: 'BBCDEF1234567890', courseTitle: 'Casualty Care', courseTitleCy: null, verifyPath: '/verify/BBCDEF1234567890' };
const page = (items: Certificate[]) => ({ items, total: items.length, page: 1, pageSize: CERTIFICATES_PAGE_SIZE });

describe('CertificateList in Welsh', () => {
  it('shows the Welsh course title where the certificate has one, else the English marked and in lang="en-GB"', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<CertificateList />, {
      user: makeUser(),
      queryData: [[certificateKeys.list({ page: 1, pageSize: CERTIFICATES_PAGE_SIZE, scope: 'current' }), page([base, english])]],
    });
    const welshCard = screen.getByRole('heading', { name: 'Ymwybyddiaeth JESIP' });
    expect(welshCard).toHaveAttribute('lang', 'cy');
    expect(screen.queryByText('JESIP Awareness')).not.toBeInTheDocument();
    const englishTitle = screen.getByRole('heading', { name: 'Casualty Care' });
    expect(englishTitle).toHaveAttribute('lang', 'en-GB');
    expect(screen.getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(1);
    const article = englishTitle.closest('article')!;
    expect(within(article as HTMLElement).getByText('Ddim ar gael yn Gymraeg')).toBeInTheDocument();
  });

  it('the history table shows the Welsh title too', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<CertificateHistory />, {
      user: makeUser(),
      queryData: [[certificateKeys.list({ page: 1, pageSize: CERTIFICATES_PAGE_SIZE, scope: 'history' }), page([{ ...base, current: false }])]],
    });
    expect(screen.getByText('Ymwybyddiaeth JESIP')).toHaveAttribute('lang', 'cy');
  });

  it('an English reader sees the English title', async () => {
    await i18n.changeLanguage('en-GB');
    renderWithProviders(<CertificateList />, {
      user: makeUser(),
      queryData: [[certificateKeys.list({ page: 1, pageSize: CERTIFICATES_PAGE_SIZE, scope: 'current' }), page([base])]],
    });
    expect(screen.getByRole('heading', { name: 'JESIP Awareness' })).toBeInTheDocument();
    expect(screen.queryByText('Ymwybyddiaeth JESIP')).not.toBeInTheDocument();
  });
});
