// A national administrator adds an organisation: name, code and service, checked with the shared
// schema's messages; the server's refusals (a code in use) show under their field.
import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { type Organisation, type OrganisationInput, organisationInputSchema } from '@shared/organisations.ts';
import { SERVICE_CODES, serviceLabel } from '@shared/services.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useCreateOrganisation } from '../api/organisations';

export function AddOrganisationDialog({ opened, onClose }: { opened: boolean; onClose: (created?: Organisation) => void }) {
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
