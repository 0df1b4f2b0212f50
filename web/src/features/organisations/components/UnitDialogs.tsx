// The dialogs of a unit's actions: add a unit (under another or at the top level), rename one, move
// one. A server refusal shows under its field when it names one, above the form otherwise.
import { type ReactNode, useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { type Unit, unitCreateSchema } from '@shared/organisations.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useCreateUnit, useUpdateUnit } from '../api/organisations';
import { flatten, type TreeNode } from '../lib/unit-tree';

/** Shows a server refusal: under its field when it names one, above the form otherwise. */
function useServerErrors(setFieldError: (field: string, message: string) => boolean) {
  const { t } = useTranslation('organisations');
  const [failure, setFailure] = useState<string | null>(null);
  const onError = (error: Error) => {
    const fields = error instanceof ApiError ? error.fields : undefined;
    const shown = fields ? Object.entries(fields).map(([field, message]) => setFieldError(field, message)).some(Boolean) : false;
    setFailure(shown ? null : errorDescription(error, t('shared.changeNotSaved')));
  };
  const alert: ReactNode = failure ? <Alert color="red" title={t('unitDialogs.notSaved')}>{failure}</Alert> : null;
  return { onError, alert, clear: () => setFailure(null) };
}

function DialogFrame({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation('organisations');
  return (
    <Modal opened onClose={onClose} title={title} centered returnFocus={false} closeButtonProps={{ 'aria-label': t('shared.closeDialog') }}>
      {children}
    </Modal>
  );
}

/** Add a unit (under parentId, or at the top level) or rename one. */
export function UnitNameDialog({ organisationId, title, parentId = null, unit, onDone }: {
  organisationId: string;
  title: string;
  parentId?: string | null;
  unit?: Unit;
  onDone: (unit?: Unit) => void;
}) {
  const { t } = useTranslation('organisations');
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
                notifySuccess(t('unitDialogs.renamedTitle'), t('unitDialogs.renamedMessage', { from: unit.name, to: saved.name }), { action: 'unit' });
                onDone(saved);
              },
              onError: server.onError,
            });
          } else {
            create.mutate({ name: trimmed, parentId }, {
              onSuccess: (saved) => {
                notifySuccess(t('unitDialogs.addedTitle'), t('unitDialogs.addedMessage', { name: saved.name }), { action: 'unit' });
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
            label={unit ? t('unitDialogs.newName') : t('shared.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
            required
            withAsterisk={false}
            autoComplete="off"
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onDone()}>{t('shared.cancel')}</Button>
            <Button type="submit" loading={pending}>{unit ? t('shared.rename') : t('shared.addUnit')}</Button>
          </Group>
        </Stack>
      </form>
    </DialogFrame>
  );
}

const TOP_LEVEL = 'top-level';

/** Move a unit: under any unit that is not itself or below it, or to the top level. */
export function MoveUnitDialog({ organisationId, node, tree, onDone }: {
  organisationId: string;
  node: TreeNode;
  tree: TreeNode[];
  onDone: () => void;
}) {
  const { t } = useTranslation('organisations');
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
    { value: TOP_LEVEL, label: t('unitDialogs.topLevel') },
    ...flatten(tree).filter((n) => !below.has(n.unit.id)).map((n) => ({ value: n.unit.id, label: n.path })),
  ];
  return (
    <DialogFrame title={t('unitDialogs.moveTitle', { name: unit.name })} onClose={onDone}>
      <form
        noValidate
        aria-label={t('unitDialogs.moveTitle', { name: unit.name })}
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
              const where = parentId ? options.find((o) => o.value === parentId)?.label : undefined;
              const message = !parentId
                ? t('unitDialogs.movedToTop', { name: unit.name })
                : where
                  ? t('unitDialogs.movedUnder', { name: unit.name, where })
                  : t('unitDialogs.movedToNewParent', { name: unit.name });
              notifySuccess(t('unitDialogs.movedTitle'), message, { action: 'unit' });
              onDone();
            },
            onError: server.onError,
          });
        }}
      >
        <Stack>
          <Text size="sm">
            {t('unitDialogs.movesWithIt')}{' '}
            {unit.parentId
              ? (
                <Trans
                  t={t}
                  i18nKey="unitDialogs.nowUnder"
                  values={{ path: node.path.slice(0, node.path.lastIndexOf(' › ')) }}
                  components={{ strong: <strong /> }}
                />
              )
              : t('unitDialogs.nowTop')}
          </Text>
          {server.alert}
          <Select
            label={t('unitDialogs.newParent')}
            data={options}
            value={parent}
            onChange={(value) => setParent(value ?? TOP_LEVEL)}
            error={error}
            searchable
            allowDeselect={false}
            nothingFoundMessage={t('unitDialogs.nothingFound')}
            comboboxProps={{ withinPortal: true }}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>{t('shared.cancel')}</Button>
            <Button type="submit" loading={update.isPending}>{t('shared.move')}</Button>
          </Group>
        </Stack>
      </form>
    </DialogFrame>
  );
}
