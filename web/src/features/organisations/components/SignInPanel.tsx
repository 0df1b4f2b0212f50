// An organisation's sign-in through its own identity provider (Microsoft Entra ID by OpenID Connect,
// or any SAML 2.0 provider): its email domains (given by national administrators once they have
// confirmed the organisation owns them), the provider's settings and what to enter at the provider,
// a test sign-in through the real provider (Auth sends the browser back here with the database's
// refusal, ?error=access_denied&error_description=…being tested…, and the test is in the list), and
// switching it on, once a test has passed. The administrator's own session is not touched by the
// test: the app's supabase-js client does not read the answer in the address (detectSessionInUrl is
// off), and this panel removes it from the address once read.
import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  Alert, Badge, Box, Button, Checkbox, CopyButton, Fieldset, Group, Radio, SimpleGrid, Stack, Switch, Text, Textarea,
  TextInput, Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { Role } from '@shared/domain.ts';
import type { Organisation } from '@shared/organisations.ts';
import { SERVICE_CODES } from '@shared/services.ts';
import { fieldErrors } from '@shared/schemas.ts';
import {
  domainSchema, MAPPED_FIELDS, type MappedField, type OrganisationSignIn, type SignInProtocol, type SignInSettingsInput, signInSettingsSchema, type SignInTest,
} from '@shared/sign-in.ts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ApiError, errorDescription } from '@/lib/api-client';
import {
  ANSWER_PARAMS, providerProblem, readProviderAnswer, rememberTestPage, startProviderSignIn, takeTestPage,
} from '@/lib/auth/organisation-sign-in';
import { formatDateTime } from '@/lib/format';
import { labelOf } from '@/lib/i18n/labels';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useAddDomain, useOrganisationSignIn, useRemoveDomain, useSaveSignInSettings, useSwitchSignIn } from '../api/sign-in';
import { useFocusRequest } from '../hooks/use-focus-request';

const MONOSPACE_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };
const DOMAIN_INPUT = 'sign-in-domain-input';
const TEST_BUTTON = 'sign-in-test';
const removeDomainButton = (domain: string) => `sign-in-domain-remove-${domain}`;

type Panel = { organisation: Pick<Organisation, 'id' | 'name'>; national: boolean };

