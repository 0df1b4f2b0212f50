// Organisation tab (issue 18). A national administrator sees every organisation (name, code,
// service, people), adds one, and opens one to see its units; an organisation's administrator sees
// their own organisation's units directly. Units are a tree of nested lists (each list labelled by
// its parent, so a screen reader says where it is), each unit with its people (its sub-units'
// included) and its actions: add a sub-unit, rename, move (under another unit or to the top level;
// the server refuses a cycle and its message is shown). After each action the focus goes to the
// unit acted on (or back where it came from when a dialog is cancelled).
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import {
  Alert, Box, Button, Group, Menu, Modal, Select, Stack, Table, Text, TextInput, Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useSearchParams } from 'react-router';
import { IconChevronDown, IconPlus } from '@tabler/icons-react';
import type { CurrentUser } from '@shared/domain.ts';
import { type Organisation, type OrganisationInput, organisationInputSchema, type Unit, unitCreateSchema } from '@shared/organisations.ts';
import { SERVICE_CODES, serviceLabel } from '@shared/services.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useCreateOrganisation, useCreateUnit, useOrganisations, useUnits, useUpdateUnit } from '../api/organisations';

/** "1 person", "4 people". */
export const peopleText = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;

/** Moves the focus to the element of this data-focus-id once it is on the page (after a dialog closes and
 * the list it belongs to has been fetched again). */
function useFocusRequest(): (id: string) => void {
  const [target, setTarget] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!target) return;
    // By data-focus-id: a menu's target button carries the id Mantine gives it.
    const element = document.querySelector<HTMLElement>(`[data-focus-id="${target}"]`);
    if (element) {
      element.focus();
      setTarget(null);
      return;
    }
    // Not there yet (a dialog still closing, a list still arriving): look again shortly.
    const timer = window.setTimeout(() => setTick((n) => n + 1), 50);
    return () => window.clearTimeout(timer);
  }, [target, tick]);
  return setTarget;
}

export function OrganisationTab({ user }: { user: CurrentUser }) {
  if (user.organisation) return <UnitTree organisation={user.organisation} />;
  return <NationalOrganisations />;
}

// ---------------------------------------------------------------------------
// National administrators: the organisations
// ---------------------------------------------------------------------------

