// "Verify a credential" (public, /verify-credential): anyone pastes or uploads an Open Badges 3.0
// credential from any issuer; the server checks it and the page says in plain words what it proves
// and what it does not ("Signed by Northshire Police; expired on 3 March 2027"), with every check
// listed. After a check the focus goes to the result's heading.
import { useEffect, useRef, useState, type Ref } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBan,
  IconCircleCheck,
  IconCircleDashed,
  IconCircleX,
  IconClockExclamation,
  IconRosetteDiscountCheck,
  IconShieldQuestion,
} from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CredentialJsonInput, parseCredentialJson } from '@/components/CredentialJsonInput';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useSharedCredential } from '../api/get-shared-credential';
import {
  CHECK_NAMES,
  useVerifyCredential,
  VERIFICATION_CODES,
  type CheckOutcome,
  type CredentialVerification,
  type VerificationCode,
} from '../api/verify-credential';

export function VerifyCredentialPage() {
  const { t } = useTranslation('credential-verify');
  // What the person typed or pasted; until then, the shared credential when the page opened from a share link.
  const [typed, setText] = useState<string | null>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const verify = useVerifyCredential();
  const resultHeading = useRef<HTMLHeadingElement>(null);
  // Opened from a share link: the shared credential is read, shown in the box and checked at once.
  const [params] = useSearchParams();
  const shared = useSharedCredential(params.get('shared'));
  const sharedCredential = shared.data;
  const { mutate } = verify;
  const text = typed ?? (sharedCredential ? JSON.stringify(sharedCredential, null, 2) : '');
  useEffect(() => {
    if (sharedCredential) mutate(sharedCredential);
  }, [sharedCredential, mutate]);

  return (
    <Stack gap="lg" maw={760}>
      <div>
        <Title order={1}>{t('heading')}</Title>
        <Text mt="xs">{t('intro')}</Text>
      </div>
      {shared.isError ? (
        <Alert color="red" variant="light" title={t('sharedGone')}>{t('sharedGoneText')}</Alert>
      ) : shared.isFetching ? (
        <Text role="status">{t('sharedLoading')}</Text>
      ) : null}
      <form
        noValidate
        aria-label={t('formLabel')}
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = parseCredentialJson(text);
          if (parsed.error !== undefined) {
            setInputError(parsed.error);
            verify.reset();
            return;
          }
          setInputError(null);
          verify.mutate(parsed.credential, { onSettled: () => setTimeout(() => resultHeading.current?.focus(), 0) });
        }}
      >
        <Stack gap="sm">
          <CredentialJsonInput value={text} onChange={setText} error={inputError} />
          <Group>
            <Button type="submit" loading={verify.isPending}>
              {t('submit')}
            </Button>
          </Group>
        </Stack>
      </form>
      {verify.isError ? (
        <Alert color="red" title={<span ref={resultHeading} tabIndex={-1}>{t('failed')}</span>}>
          {errorDescription(verify.error, t('failedDetail'))}
        </Alert>
      ) : verify.data ? (
        <VerificationResult result={verify.data} headingRef={resultHeading} />
      ) : null}
    </Stack>
  );
}

/** The most serious of the answer's codes (the order of VERIFICATION_CODES), or null when none. */
export function mainCode(codes: readonly VerificationCode[]): VerificationCode | null {
  return VERIFICATION_CODES.find((code) => codes.includes(code)) ?? null;
}

const VERDICT_STYLE: Record<VerificationCode | 'verified', { colour: string; Icon: typeof IconBan }> = {
  verified: { colour: 'green.9', Icon: IconRosetteDiscountCheck },
  malformed: { colour: 'red.9', Icon: IconAlertTriangle },
  tampered: { colour: 'red.9', Icon: IconAlertTriangle },
  'unknown-issuer-key': { colour: 'red.9', Icon: IconShieldQuestion },
  revoked: { colour: 'red.9', Icon: IconBan },
  expired: { colour: 'red.9', Icon: IconClockExclamation },
  'not-yet-valid': { colour: 'orange.9', Icon: IconClockExclamation },
  'untrusted-issuer': { colour: 'red.9', Icon: IconShieldQuestion },
  'status-unavailable': { colour: 'orange.9', Icon: IconShieldQuestion },
};

