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
import { useLocation, useNavigate } from 'react-router';
import { ROLE_LABELS } from '@shared/domain.ts';
import type { Organisation } from '@shared/organisations.ts';
import { SERVICE_CODES, serviceLabel } from '@shared/services.ts';
import { fieldErrors } from '@shared/schemas.ts';
import {
  domainSchema, MAPPED_FIELD_LABELS, MAPPED_FIELDS, type MappedField, type OrganisationSignIn, SIGN_IN_PROTOCOL_LABELS,
  type SignInProtocol, type SignInSettingsInput, signInSettingsSchema, type SignInTest,
} from '@shared/sign-in.ts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ApiError, errorDescription } from '@/lib/api-client';
import {
  ANSWER_PARAMS, providerProblem, readProviderAnswer, rememberTestPage, startProviderSignIn, takeTestPage,
} from '@/lib/auth/organisation-sign-in';
import { formatDateTime } from '@/lib/format';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useAddDomain, useOrganisationSignIn, useRemoveDomain, useSaveSignInSettings, useSwitchSignIn } from '../api/sign-in';
import { useFocusRequest } from '../hooks/use-focus-request';

const MONOSPACE_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };
const DOMAIN_INPUT = 'sign-in-domain-input';
const TEST_BUTTON = 'sign-in-test';
const removeDomainButton = (domain: string) => `sign-in-domain-remove-${domain}`;

/** Where Entra ID usually puts each field: its optional claims (OpenID Connect), its claim names (SAML). */
const MAPPING_HINTS: Record<SignInProtocol, Record<MappedField, string>> = {
  oidc: {
    name: 'Usually name',
    unit: 'Usually department (an optional claim you add to the app registration)',
    manager: 'Usually manager',
    employee_number: 'Usually employeeid',
  },
  saml: {
    name: 'Usually http://schemas.microsoft.com/identity/claims/displayname',
    unit: 'The claim\'s name in Attributes & Claims, such as department',
    manager: 'The claim\'s name in Attributes & Claims, such as manager',
    employee_number: 'The claim\'s name in Attributes & Claims, such as employeeid',
  },
};

type Panel = { organisation: Pick<Organisation, 'id' | 'name'>; national: boolean };

