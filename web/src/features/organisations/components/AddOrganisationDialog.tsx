// A national administrator adds an organisation: name, code and service, checked with the shared
// schema's messages; the server's refusals (a code in use) show under their field.
import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { type Organisation, type OrganisationInput, organisationInputSchema } from '@shared/organisations.ts';
import { SERVICE_CODES } from '@shared/services.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { labelOf } from '@/lib/i18n/labels';
import { notifySuccess } from '@/lib/notify';
import { useCreateOrganisation } from '../api/organisations';

export function AddOrganisationDialog({ opened, onClose }: { opened: boolean; onClose: (created?: Organisation) => void }) {
  const { t } = useTranslation('organisations');
  const form = useForm<OrganisationInput>({
    mode: 'controlled',
    initialValues: { name: '', code: '', service: '' as OrganisationInput['service'] },
    validate: translatedResolver(organisationInputSchema, { errorPriority: 'first' }),
  });
  const create = useCreateOrganisation();
  // The fields' props, by field name (names, not text).
  const nameInput = form.getInputProps('name');
  const codeInput = form.getInputProps('code');
  const serviceInput = form.getInputProps('service');
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
      title={t('organisationTab.add')}
      centered
      returnFocus={false}
      closeButtonProps={{ 'aria-label': t('shared.closeDialog') }}
    >
      <form
        noValidate
        aria-label={t('organisationTab.add')}
        onSubmit={form.onSubmit((values) => {
          setFailure(null);
          create.mutate(organisationInputSchema.parse(values), {
            onSuccess: (created) => {
              notifySuccess(t('addOrganisationDialog.addedTitle'), t('addOrganisationDialog.addedMessage', { name: created.name, code: created.code }), { action: 'organisation' });
              close(created);
            },
            onError: (error) => {
              if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
              else setFailure(errorDescription(error, t('addOrganisationDialog.addFailed')));
            },
          });
        })}
      >
        <Stack>
          {failure ? <Alert color="red" title={t('addOrganisationDialog.notAdded')}>{failure}</Alert> : null}
          <TextInput label={t('shared.name')} required withAsterisk={false} data-autofocus key={form.key('name')} {...nameInput} />
          <TextInput
            label={t('organisationTab.code')}
            description={t('addOrganisationDialog.codeDescription')}
            required
            withAsterisk={false}
            autoComplete="off"
            key={form.key('code')}
            {...codeInput}
          />
          <Select
            label={t('organisationTab.service')}
            placeholder={t('addOrganisationDialog.servicePlaceholder')}
            required
            withAsterisk={false}
            data={SERVICE_CODES.map((code) => ({ value: code, label: labelOf('service', code) }))}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            key={form.key('service')}
            {...serviceInput}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => close()}>{t('shared.cancel')}</Button>
            <Button type="submit" loading={create.isPending}>{t('organisationTab.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