/** The verdict in one sentence: who signed it and whether it holds today. */
export function verdictSentence(result: CredentialVerification, t: TFunction<'credential-verify'>): string {
  const issuer = result.issuer?.name || result.issuer?.id || t('unnamedIssuer');
  const code = mainCode(result.codes);
  switch (code) {
    case 'malformed':
      return t('sentence.malformed');
    case 'tampered':
      return t('sentence.tampered', { issuer });
    case 'unknown-issuer-key':
      return t('sentence.unknownIssuerKey', { issuer });
    case 'revoked':
      return t('sentence.revoked', { issuer });
    case 'expired':
      return t('sentence.expired', { issuer, date: formatDate(result.validUntil) });
    case 'not-yet-valid':
      return t('sentence.notYetValid', { issuer, date: formatDate(result.validFrom) });
    case 'untrusted-issuer':
      return t('sentence.untrustedIssuer', { issuer });
    case 'status-unavailable':
      return t('sentence.statusUnavailable', { issuer });
    default:
      return result.validUntil
        ? t('sentence.validUntil', { issuer, date: formatDate(result.validUntil) })
        : t('sentence.noExpiry', { issuer });
  }
}

const CHECK_ICON: Record<CheckOutcome | 'none', { Icon: typeof IconBan; colour: string }> = {
  passed: { Icon: IconCircleCheck, colour: 'var(--mantine-color-green-9)' },
  failed: { Icon: IconCircleX, colour: 'var(--mantine-color-red-9)' },
  'not-checked': { Icon: IconCircleDashed, colour: 'var(--mantine-color-gray-7)' },
  none: { Icon: IconCircleDashed, colour: 'var(--mantine-color-gray-7)' },
};

export function VerificationResult({ result, headingRef }: { result: CredentialVerification; headingRef?: Ref<HTMLHeadingElement> }) {
  const { t } = useTranslation('credential-verify');
  const code = mainCode(result.codes);
  const { colour, Icon } = VERDICT_STYLE[code ?? 'verified'];
  const issuer = result.issuer?.name || result.issuer?.id || t('unnamedIssuer');
  const achievement = result.achievement?.name || t('unnamedAchievement');
  // What it proves, only when the signature holds and the signer is known.
  const signed = code !== 'malformed' && code !== 'tampered' && code !== 'unknown-issuer-key' && code !== 'untrusted-issuer';
  return (
    <Card withBorder padding="lg" radius="md" role="region" aria-labelledby="credential-result-heading" data-result={code ?? 'verified'}>
      <Stack gap="md">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Icon size={28} color={`var(--mantine-color-${colour.replace('.', '-')})`} aria-hidden style={{ flexShrink: 0 }} />
          <Title order={2} size="h3" id="credential-result-heading" c={colour} ref={headingRef} tabIndex={-1}>
            {t(`title.${code ?? 'verified'}`)}
          </Title>
        </Group>
        <Text fw={600} data-testid="verdict">{verdictSentence(result, t)}</Text>
        {signed ? (
          <div>
            <Title order={3} size="h5">{t('provesHeading')}</Title>
            <List spacing={4} size="sm">
              <List.Item>{t('proves.awarded', { issuer, achievement })}</List.Item>
              {result.validFrom ? <List.Item>{t('proves.validFrom', { date: formatDate(result.validFrom) })}</List.Item> : null}
              <List.Item>{t('proves.unchanged')}</List.Item>
            </List>
          </div>
        ) : null}
        <div>
          <Title order={3} size="h5">{t('notProvesHeading')}</Title>
          <List spacing={4} size="sm">
            {signed ? (
              <>
                <List.Item>{t('notProves.holder')}</List.Item>
                {code === 'revoked' || code === 'expired' || code === 'not-yet-valid' ? <List.Item>{t('notProves.today')}</List.Item> : null}
                {code === 'status-unavailable' ? <List.Item>{t('notProves.notRevoked')}</List.Item> : null}
              </>
            ) : (
              <List.Item>{t('notProves.anything')}</List.Item>
            )}
          </List>
        </div>
        <div>
          <Title order={3} size="h5">{t('checksHeading')}</Title>
          <List spacing={6} size="sm" listStyleType="none" p={0} aria-label={t('checksHeading')}>
            {CHECK_NAMES.map((name) => {
              const outcome = result.checks[name];
              const { Icon: CheckIcon, colour: checkColour } = CHECK_ICON[outcome] ?? CHECK_ICON['not-checked'];
              return (
                <List.Item key={name} data-check={name} data-outcome={outcome}>
                  <Group gap={6} wrap="nowrap" align="flex-start">
                    <CheckIcon size={18} color={checkColour} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                    <Text size="sm" span>
                      {t(`check.${name}`)}
                      {': '}
                      <strong>{t(`outcome.${name === 'status' && outcome === 'none' ? 'noStatus' : outcome}`)}</strong>
                    </Text>
                  </Group>
                </List.Item>
              );
            })}
          </List>
          {result.schemaErrors.length > 0 ? (
            <>
              <Text size="sm" mt="xs">{t('schemaErrors')}</Text>
              <List size="sm" spacing={2}>
                {result.schemaErrors.slice(0, 10).map((error) => <List.Item key={error}><Text span size="sm" ff="monospace">{error}</Text></List.Item>)}
              </List>
            </>
          ) : null}
        </div>
      </Stack>
    </Card>
  );
}