export function SignInPanel({ organisation, national }: Panel) {
  const { data, isPending, isError, error } = useOrganisationSignIn(organisation.id);
  const headingId = `organisation-${organisation.id}-sign-in`;
  const settings = data?.settings ?? null;
  return (
    <Stack component="section" aria-labelledby={headingId} mt="xl">
      <div>
        <Group gap="sm" align="center">
          <Title order={2} size="h3" id={headingId}>Sign-in through your identity provider</Title>
          {data ? (
            settings?.enabled
              ? <Badge color="teal.9" variant="filled">On</Badge>
              : <Badge color="gray.7" variant="filled">{settings ? 'Off' : 'Not set up'}</Badge>
          ) : null}
        </Group>
        <Text c="dimmed" size="sm" maw={720}>
          The people of {organisation.name} can sign in with their work account (Microsoft Entra ID, or another SAML 2.0
          identity provider) instead of a password. Set it up, run a test sign-in, then switch it on.
        </Text>
      </div>
      {isError ? <Text c="red.8">{errorDescription(error, 'Failed to load the sign-in settings')}</Text> : null}
      {isPending ? <Text>Loading sign-in settings…</Text> : null}
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
  const [domain, setDomain] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const add = useAddDomain(organisation.id);
  const remove = useRemoveDomain(organisation.id);
  const focus = useFocusRequest();
  const headingId = `organisation-${organisation.id}-domains`;
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>Email domains</Title>
      <Text size="sm" maw={720}>
        People sign in through the provider with an address at one of these domains.{' '}
        {national ? 'Add a domain only once you have confirmed that the organisation owns it.'
          : 'A national administrator adds your organisation\'s domains, once they have confirmed that it owns them.'}
      </Text>
      {signIn.domains.length === 0 ? (
        <Text c="dimmed" size="sm">No email domains yet.</Text>
      ) : (
        <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: 'none' }} aria-label={`Email domains of ${organisation.name}`}>
          {signIn.domains.map((d) => (
            <Group component="li" key={d} gap="sm">
              <Text span ff="monospace">{d}</Text>
              {national ? (
                <Button
                  size="xs"
                  variant="default"
                  data-focus-id={removeDomainButton(d)}
                  aria-label={`Remove ${d}`}
                  onClick={() => setRemoving(d)}
                >
                  Remove
                </Button>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
      {national ? (
        <form
          noValidate
          aria-label="Add an email domain"
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
                notifySuccess('Domain added', `${checked.data.domain} now belongs to ${organisation.name}.`, { action: 'sign-in-domain' });
              },
              onError: (failure) => {
                const field = failure instanceof ApiError ? failure.fields?.domain : undefined;
                setFieldError(field ?? errorDescription(failure, 'The domain could not be added.'));
              },
            });
          }}
        >
          <Stack gap="xs" align="flex-start">
            <TextInput
              label="Email domain"
              description="Such as northshire.police.uk"
              value={domain}
              onChange={(e) => setDomain(e.currentTarget.value)}
              error={fieldError}
              autoComplete="off"
              spellCheck={false}
              data-focus-id={DOMAIN_INPUT}
              w="100%"
              maw={420}
            />
            <Button type="submit" variant="default" loading={add.isPending}>Add domain</Button>
          </Stack>
        </form>
      ) : null}
      <ConfirmDialog
        opened={removing !== null}
        message={removing ? `Remove ${removing}? People with addresses at ${removing} can then no longer sign in through ${organisation.name}'s identity provider.` : ''}
        confirmLabel="Remove domain"
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
            onSuccess: () => notifySuccess('Domain removed', `${d} no longer belongs to ${organisation.name}.`, { action: 'sign-in-domain' }),
            onError: (failure) => notifyFailure('Not removed', errorDescription(failure, 'The domain could not be removed.'), { action: 'sign-in-domain' }),
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
  const settings = signIn.settings;
  const form = useForm<SettingsValues>({ mode: 'controlled', initialValues: initialValues(settings) });
  const save = useSaveSignInSettings(organisationId);
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = `organisation-${organisationId}-provider`;
  const protocol = form.values.protocol;
  // After a refused save, the focus goes to the first field with a message (once it has rendered).
  const focusFirstError = (formElement: HTMLFormElement | null) =>
    window.setTimeout(() => formElement?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>Identity provider</Title>
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
              notifySuccess('Sign-in settings saved', 'Run a test sign-in to check them.', { action: 'sign-in-settings' });
            },
            onError: (failed) => {
              if (failed instanceof ApiError && failed.fields) {
                form.setErrors(failed.fields);
                focusFirstError(formElement);
              } else {
                const message = errorDescription(failed, 'The settings could not be saved.');
                setFailure(message);
                notifyFailure('Not saved', message, { action: 'sign-in-settings' });
              }
            },
          });
        })}
      >
        <Stack gap="md" maw={720}>
          {failure ? <Alert color="red" title="Not saved" role="alert">{failure}</Alert> : null}
          <Radio.Group label="Protocol" {...form.getInputProps('protocol')}>
            <Group mt="xs">
              <Radio value="oidc" label={SIGN_IN_PROTOCOL_LABELS.oidc} />
              <Radio value="saml" label={SIGN_IN_PROTOCOL_LABELS.saml} />
            </Group>
          </Radio.Group>
          {protocol === 'oidc' ? (
            <TextInput
              label="Tenant id"
              description="The Directory (tenant) ID on the Overview of your Microsoft Entra ID"
              autoComplete="off"
              spellCheck={false}
              styles={MONOSPACE_INPUT}
              {...form.getInputProps('tenantId')}
            />
          ) : (
            <>
              <TextInput
                label="Metadata URL"
                description="The App Federation Metadata Url, on the Single sign-on page of the enterprise application"
                autoComplete="off"
                spellCheck={false}
                styles={MONOSPACE_INPUT}
                {...form.getInputProps('samlMetadataUrl')}
              />
              <Textarea
                label="Or paste the metadata XML"
                description={settings?.samlRegistered && !settings.samlMetadataUrl
                  ? 'The provider was registered from pasted metadata: paste it again to save a change.'
                  : 'Instead of the URL, when the provider cannot be reached from the internet'}
                autosize
                minRows={3}
                maxRows={10}
                spellCheck={false}
                styles={MONOSPACE_INPUT}
                {...form.getInputProps('samlMetadataXml')}
              />
            </>
          )}
          <Fieldset legend="Attribute mapping" variant="unstyled">
            <Text size="sm" mb="xs">
              {protocol === 'oidc' ? 'The claim' : 'The attribute'} of the provider that fills each of a person&apos;s details.
              Leave one empty if your provider does not send it.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {MAPPED_FIELDS.map((field) => (
                <TextInput
                  key={field}
                  label={MAPPED_FIELD_LABELS[field]}
                  description={MAPPING_HINTS[protocol][field]}
                  autoComplete="off"
                  spellCheck={false}
                  {...form.getInputProps(`attributeMapping.${field}`)}
                />
              ))}
            </SimpleGrid>
          </Fieldset>
          <Radio.Group label="Role of new people" description="What a person gets on their first sign-in" {...form.getInputProps('newPersonRole')}>
            <Group mt="xs">
              <Radio value="STUDENT" label={ROLE_LABELS.STUDENT} />
              <Radio value="INSTRUCTOR" label={ROLE_LABELS.INSTRUCTOR} />
            </Group>
          </Radio.Group>
          <Checkbox.Group label="Services of new people" {...form.getInputProps('newPersonServices')}>
            <SimpleGrid cols={{ base: 2, sm: 3 }} mt="xs" spacing="xs">
              {SERVICE_CODES.map((code) => (
                <Checkbox key={code} value={code} label={code} title={serviceLabel(code)} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group>
            <Button type="submit" loading={save.isPending}>Save settings</Button>
          </Group>
        </Stack>
      </form>
      <AtTheProvider protocol={protocol} signIn={signIn} />
    </Stack>
  );
}

/** The values the provider's administrators enter, each read-only and copyable. */
function AtTheProvider({ protocol, signIn }: { protocol: SignInProtocol; signIn: OrganisationSignIn }) {
  const values = protocol === 'oidc'
    ? [{ label: 'Redirect URI', value: signIn.provider.redirectUri, hint: 'Authentication › Web › Redirect URIs of the app registration' }]
    : [
      { label: 'Entity ID', value: signIn.provider.samlEntityId, hint: 'Identifier (Entity ID) in Basic SAML Configuration' },
      { label: 'Reply URL (ACS URL)', value: signIn.provider.samlAcsUrl, hint: 'Reply URL (Assertion Consumer Service URL) in Basic SAML Configuration' },
    ];
  return (
    <Stack gap="xs" maw={720}>
      <Title order={4} size="h5">What to enter at your identity provider</Title>
      {values.map((v) => (
        <Group key={v.label} align="flex-end" gap="xs" wrap="nowrap">
          <TextInput label={v.label} description={v.hint} value={v.value} readOnly styles={MONOSPACE_INPUT} style={{ flex: 1, minWidth: 0 }} />
          <CopyButton value={v.value}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy} aria-label={`Copy the ${v.label}`}>{copied ? 'Copied' : 'Copy'}</Button>
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
function testBlocked(signIn: OrganisationSignIn): string | null {
  const settings = signIn.settings;
  if (!settings) return 'Save the settings first.';
  if (settings.enabled) return 'Sign-in through the provider is on: to try it, sign in from the sign-in page.';
  if (settings.protocol === 'saml' && !settings.samlRegistered) return 'Save the SAML settings first.';
  if (settings.protocol === 'saml' && signIn.domains.length === 0) {
    return 'SAML finds your provider by the email domain: a national administrator must add one first.';
  }
  return null;
}

function TestSignIn({ organisation, signIn }: { organisation: Pick<Organisation, 'id' | 'name'>; signIn: OrganisationSignIn }) {
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
  const blocked = testBlocked(signIn);
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
      const message = errorDescription(error, 'The test sign-in could not start.');
      setFailure(message);
      setStarting(false);
      notifyFailure('Test not started', message, { action: 'sign-in-test' });
    }
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>Test sign-in</Title>
      <Text size="sm" maw={720}>
        Sign in through the provider with the saved settings, as one of your people would. Nobody is signed in or
        created: the test shows what the provider sent and where the person would be placed. You come back here.
      </Text>
      <div ref={answerRef} tabIndex={-1} aria-live="polite">
        {answer ? (
          <Alert color={answer.tested ? 'blue' : 'red'} title={answer.tested ? 'Test sign-in finished' : 'Test sign-in did not finish'}>
            {answer.message}
            {answer.tested ? ' Its result is the first in the list below.' : ''}
          </Alert>
        ) : null}
        {failure ? <Alert color="red" title="Test not started" role="alert">{failure}</Alert> : null}
      </div>
      <Group>
        <Button
          data-focus-id={TEST_BUTTON}
          onClick={() => void start()}
          loading={starting}
          disabled={blocked !== null}
          aria-describedby={blocked ? `${headingId}-blocked` : undefined}
        >
          Test sign-in
        </Button>
        {blocked ? <Text size="sm" id={`${headingId}-blocked`}>{blocked}</Text> : null}
      </Group>
      <TestList organisationName={organisation.name} tests={signIn.tests} />
    </Stack>
  );
}

const notGiven = <Text span c="dimmed" size="sm">Not sent</Text>;

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
  if (tests.length === 0) return <Text c="dimmed" size="sm">No test sign-ins yet.</Text>;
  return (
    <Stack gap="sm">
      <Title order={4} size="h5">Latest test sign-ins</Title>
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label={`Latest test sign-ins of ${organisationName}`}>
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
                ? <Badge color="teal.9" variant="filled">Passed</Badge>
                : <Badge color="red.9" variant="filled">Not passed</Badge>}
            </Group>
            {test.problem ? <Text size="sm" c="red.8" mb="xs">{test.problem}</Text> : null}
            <Pairs
              label="How the person would be placed"
              items={[
                ['Name', test.mapped.name ?? notGiven],
                ['Unit', test.mapped.unit ?? notGiven],
                ['Manager', test.mapped.manager ?? notGiven],
                ['Employee number', test.mapped.employeeNumber ?? notGiven],
                ['Role', test.mapped.role ? ROLE_LABELS[test.mapped.role as keyof typeof ROLE_LABELS] ?? test.mapped.role : notGiven],
                ['Services', test.mapped.services.length ? test.mapped.services.join(', ') : 'None'],
                ...(test.mapped.notes.length ? [['Notes', test.mapped.notes.join(' ')] as [string, string]] : []),
              ]}
            />
            <Box component="details" mt="xs">
              <Text component="summary" size="sm" fw={600} style={{ cursor: 'pointer' }}>What the provider sent</Text>
              <Box mt="xs">
                {Object.keys(test.received).length === 0 ? (
                  <Text size="sm" c="dimmed">Nothing</Text>
                ) : (
                  <Pairs label="What the provider sent" items={Object.entries(test.received).map(([key, value]) => [key, claimText(value)])} />
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
          field === 'enabled' ? (on ? 'Sign-in switched on' : 'Sign-in switched off') : 'Password sign-in changed',
          field === 'enabled'
            ? (on ? 'Your people now sign in through your identity provider.' : 'Your people sign in with their passwords again.')
            : (answer.settings?.passwordSignIn ? 'Your people may also sign in with a password.' : 'Your people sign in only through your identity provider.'),
          { action: 'sign-in-switch' },
        );
      },
      onError: (failure) => {
        const message = (failure instanceof ApiError && failure.fields?.[field]) || errorDescription(failure, 'The change could not be saved.');
        setRefusal({ field, message });
        notifyFailure('Not changed', message, { action: 'sign-in-switch' });
      },
    });
  };

  const switchDescription = !settings
    ? 'Set up the identity provider first.'
    : enabled
      ? 'Your people sign in through your identity provider.'
      : tested
        ? `A test sign-in passed on ${formatDateTime(settings.testedAt)}.`
        : 'Run a test sign-in that passes before switching it on.';

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} maw={720}>
      <Title order={3} size="h4" id={headingId}>Switch on</Title>
      <Switch
        label="Sign our people in through the identity provider"
        description={switchDescription}
        checked={enabled}
        disabled={!settings || (!enabled && !tested)}
        error={refusal?.field === 'enabled' ? refusal.message : undefined}
        onChange={(e) => send('enabled', { enabled: e.currentTarget.checked, passwordSignIn })}
      />
      <Checkbox
        label="Allow password sign-in for our people"
        description={
          (enabled ? '' : 'It can be switched off once sign-in through the provider is on. ')
          + 'Administrators always keep their password, so that they can still sign in when the provider is down.'
        }
        checked={passwordSignIn}
        disabled={!enabled}
        error={refusal?.field === 'passwordSignIn' ? refusal.message : undefined}
        onChange={(e) => send('passwordSignIn', { enabled, passwordSignIn: e.currentTarget.checked })}
      />
    </Stack>
  );
}
