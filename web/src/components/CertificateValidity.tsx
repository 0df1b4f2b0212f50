// A certificate's validity as every learner screen shows it: a badge for its state
// (valid, expiring soon, expired, revoked) and the line with its date. The state comes from the
// server (private.certificate_state); the screens never compute it themselves.
import type { CSSProperties } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconBan, IconCircleCheck, IconClockExclamation } from '@tabler/icons-react';
import { CERTIFICATE_STATE_LABELS, type CertificateState, type CertificateValidity, validityText } from '@shared/certificates.ts';

/** The one wording of a certificate's validity (@shared/certificates.ts), for the screens that show it beside a badge. */
export { validityText };

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
      {CERTIFICATE_STATE_LABELS[state]}
    </Badge>
  );
}

/** Badge and date line together. */
export function CertificateValidityLine({ certificate }: { certificate: Pick<CertificateValidity, 'state' | 'expiresAt' | 'revokedAt'> }) {
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