export function SignInPanel({ organisation, national }: Panel) {
  const { t } = useTranslation('organisations');
  const { data, isPending, isError, error } = useOrganisationSignIn(organisation.id);
  const headingId = `organisation-${organisation.id}-sign-in`;
  const settings = data?.settings ?? null;
  return (
    <Stack component="section" aria-labelledby={headingId} mt="xl">
      <div>
        <Group gap="sm" align="center">
          <Title order={2} size="h3" id={headingId}>{t('signInPanel.heading')}</Title>
          {data ? (
            settings?.enabled
              ? <Badge color="teal.9" variant="filled">{t('signInPanel.on')}</Badge>
              : <Badge color="gray.7" variant="filled">{settings ? t('signInPanel.off') : t('signInPanel.notSetUp')}</Badge>
          ) : null}
        </Group>
        <Text c="dimmed" size="sm" maw={720}>
          {t('signInPanel.intro', { name: organisation.name })}
        </Text>
      </div>
      {isError ? <Text c="red.8">{errorDescription(error, t('signInPanel.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('signInPanel.loading')}</Text> : null}
      {data ? (
        <>
          <Domains organisation={organisation} national={national} signIn={data} />
          <ProviderSettings key={organisation.id} organisationId={organisation.id} signIn={data} />
          <TestSignIn organisation={organisation} signIn={data} />
          <SwitchOn organisationId={organisation.id} signIn={data} />
        </>
      ) : null}
    </Stack>
  );
}

// ------------------------------------------------------------------ domains

function Domains({ organisation, national, signIn }: Panel & { signIn: OrganisationSignIn }) {
  const { t } = useTranslation('organisations');
  const [domain, setDomain] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const add = useAddDomain(organisation.id);
  const remove = useRemoveDomain(organisation.id);
  const focus = useFocusRequest();
  const headingId = `organisation-${organisation.id}-domains`;
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>{t('domains.heading')}</Title>
      <Text size="sm" maw={720}>
        {t('domains.intro')}{' '}
        {national ? t('domains.national') : t('domains.local')}
      </Text>
      {signIn.domains.length === 0 ? (
        <Text c="dimmed" size="sm">{t('domains.none')}</Text>
      ) : (
        <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('domains.listLabel', { name: organisation.name })}>
          {signIn.domains.map((d) => (
            <Group component="li" key={d} gap="sm">
              <Text span ff="monospace">{d}</Text>
              {national ? (
                <Button
                  size="xs"
                  variant="default"
                  data-focus-id={removeDomainButton(d)}
                  aria-label={t('domains.removeLabel', { domain: d })}
                  onClick={() => setRemoving(d)}
                >
                  {t('domains.remove')}
                </Button>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
      {national ? (
        <form
          noValidate
          aria-label={t('domains.addForm')}
          onSubmit={(event) => {
            event.preventDefault();
            if (add.isPending) return;
            const checked = domainSchema.safeParse({ domain });
            if (!checked.success) {
              setFieldError(checked.error.issues[0].message);
              return;
            }
            setFieldError(null);
            add.mutate(checked.data.domain, {
              onSuccess: () => {
                setDomain('');
                notifySuccess(t('domains.addedTitle'), t('domains.addedMessage', { domain: checked.data.domain, name: organisation.name }), { action: 'sign-in-domain' });
              },
              onError: (failure) => {
                const field = failure instanceof ApiError ? failure.fields?.domain : undefined;
                setFieldError(field ?? errorDescription(failure, t('domains.addFailed')));
              },
            });
          }}
        >
          <Stack gap="xs" align="flex-start">
            <TextInput
              label={t('domains.field')}
              description={t('domains.fieldDescription')}
              value={domain}
              onChange={(e) => setDomain(e.currentTarget.value)}
              error={fieldError}
              autoComplete="off"
              spellCheck={false}
              data-focus-id={DOMAIN_INPUT}
              w="100%"
              maw={420}
            />
            <Button type="submit" variant="default" loading={add.isPending}>{t('domains.add')}</Button>
          </Stack>
        </form>
      ) : null}
      <ConfirmDialog
        opened={removing !== null}
        message={removing ? t('domains.removeConfirm', { domain: removing, name: organisation.name }) : ''}
        confirmLabel={t('domains.removeDomain')}
        loading={remove.isPending}
        onClose={() => {
          const d = removing;
          setRemoving(null);
          if (d) focus(removeDomainButton(d));
        }}
        onConfirm={() => {
          if (!removing) return;
          const d = removing;
          remove.mutate(d, {
            onSuccess: () => notifySuccess(t('domains.removedTitle'), t('domains.removedMessage', { domain: d, name: organisation.name }), { action: 'sign-in-domain' }),
            onError: (failure) => notifyFailure(t('domains.notRemoved'), errorDescription(failure, t('domains.removeFailed')), { action: 'sign-in-domain' }),
            onSettled: () => {
              setRemoving(null);
              focus(DOMAIN_INPUT);
            },
          });
        }}
      />
    </Stack>
  );
}

// ------------------------------------------------------------------ settings

interface SettingsValues {
  protocol: SignInProtocol;
  tenantId: string;
  samlMetadataUrl: string;
  samlMetadataXml: string;
  attributeMapping: Record<MappedField, string>;
  newPersonRole: 'STUDENT' | 'INSTRUCTOR';
  newPersonServices: string[];
}

function initialValues(settings: OrganisationSignIn['settings']): SettingsValues {
  return {
    protocol: settings?.protocol ?? 'oidc',
    tenantId: settings?.tenantId ?? '',
    samlMetadataUrl: settings?.samlMetadataUrl ?? '',
    samlMetadataXml: '',
    attributeMapping: Object.fromEntries(MAPPED_FIELDS.map((f) => [f, settings?.attributeMapping[f] ?? ''])) as Record<MappedField, string>,
    newPersonRole: settings?.newPersonRole ?? 'STUDENT',
    newPersonServices: settings?.newPersonServices ?? [],
  };
}

/** What the API is sent: only the chosen protocol's fields, empty ones left out. */
function toInput(values: SettingsValues): SignInSettingsInput {
  const given = (value: string) => value.trim() || null;
  const oidc = values.protocol === 'oidc';
  return {
    protocol: values.protocol,
    tenantId: oidc ? given(values.tenantId) : null,
    samlMetadataUrl: oidc ? null : given(values.samlMetadataUrl),
    samlMetadataXml: oidc ? null : given(values.samlMetadataXml),
    attributeMapping: Object.fromEntries(MAPPED_FIELDS.flatMap((f) => (values.attributeMapping[f].trim() ? [[f, values.attributeMapping[f].trim()]] : []))),
    newPersonRole: values.newPersonRole,
    newPersonServices: values.newPersonServices as SignInSettingsInput['newPersonServices'],
  };
}

function ProviderSettings({ organisationId, signIn }: { organisationId: string; signIn: OrganisationSignIn }) {
  const { t } = useTranslation('organisations');
  const settings = signIn.settings;
  const form = useForm<SettingsValues>({ mode: 'controlled', initialValues: initialValues(settings) });
  const save = useSaveSignInSettings(organisationId);
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = `organisation-${organisationId}-provider`;
  const protocol = form.values.protocol;
  // The fields' props, by field name (names, not text).
  const protocolInput = form.getInputProps('protocol');
  const tenantIdInput = form.getInputProps('tenantId');
  const metadataUrlInput = form.getInputProps('samlMetadataUrl');
  const metadataXmlInput = form.getInputProps('samlMetadataXml');
  const mappingInput = (field: MappedField) => form.getInputProps(`attributeMapping.${field}`);
  const newRoleInput = form.getInputProps('newPersonRole');
  const newServicesInput = form.getInputProps('newPersonServices');
  // After a refused save, the focus goes to the first field with a message (once it has rendered).
  const focusFirstError = (formElement: HTMLFormElement | null) =>
    window.setTimeout(() => formElement?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>{t('providerSettings.heading')}</Title>
      <form
        noValidate
        aria-labelledby={headingId}
        onSubmit={form.onSubmit((values, event) => {
          if (save.isPending) return;
          const formElement = event?.currentTarget instanceof HTMLFormElement ? event.currentTarget : null;
          setFailure(null);
          // The shared rules, with their messages (the API checks the same).
          const checked = signInSettingsSchema.safeParse(toInput(values));
          if (!checked.success) {
            form.setErrors(fieldErrors(checked.error));
            focusFirstError(formElement);
            return;
          }
          form.clearErrors();
          save.mutate(toInput(values), {
            onSuccess: () => {
              form.setFieldValue('samlMetadataXml', '');
              notifySuccess(t('providerSettings.savedTitle'), t('providerSettings.savedMessage'), { action: 'sign-in-settings' });
            },
            onError: (failed) => {
              if (failed instanceof ApiError && failed.fields) {
                form.setErrors(failed.fields);
                focusFirstError(formElement);
              } else {
                const message = errorDescription(failed, t('providerSettings.saveFailed'));
                setFailure(message);
                notifyFailure(t('providerSettings.notSaved'), message, { action: 'sign-in-settings' });
              }
            },
          });
        })}
      >
        <Stack gap="md" maw={720}>
          {failure ? <Alert color="red" title={t('providerSettings.notSaved')} role="alert">{failure}</Alert> : null}
          <Radio.Group label={t('providerSettings.protocol')} {...protocolInput}>
            <Group mt="xs">
              <Radio value="oidc" label={labelOf('signInProtocol', 'oidc')} />
              <Radio value="saml" label={labelOf('signInProtocol', 'saml')} />
            </Group>
          </Radio.Group>
          {protocol === 'oidc' ? (
            <TextInput
              label={t('providerSettings.tenantId')}
              description={t('providerSettings.tenantIdDescription')}
              autoComplete="off"
              spellCheck={false}
              styles={MONOSPACE_INPUT}
              {...tenantIdInput}
            />
          ) : (
            <>
              <TextInput
                label={t('providerSettings.metadataUrl')}
                description={t('providerSettings.metadataUrlDescription')}
                autoComplete="off"
                spellCheck={false}
                styles={MONOSPACE_INPUT}
                {...metadataUrlInput}
              />
              <Textarea
                label={t('providerSettings.metadataXml')}
                description={settings?.samlRegistered && !settings.samlMetadataUrl
                  ? t('providerSettings.metadataXmlRegistered')
                  : t('providerSettings.metadataXmlDescription')}
                autosize
                minRows={3}
                maxRows={10}
                spellCheck={false}
                styles={MONOSPACE_INPUT}
                {...metadataXmlInput}
              />
            </>
          )}
          <Fieldset legend={t('providerSettings.mapping')} variant="unstyled">
            <Text size="sm" mb="xs">
              {protocol === 'oidc' ? t('providerSettings.mappingIntroClaim') : t('providerSettings.mappingIntroAttribute')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {MAPPED_FIELDS.map((field) => (
                <TextInput
                  key={field}
                  label={labelOf('mappedField', field)}
                  description={t(`providerSettings.hints.${protocol}.${field}`)}
                  autoComplete="off"
                  spellCheck={false}
                  {...mappingInput(field)}
                />
              ))}
            </SimpleGrid>
          </Fieldset>
          <Radio.Group label={t('providerSettings.newRole')} description={t('providerSettings.newRoleDescription')} {...newRoleInput}>
            <Group mt="xs">
              <Radio value="STUDENT" label={labelOf('role', 'STUDENT')} />
              <Radio value="INSTRUCTOR" label={labelOf('role', 'INSTRUCTOR')} />
            </Group>
          </Radio.Group>
          <Checkbox.Group label={t('providerSettings.newServices')} {...newServicesInput}>
            <SimpleGrid cols={{ base: 2, sm: 3 }} mt="xs" spacing="xs">
              {SERVICE_CODES.map((code) => (
                <Checkbox key={code} value={code} label={code} title={labelOf('service', code)} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group>
            <Button type="submit" loading={save.isPending}>{t('providerSettings.save')}</Button>
          </Group>
        </Stack>
      </form>
      <AtTheProvider protocol={protocol} signIn={signIn} />
    </Stack>
  );
}

/** The values the provider's administrators enter, each read-only and copyable. */
function AtTheProvider({ protocol, signIn }: { protocol: SignInProtocol; signIn: OrganisationSignIn }) {
  const { t } = useTranslation('organisations');
  // Each value's name in the catalogue (atTheProvider.<id>: its label, hint and copy button).
  const values: Array<{ id: 'redirectUri' | 'entityId' | 'acsUrl'; value: string }> = protocol === 'oidc'
    ? [{ id: 'redirectUri', value: signIn.provider.redirectUri }]
    : [
      { id: 'entityId', value: signIn.provider.samlEntityId },
      { id: 'acsUrl', value: signIn.provider.samlAcsUrl },
    ];
  return (
    <Stack gap="xs" maw={720}>
      <Title order={4} size="h5">{t('atTheProvider.heading')}</Title>
      {values.map((v) => (
        <Group key={v.id} align="flex-end" gap="xs" wrap="nowrap">
          <TextInput label={t(`atTheProvider.${v.id}.label`)} description={t(`atTheProvider.${v.id}.hint`)} value={v.value} readOnly styles={MONOSPACE_INPUT} style={{ flex: 1, minWidth: 0 }} />
          <CopyButton value={v.value}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy} aria-label={t(`atTheProvider.${v.id}.copy`)}>{copied ? t('shared.copied') : t('shared.copy')}</Button>
            )}
          </CopyButton>
        </Group>
      ))}
    </Stack>
  );
}

// ------------------------------------------------------------------ test sign-in

type TestAnswer = { tested: boolean; message: string };

/** A page's address without Auth's answer in it. */
function withoutAnswer(pathname: string, search: string) {
  const params = new URLSearchParams(search);
  for (const name of ANSWER_PARAMS) params.delete(name);
  const query = params.toString();
  return { pathname, search: query ? `?${query}` : '' };
}

/** Why the test cannot run now, or null. */
function testBlocked(signIn: OrganisationSignIn, t: TFunction<'organisations'>): string | null {
  const settings = signIn.settings;
  if (!settings) return t('testSignIn.saveFirst');
  if (settings.enabled) return t('testSignIn.alreadyOn');
  if (settings.protocol === 'saml' && !settings.samlRegistered) return t('testSignIn.samlFirst');
  if (settings.protocol === 'saml' && signIn.domains.length === 0) return t('testSignIn.samlDomain');
  return null;
}

function TestSignIn({ organisation, signIn }: { organisation: Pick<Organisation, 'id' | 'name'>; signIn: OrganisationSignIn }) {
  const { t } = useTranslation('organisations');
  const location = useLocation();
  const navigate = useNavigate();
  /** This page's address without Auth's answer. */
  const pageAddress = () => withoutAnswer(location.pathname, location.search);
  // Auth's answer to a test sign-in, read once from the address this page was opened with.
  const [opened] = useState(() => ({
    read: readProviderAnswer(location.search, location.hash),
    address: withoutAnswer(location.pathname, location.search),
  }));
  const [answer, setAnswer] = useState<TestAnswer | null>(() => {
    const { read } = opened;
    if (read.kind !== 'error') return null;
    return /being tested/i.test(read.description)
      ? { tested: true, message: read.description }
      : { tested: false, message: providerProblem(read) };
  });
  const [starting, setStarting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const answerRef = useRef<HTMLDivElement>(null);
  const blocked = testBlocked(signIn, t);
  const headingId = `organisation-${organisation.id}-test`;

  const cleaned = useRef(false);
  useEffect(() => {
    // Once (React's strict mode runs effects twice): the answer leaves the address, so that a reload
    // does not show it again, and the focus goes to it.
    if (cleaned.current || opened.read.kind === 'none') return;
    cleaned.current = true;
    // The test's page, kept for /auth/callback, is no longer needed once the answer is here.
    takeTestPage();
    void navigate(opened.address, { replace: true });
    answerRef.current?.focus();
  }, [navigate, opened]);

  const start = async () => {
    const settings = signIn.settings;
    if (!settings || blocked || starting) return;
    setStarting(true);
    setFailure(null);
    setAnswer(null);
    const { pathname, search } = pageAddress();
    // A SAML refusal comes back through the site URL and /auth/callback, which sends it back here.
    rememberTestPage(`${pathname}${search}`);
    try {
      await startProviderSignIn({
        protocol: settings.protocol,
        domain: signIn.domains[0] ?? '',
        redirectTo: `${window.location.origin}${pathname}${search}`,
        // Entra asks for the account even when one is signed in there, so any account can be tested.
        queryParams: { prompt: 'login' },
      });
    } catch (error) {
      takeTestPage();
      const message = errorDescription(error, t('testSignIn.startFailed'));
      setFailure(message);
      setStarting(false);
      notifyFailure(t('testSignIn.notStarted'), message, { action: 'sign-in-test' });
    }
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>{t('testSignIn.heading')}</Title>
      <Text size="sm" maw={720}>
        {t('testSignIn.intro')}
      </Text>
      <div ref={answerRef} tabIndex={-1} aria-live="polite">
        {answer ? (
          <Alert color={answer.tested ? 'blue' : 'red'} title={answer.tested ? t('testSignIn.finished') : t('testSignIn.notFinished')}>
            {answer.message}
            {answer.tested ? <> {t('testSignIn.resultBelow')}</> : null}
          </Alert>
        ) : null}
        {failure ? <Alert color="red" title={t('testSignIn.notStarted')} role="alert">{failure}</Alert> : null}
      </div>
      <Group>
        <Button
          data-focus-id={TEST_BUTTON}
          onClick={() => void start()}
          loading={starting}
          disabled={blocked !== null}
          aria-describedby={blocked ? `${headingId}-blocked` : undefined}
        >
          {t('testSignIn.button')}
        </Button>
        {blocked ? <Text size="sm" id={`${headingId}-blocked`}>{blocked}</Text> : null}
      </Group>
      <TestList organisationName={organisation.name} tests={signIn.tests} />
    </Stack>
  );
}

/** A field the provider did not send. */
function NotGiven() {
  const { t } = useTranslation('organisations');
  return <Text span c="dimmed" size="sm">{t('testList.notSent')}</Text>;
}
const notGiven = <NotGiven />;

/** A definition list of label and value pairs, two columns. */
function Pairs({ items, label }: { items: Array<[string, ReactNode]>; label?: string }) {
  return (
    <Box
      component="dl"
      aria-label={label}
      m={0}
      style={{ display: 'grid', gridTemplateColumns: 'minmax(8rem, max-content) 1fr', columnGap: 'var(--mantine-spacing-md)', rowGap: 4 }}
    >
      {items.map(([term, value]) => (
        <Box key={term} style={{ display: 'contents' }}>
          <Text component="dt" size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>{term}</Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>{value}</Text>
        </Box>
      ))}
    </Box>
  );
}

function claimText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  return JSON.stringify(value);
}

function TestList({ organisationName, tests }: { organisationName: string; tests: SignInTest[] }) {
  const { t } = useTranslation('organisations');
  if (tests.length === 0) return <Text c="dimmed" size="sm">{t('testList.none')}</Text>;
  return (
    <Stack gap="sm">
      <Title order={4} size="h5">{t('testList.heading')}</Title>
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('testList.listLabel', { name: organisationName })}>
        {tests.map((test) => (
          <Box
            component="li"
            key={test.id}
            p="sm"
            style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}
          >
            <Group gap="sm" mb="xs">
              <Text fw={600}>{formatDateTime(test.createdAt)}</Text>
              <Text span style={{ overflowWrap: 'anywhere' }}>{test.email}</Text>
              {test.passed
                ? <Badge color="teal.9" variant="filled">{t('testList.passed')}</Badge>
                : <Badge color="red.9" variant="filled">{t('testList.notPassed')}</Badge>}
            </Group>
            {test.problem ? <Text size="sm" c="red.8" mb="xs">{test.problem}</Text> : null}
            <Pairs
              label={t('testList.placed')}
              items={[
                [t('shared.name'), test.mapped.name ?? notGiven],
                [t('testList.unit'), test.mapped.unit ?? notGiven],
                [t('testList.manager'), test.mapped.manager ?? notGiven],
                [t('testList.employeeNumber'), test.mapped.employeeNumber ?? notGiven],
                [t('testList.role'), test.mapped.role ? labelOf('role', test.mapped.role as Role) : notGiven],
                [t('testList.services'), test.mapped.services.length ? test.mapped.services.join(', ') : t('testList.noServices')],
                ...(test.mapped.notes.length ? [[t('testList.notes'), test.mapped.notes.join(' ')] as [string, string]] : []),
              ]}
            />
            <Box component="details" mt="xs">
              <Text component="summary" size="sm" fw={600} style={{ cursor: 'pointer' }}>{t('testList.sent')}</Text>
              <Box mt="xs">
                {Object.keys(test.received).length === 0 ? (
                  <Text size="sm" c="dimmed">{t('testList.nothing')}</Text>
                ) : (
                  <Pairs label={t('testList.sent')} items={Object.entries(test.received).map(([key, value]) => [key, claimText(value)])} />
                )}
              </Box>
            </Box>
          </Box>
        ))}
      </Stack>
    </Stack>
  );
}

// ------------------------------------------------------------------ switch on

function SwitchOn({ organisationId, signIn }: { organisationId: string; signIn: OrganisationSignIn }) {
  const { t } = useTranslation('organisations');
  const settings = signIn.settings;
  const change = useSwitchSignIn(organisationId);
  const [refusal, setRefusal] = useState<{ field: 'enabled' | 'passwordSignIn'; message: string } | null>(null);
  const headingId = `organisation-${organisationId}-switch`;
  const enabled = settings?.enabled ?? false;
  const passwordSignIn = settings?.passwordSignIn ?? true;
  const tested = Boolean(settings?.testedAt);

  const send = (field: 'enabled' | 'passwordSignIn', next: { enabled: boolean; passwordSignIn: boolean }) => {
    // Not disabled while it is sent: the control keeps the focus.
    if (change.isPending) return;
    setRefusal(null);
    change.mutate(next, {
      onSuccess: (answer) => {
        const on = answer.settings?.enabled;
        notifySuccess(
          field === 'enabled' ? (on ? t('switchOn.switchedOn') : t('switchOn.switchedOff')) : t('switchOn.passwordChanged'),
          field === 'enabled'
            ? (on ? t('switchOn.onMessage') : t('switchOn.offMessage'))
            : (answer.settings?.passwordSignIn ? t('switchOn.passwordAlso') : t('switchOn.providerOnly')),
          { action: 'sign-in-switch' },
        );
      },
      onError: (failure) => {
        const message = (failure instanceof ApiError && failure.fields?.[field]) || errorDescription(failure, t('shared.changeNotSaved'));
        setRefusal({ field, message });
        notifyFailure(t('switchOn.notChanged'), message, { action: 'sign-in-switch' });
      },
    });
  };

  const switchDescription = !settings
    ? t('switchOn.setUpFirst')
    : enabled
      ? t('switchOn.isOn')
      : tested
        ? t('switchOn.testPassedOn', { date: formatDateTime(settings.testedAt) })
        : t('switchOn.runTestFirst');

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} maw={720}>
      <Title order={3} size="h4" id={headingId}>{t('switchOn.heading')}</Title>
      <Switch
        label={t('switchOn.switchLabel')}
        description={switchDescription}
        checked={enabled}
        disabled={!settings || (!enabled && !tested)}
        error={refusal?.field === 'enabled' ? refusal.message : undefined}
        onChange={(e) => send('enabled', { enabled: e.currentTarget.checked, passwordSignIn })}
      />
      <Checkbox
        label={t('switchOn.passwordLabel')}
        description={enabled ? t('switchOn.passwordDescriptionOn') : t('switchOn.passwordDescriptionOff')}
        checked={passwordSignIn}
        disabled={!enabled}
        error={refusal?.field === 'passwordSignIn' ? refusal.message : undefined}
        onChange={(e) => send('passwordSignIn', { enabled, passwordSignIn: e.currentTarget.checked })}
      />
    </Stack>
  );
}