function NationalOrganisations() {
  const { data, isPending, isError, error } = useOrganisations();
  // The organisation opened is in the URL (?organisation=), so a reload keeps it and Back returns
  // to the list.
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('organisation');
  const setSelectedId = (id: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set('organisation', id);
      else next.delete('organisation');
      return next;
    });
  const [adding, setAdding] = useState(false);
  const focus = useFocusRequest();
  const selected = data?.find((o) => o.id === selectedId) ?? null;

  if (selected) {
    return (
      <Stack>
        <Group>
          <Button
            variant="default"
            size="sm"
            onClick={() => {
              setSelectedId(null);
              focus(`organisation-open-${selected.id}`);
            }}
          >
            All organisations
          </Button>
        </Group>
        <UnitTree organisation={selected} focusHeading />
      </Stack>
    );
  }

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3" id="organisations-heading" tabIndex={-1}>Organisations</Title>
          <Text c="dimmed" size="sm">Each organisation sees only its own people. Open one to manage its units.</Text>
        </div>
        <Button data-focus-id="organisation-add" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          Add organisation
        </Button>
      </Group>
      {isError ? <Text c="red.8">{errorDescription(error, 'Failed to load organisations')}</Text> : null}
      {isPending ? <Text>Loading organisations…</Text> : null}
      {data && data.length === 0 ? (
        <Stack gap={4} py="xl" ta="center">
          <Text fw={600}>No organisations yet</Text>
          <Text c="dimmed">Add the first police force, trust or service that uses the platform.</Text>
        </Stack>
      ) : null}
      {data && data.length > 0 ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover aria-labelledby="organisations-heading">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Code</Table.Th>
                <Table.Th>Service</Table.Th>
                <Table.Th ta="right">People</Table.Th>
                <Table.Th><Text span size="sm" fw={700}>Units</Text></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((o) => (
                <Table.Tr key={o.id} data-organisation-code={o.code}>
                  <Table.Td><Text fw={500}>{o.name}</Text></Table.Td>
                  <Table.Td><Text span ff="monospace">{o.code}</Text></Table.Td>
                  <Table.Td><ServiceBadge code={o.service} /></Table.Td>
                  <Table.Td ta="right">{o.people}</Table.Td>
                  <Table.Td>
                    <Button
                      data-focus-id={`organisation-open-${o.id}`}
                      size="xs"
                      variant="default"
                      aria-label={`View units of ${o.name}`}
                      onClick={() => setSelectedId(o.id)}
                    >
                      View units
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <AddOrganisationDialog
        opened={adding}
        onClose={(created) => {
          setAdding(false);
          if (created) setSelectedId(created.id);
          else focus('organisation-add');
        }}
      />
    </Stack>
  );
}

function AddOrganisationDialog({ opened, onClose }: { opened: boolean; onClose: (created?: Organisation) => void }) {
  const form = useForm<OrganisationInput>({
    mode: 'controlled',
    initialValues: { name: '', code: '', service: '' as OrganisationInput['service'] },
    validate: zod4Resolver(organisationInputSchema, { errorPriority: 'first' }),
  });
  const create = useCreateOrganisation();
  const [failure, setFailure] = useState<string | null>(null);
  const close = (created?: Organisation) => {
    form.reset();
    setFailure(null);
    onClose(created);
  };
  return (
    <Modal
      opened={opened}
      onClose={() => close()}
      title="Add organisation"
      centered
      returnFocus={false}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      <form
        noValidate
        aria-label="Add organisation"
        onSubmit={form.onSubmit((values) => {
          setFailure(null);
          create.mutate(organisationInputSchema.parse(values), {
            onSuccess: (created) => {
              notifySuccess('Organisation added', `${created.name} (${created.code}) can now be given units and people.`, { action: 'organisation' });
              close(created);
            },
            onError: (error) => {
              if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
              else setFailure(errorDescription(error, 'The organisation could not be added.'));
            },
          });
        })}
      >
        <Stack>
          {failure ? <Alert color="red" title="Not added">{failure}</Alert> : null}
          <TextInput label="Name" required withAsterisk={false} data-autofocus key={form.key('name')} {...form.getInputProps('name')} />
          <TextInput
            label="Code"
            description="2 to 16 letters, digits or dashes, e.g. NSP."
            required
            withAsterisk={false}
            autoComplete="off"
            key={form.key('code')}
            {...form.getInputProps('code')}
          />
          <Select
            label="Service"
            placeholder="Choose a service"
            required
            withAsterisk={false}
            data={SERVICE_CODES.map((code) => ({ value: code, label: serviceLabel(code) }))}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            key={form.key('service')}
            {...form.getInputProps('service')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => close()}>Cancel</Button>
            <Button type="submit" loading={create.isPending}>Add organisation</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

// ---------------------------------------------------------------------------
// One organisation's units
// ---------------------------------------------------------------------------

interface TreeNode {
  unit: Unit;
  children: TreeNode[];
  /** "North Area › Central Station" */
  path: string;
}

/** The units as a tree, each level in name order. */
export function buildTree(units: Unit[]): TreeNode[] {
  const byParent = new Map<string | null, Unit[]>();
  for (const u of units) {
    const list = byParent.get(u.parentId) ?? [];
    list.push(u);
    byParent.set(u.parentId, list);
  }
  const known = new Set(units.map((u) => u.id));
  const grow = (parentId: string | null, prefix: string): TreeNode[] =>
    (byParent.get(parentId) ?? [])
      .sort((a, b) => a.name.localeCompare(b.name, 'en-GB'))
      .map((unit) => {
        const path = prefix ? `${prefix} › ${unit.name}` : unit.name;
        return { unit, path, children: grow(unit.id, path) };
      });
  // A unit whose parent is not in the answer (never expected) is shown at the top level.
  const orphans = units.filter((u) => u.parentId !== null && !known.has(u.parentId)).map((u) => u.id);
  return [...grow(null, ''), ...orphans.flatMap((id) => grow(id, ''))];
}

const flatten = (nodes: TreeNode[]): TreeNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

type Dialog =
  | { kind: 'add'; parent: TreeNode | null }
  | { kind: 'rename'; node: TreeNode }
  | { kind: 'move'; node: TreeNode };

const actionsId = (unitId: string) => `unit-actions-${unitId}`;

function UnitTree({ organisation, focusHeading = false }: {
  organisation: Pick<Organisation, 'id' | 'name' | 'code'>;
  focusHeading?: boolean;
}) {
  const { data, isPending, isError, error } = useUnits(organisation.id);
  const tree = useMemo(() => buildTree(data ?? []), [data]);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const focus = useFocusRequest();
  const headingId = `organisation-${organisation.id}-heading`;

  useEffect(() => {
    if (focusHeading) document.getElementById(headingId)?.focus();
  }, [focusHeading, headingId]);

  const closeDialog = (focusTarget: string) => {
    setDialog(null);
    focus(focusTarget);
  };
  const origin = (d: Dialog) =>
    d.kind === 'add' ? (d.parent ? actionsId(d.parent.unit.id) : 'unit-add-top') : actionsId(d.node.unit.id);

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3" id={headingId} tabIndex={-1}>
            {organisation.name} <Text span c="dimmed" ff="monospace" fz="md">({organisation.code})</Text>
          </Title>
          <Text c="dimmed" size="sm">Units and the people in each, counting its sub-units.</Text>
        </div>
        <Button data-focus-id="unit-add-top" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'add', parent: null })}>
          Add unit
        </Button>
      </Group>
      {isError ? <Text c="red.8">{errorDescription(error, 'Failed to load the units')}</Text> : null}
      {isPending ? <Text>Loading units…</Text> : null}
      {data && data.length === 0 ? (
        <Stack gap={4} py="xl" ta="center">
          <Text fw={600}>No units yet</Text>
          <Text c="dimmed">Add the organisation's areas, directorates or stations, then the units inside them.</Text>
        </Stack>
      ) : null}
      {tree.length > 0 ? (
        <UnitList nodes={tree} label={`Units of ${organisation.name}`} level={1} onAction={setDialog} />
      ) : null}
      {dialog?.kind === 'add' ? (
        <UnitNameDialog
          organisationId={organisation.id}
          title={dialog.parent ? `Add a unit under ${dialog.parent.unit.name}` : 'Add a top-level unit'}
          parentId={dialog.parent?.unit.id ?? null}
          onDone={(unit) => closeDialog(unit ? actionsId(unit.id) : origin(dialog))}
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <UnitNameDialog
          organisationId={organisation.id}
          title={`Rename ${dialog.node.unit.name}`}
          unit={dialog.node.unit}
          onDone={() => closeDialog(origin(dialog))}
        />
      ) : null}
      {dialog?.kind === 'move' ? (
        <MoveUnitDialog
          organisationId={organisation.id}
          node={dialog.node}
          tree={tree}
          onDone={() => closeDialog(origin(dialog))}
        />
      ) : null}
    </Stack>
  );
}

