// One organisation's units: a tree of nested lists (each list labelled by its parent, so a screen
// reader says where it is), each unit with its people (its sub-units' included) and its actions: add
// a sub-unit, rename, move (under another unit or to the top level; the server refuses a cycle and
// its message is shown).
import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Group, Menu, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Organisation } from '@shared/organisations.ts';
import { errorDescription } from '@/lib/api-client';
import { useUnits } from '../api/organisations';
import { useFocusRequest } from '../hooks/use-focus-request';
import { buildTree, type TreeNode } from '../lib/unit-tree';
import { MoveUnitDialog, UnitNameDialog } from './UnitDialogs';

type Dialog =
  | { kind: 'add'; parent: TreeNode | null }
  | { kind: 'rename'; node: TreeNode }
  | { kind: 'move'; node: TreeNode };

const actionsId = (unitId: string) => `unit-actions-${unitId}`;

export function UnitTree({ organisation, focusHeading = false }: {
  organisation: Pick<Organisation, 'id' | 'name' | 'code'>;
  focusHeading?: boolean;
}) {
  const { t } = useTranslation('organisations');
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
          <Text c="dimmed" size="sm">{t('unitTree.intro')}</Text>
        </div>
        <Button data-focus-id="unit-add-top" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'add', parent: null })}>
          {t('shared.addUnit')}
        </Button>
      </Group>
      {isError ? <Text c="red.8">{errorDescription(error, t('unitTree.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('unitTree.loading')}</Text> : null}
      {data && data.length === 0 ? (
        <Stack gap={4} py="xl" ta="center">
          <Text fw={600}>{t('unitTree.emptyTitle')}</Text>
          <Text c="dimmed">{t('unitTree.emptyText')}</Text>
        </Stack>
      ) : null}
      {tree.length > 0 ? (
        <UnitList nodes={tree} label={t('unitTree.unitsOf', { name: organisation.name })} level={1} onAction={setDialog} />
      ) : null}
      {dialog?.kind === 'add' ? (
        <UnitNameDialog
          organisationId={organisation.id}
          title={dialog.parent ? t('unitTree.addUnder', { name: dialog.parent.unit.name }) : t('unitTree.addTop')}
          parentId={dialog.parent?.unit.id ?? null}
          onDone={(unit) => closeDialog(unit ? actionsId(unit.id) : origin(dialog))}
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <UnitNameDialog
          organisationId={organisation.id}
          title={t('unitTree.renameTitle', { name: dialog.node.unit.name })}
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
  const { t } = useTranslation('organisations');
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
              <Text size="sm" c="dimmed">{t('unitTree.people', { count: node.unit.people })}</Text>
            </Box>
            <UnitActions node={node} onAction={onAction} />
          </Group>
          {node.children.length > 0 ? (
            <UnitList nodes={node.children} label={t('unitTree.unitsUnder', { name: node.unit.name })} level={level + 1} onAction={onAction} />
          ) : null}
        </li>
      ))}
    </Box>
  );
}

function UnitActions({ node, onAction }: { node: TreeNode; onAction: (dialog: Dialog) => void }) {
  const { t } = useTranslation('organisations');
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          data-focus-id={actionsId(node.unit.id)}
          size="xs"
          variant="default"
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={t('unitTree.actionsFor', { name: node.unit.name })}
          style={{ flexShrink: 0 }}
        >
          {t('unitTree.actions')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onAction({ kind: 'add', parent: node })}>{t('unitTree.addUnderIt')}</Menu.Item>
        <Menu.Item onClick={() => onAction({ kind: 'rename', node })}>{t('shared.rename')}</Menu.Item>
        <Menu.Item onClick={() => onAction({ kind: 'move', node })}>{t('shared.move')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
