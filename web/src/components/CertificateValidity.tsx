// A certificate's validity as every learner screen shows it: a badge for its state
// (valid, expiring soon, expired, revoked) and the line with its date. The state comes from the
// server (private.certificate_state); the screens never compute it themselves.
import type { CSSProperties } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconBan, IconCircleCheck, IconClockExclamation } from '@tabler/icons-react';
import type { CertificateState, CertificateValidity } from '@shared/certificates.ts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/format';
import { i18n } from '@/lib/i18n/i18n';
import { labelOf } from '@/lib/i18n/labels';

/**
 * The one wording of a certificate's validity beside its badge, in the page's language: `Valid until
 * 22 November 2027`, `Does not expire`, `Expired on …`, `Revoked on …` (@shared/certificates.ts
 * words the PDFs the same way).
 */
export function validityText(c: { state: CertificateState; expiresAt: string | Date | null; revokedAt: string | Date | null }): string {
  const t = i18n.t.bind(i18n);
  switch (c.state) {
    case 'revoked':
      return c.revokedAt ? t('validity.revokedOn', { date: formatDate(c.revokedAt) }) : labelOf('certificateState', 'revoked');
    case 'expired':
      return c.expiresAt ? t('validity.expiredOn', { date: formatDate(c.expiresAt) }) : labelOf('certificateState', 'expired');
    default:
      return c.expiresAt ? t('validity.validUntil', { date: formatDate(c.expiresAt) }) : t('validity.doesNotExpire');
  }
}

/** Dark enough for white text at 4.5:1 or more (WCAG 2.2 AA). */
export const CERTIFICATE_STATE_BACKGROUND: Record<CertificateState, string> = {
  valid: '#1b5e20',
  expiring: '#8a3b00',
  expired: '#a51d1d',
  revoked: '#343a40',
};

const ICONS = {
  valid: IconCircleCheck,
  expiring: IconClockExclamation,
  expired: IconAlertTriangle,
  revoked: IconBan,
} as const;

export function CertificateStateBadge({ state }: { state: CertificateState }) {
  useTranslation();
  const Icon = ICONS[state];
  return (
    <Badge
      variant="filled"
      radius="sm"
      data-certificate-state={state}
      leftSection={<Icon size={14} aria-hidden />}
      // Never cut to 'EXPI…' in a narrow table cell or a nowrap group: the words carry the state.
      style={{ backgroundColor: CERTIFICATE_STATE_BACKGROUND[state], color: '#fff', minWidth: 'max-content' }}
    >
      {labelOf('certificateState', state)}
    </Badge>
  );
}

/** Badge and date line together. */
export function CertificateValidityLine({ certificate }: { certificate: Pick<CertificateValidity, 'state' | 'expiresAt' | 'revokedAt'> }) {
  useTranslation();
  return (
    <Group gap="xs" wrap="wrap" data-testid="certificate-validity">
      <CertificateStateBadge state={certificate.state} />
      <Text size="sm" fw={certificate.state === 'valid' ? undefined : 600}>
        {validityText(certificate)}
      </Text>
    </Group>
  );
}

/** The highlight of a card whose certificate needs attention (expiring soon). */
export function attentionStyle(state: CertificateState | null | undefined): CSSProperties | undefined {
  if (state === 'expiring') return { borderColor: CERTIFICATE_STATE_BACKGROUND.expiring, borderWidth: 2, backgroundColor: '#fff4e6' };
  if (state === 'expired') return { borderColor: CERTIFICATE_STATE_BACKGROUND.expired, borderWidth: 2 };
  return undefined;
}