function UnitList({ nodes, label, level, onAction }: {
  nodes: TreeNode[];
  label: string;
  level: number;
  onAction: (dialog: Dialog) => void;
}) {
  return (
    <Box
      component="ul"
      aria-label={label}
      m={0}
      p={0}
      pl={level === 1 ? 0 : 'md'}
      ml={level === 1 ? 0 : 'xs'}
      style={{
        listStyle: 'none',
        borderLeft: level === 1 ? undefined : '2px solid var(--mantine-color-gray-4)',
      }}
    >
      {nodes.map((node) => (
        <li key={node.unit.id} data-unit-name={node.unit.name} data-level={level}>
          <Group justify="space-between" wrap="nowrap" gap="xs" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
            <Box style={{ minWidth: 0 }}>
              <Text fw={level === 1 ? 700 : 500} style={{ overflowWrap: 'anywhere' }}>{node.unit.name}</Text>
              <Text size="sm" c="dimmed">{peopleText(node.unit.people)}</Text>
            </Box>
            <UnitActions node={node} onAction={onAction} />
          </Group>
          {node.children.length > 0 ? (
            <UnitList nodes={node.children} label={`Units under ${node.unit.name}`} level={level + 1} onAction={onAction} />
          ) : null}
        </li>
      ))}
    </Box>
  );
}

function UnitActions({ node, onAction }: { node: TreeNode; onAction: (dialog: Dialog) => void }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          data-focus-id={actionsId(node.unit.id)}
          size="xs"
          variant="default"
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={`Actions for ${node.unit.name}`}
          style={{ flexShrink: 0 }}
        >
          Actions
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onAction({ kind: 'add', parent: node })}>Add a unit under it</Menu.Item>
        <Menu.Item onClick={() => onAction({ kind: 'rename', node })}>Rename</Menu.Item>
        <Menu.Item onClick={() => onAction({ kind: 'move', node })}>Move</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** Shows a server refusal: under its field when it names one, above the form otherwise. */
function useServerErrors(setFieldError: (field: string, message: string) => boolean) {
  const [failure, setFailure] = useState<string | null>(null);
  const onError = (error: Error) => {
    const fields = error instanceof ApiError ? error.fields : undefined;
    const shown = fields ? Object.entries(fields).map(([field, message]) => setFieldError(field, message)).some(Boolean) : false;
    setFailure(shown ? null : errorDescription(error, 'The change could not be saved.'));
  };
  const alert: ReactNode = failure ? <Alert color="red" title="Not saved">{failure}</Alert> : null;
  return { onError, alert, clear: () => setFailure(null) };
}

function DialogFrame({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  return (
    <Modal opened onClose={onClose} title={title} centered returnFocus={false} closeButtonProps={{ 'aria-label': 'Close dialog' }}>
      {children}
    </Modal>
  );
}

/** Add a unit (under parentId, or at the top level) or rename one. */
function UnitNameDialog({ organisationId, title, parentId = null, unit, onDone }: {
  organisationId: string;
  title: string;
  parentId?: string | null;
  unit?: Unit;
  onDone: (unit?: Unit) => void;
}) {
  const [name, setName] = useState(unit?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateUnit(organisationId);
  const update = useUpdateUnit(organisationId);
  const server = useServerErrors((field, message) => {
    if (field !== 'name') return false;
    setError(message);
    return true;
  });
  const pending = create.isPending || update.isPending;
  return (
    <DialogFrame title={title} onClose={() => onDone()}>
      <form
        noValidate
        aria-label={title}
        onSubmit={(event) => {
          event.preventDefault();
          server.clear();
          // The shared name rule, with its messages (the API checks the same).
          const checked = unitCreateSchema.shape.name.safeParse(name);
          if (!checked.success) {
            setError(checked.error.issues[0].message);
            return;
          }
          const trimmed = checked.data;
          setError(null);
          if (unit) {
            if (trimmed === unit.name) {
              onDone(unit);
              return;
            }
            update.mutate({ id: unit.id, name: trimmed }, {
              onSuccess: (saved) => {
                notifySuccess('Unit renamed', `${unit.name} is now ${saved.name}.`, { action: 'unit' });
                onDone(saved);
              },
              onError: server.onError,
            });
          } else {
            create.mutate({ name: trimmed, parentId }, {
              onSuccess: (saved) => {
                notifySuccess('Unit added', `${saved.name} has been added.`, { action: 'unit' });
                onDone(saved);
              },
              onError: server.onError,
            });
          }
        }}
      >
        <Stack>
          {server.alert}
          <TextInput
            label={unit ? 'New name' : 'Name'}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
            required
            withAsterisk={false}
            autoComplete="off"
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onDone()}>Cancel</Button>
            <Button type="submit" loading={pending}>{unit ? 'Rename' : 'Add unit'}</Button>
          </Group>
        </Stack>
      </form>
    </DialogFrame>
  );
}

const TOP_LEVEL = 'top-level';

/** Move a unit: under any unit that is not itself or below it, or to the top level. */
function MoveUnitDialog({ organisationId, node, tree, onDone }: {
  organisationId: string;
  node: TreeNode;
  tree: TreeNode[];
  onDone: () => void;
}) {
  const unit = node.unit;
  const [parent, setParent] = useState<string>(unit.parentId ?? TOP_LEVEL);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateUnit(organisationId);
  const server = useServerErrors((field, message) => {
    if (field !== 'parentId' && field !== 'name') return false;
    setError(message);
    return true;
  });
  const below = new Set(flatten([node]).map((n) => n.unit.id));
  const options = [
    { value: TOP_LEVEL, label: 'Top level (no parent unit)' },
    ...flatten(tree).filter((n) => !below.has(n.unit.id)).map((n) => ({ value: n.unit.id, label: n.path })),
  ];
  return (
    <DialogFrame title={`Move ${unit.name}`} onClose={onDone}>
      <form
        noValidate
        aria-label={`Move ${unit.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          server.clear();
          setError(null);
          const parentId = parent === TOP_LEVEL ? null : parent;
          if (parentId === unit.parentId) {
            onDone();
            return;
          }
          update.mutate({ id: unit.id, parentId }, {
            onSuccess: () => {
              const where = parentId ? options.find((o) => o.value === parentId)?.label ?? 'its new parent' : 'the top level';
              notifySuccess('Unit moved', `${unit.name} is now under ${where}.`, { action: 'unit' });
              onDone();
            },
            onError: server.onError,
          });
        }}
      >
        <Stack>
          <Text size="sm">
            Its sub-units and people move with it.{' '}
            {unit.parentId
              ? <>It is now under <strong>{node.path.slice(0, node.path.lastIndexOf(' › '))}</strong>.</>
              : 'It is now a top-level unit.'}
          </Text>
          {server.alert}
          <Select
            label="New parent unit"
            data={options}
            value={parent}
            onChange={(value) => setParent(value ?? TOP_LEVEL)}
            error={error}
            searchable
            allowDeselect={false}
            nothingFoundMessage="No unit of that name"
            comboboxProps={{ withinPortal: true }}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>Cancel</Button>
            <Button type="submit" loading={update.isPending}>Move</Button>
          </Group>
        </Stack>
      </form>
    </DialogFrame>
  );
}
