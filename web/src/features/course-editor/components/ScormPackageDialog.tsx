// A SCORM module's package: upload or replace the .zip (the server checks it and says
// why it refuses one; a file over the site's size limit, settings.scormMaxUploadMb, is refused here
// before it is sent, in the server's words), what the package holds (title, version, its SCOs in order with their launch
// files) and what completes the module.
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Code, FileInput, Group, Loader, Modal, NumberInput, Radio, Stack, Text, Title } from '@mantine/core';
import {
  type ScormCompletionRule,
  type ScormPackage,
  scormOverLimit,
  scormTooLargeMessage,
  scormVersionLabel,
} from '@shared/scorm.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { errorDescription } from '@/lib/api-client';
import { useUser } from '@/lib/auth/user';
import { useSiteSettings } from '@/lib/site-settings/get-settings';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useSaveScormSettings, useScormPackage, useUploadScormPackage } from '../api/scorm';

const RULES: { value: ScormCompletionRule; label: string }[] = [
  { value: 'completed-or-passed', label: 'Completed or passed (either)' },
  { value: 'completed', label: 'Completed' },
  { value: 'passed', label: 'Passed' },
];

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-GB')} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString('en-GB', { maximumFractionDigits: 1 })} MB`;
}

export function ScormPackageDialog({ courseId, module, onClose }: { courseId: string; module: CourseModule; onClose: () => void }) {
  const pkg = useScormPackage(module.id);
  const upload = useUploadScormPackage(courseId, module.id);
  const [file, setFile] = useState<File | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const uploadButton = useRef<HTMLButtonElement>(null);
  const [refocus, setRefocus] = useState(0);
  const { data: user, isPending: userPending } = useUser();
  const limitMb = useSiteSettings(userPending ? undefined : (user?.id ?? null)).data?.scormMaxUploadMb;
  const tooLarge = (chosen: File | null) =>
    chosen && limitMb !== undefined && scormOverLimit(chosen.size, limitMb) ? scormTooLargeMessage(chosen.size, limitMb) : null;
  // Focus stays on the action the author took, whatever the answer: once the button is enabled again.
  useEffect(() => {
    if (refocus > 0 && !upload.isPending) uploadButton.current?.focus();
  }, [refocus, upload.isPending]);

  async function send() {
    if (!file) {
      setUploadError('Choose a .zip file to upload');
      return;
    }
    // The server checks again; this spares the author sending hundreds of MB to be refused.
    const over = tooLarge(file);
    if (over) {
      setUploadError(over);
      return;
    }
    setUploadError(null);
    try {
      const saved = await upload.mutateAsync(file);
      setFile(null);
      notifySuccess('Package uploaded', `"${saved.title}" is ready (revision ${saved.revision}).`);
    } catch (error) {
      setUploadError(errorDescription(error, 'The package could not be uploaded.'));
    } finally {
      setRefocus((n) => n + 1);
    }
  }

  return (
    <Modal opened onClose={onClose} title={`SCORM package: ${module.title}`} size="lg" closeButtonProps={{ 'aria-label': 'Close dialog' }}>
      <Stack gap="md">
        {pkg.isPending ? (
          <Group role="status" gap="xs">
            <Loader size="sm" aria-hidden />
            <Text>Loading the package</Text>
          </Group>
        ) : pkg.isError ? (
          <Text c="red.8">{errorDescription(pkg.error, 'The package could not be loaded.')}</Text>
        ) : pkg.data ? (
          <PackageDetails pkg={pkg.data} />
        ) : (
          <Text size="sm">No package uploaded yet. Export the course from your authoring tool as SCORM 1.2 or SCORM 2004 and upload the .zip.</Text>
        )}

        <Stack gap="xs">
          <FileInput
            label={pkg.data ? 'Replace the package (.zip)' : 'SCORM package (.zip)'}
            description={`SCORM 1.2 or 2004 (2nd, 3rd or 4th edition), up to ${limitMb === undefined ? 'the site\'s size limit' : `${limitMb.toLocaleString('en-GB')} MB`}`}
            placeholder="Choose a .zip file"
            accept=".zip,application/zip,application/x-zip-compressed"
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the chosen file' }}
            value={file}
            error={uploadError}
            onChange={(chosen) => {
              setUploadError(tooLarge(chosen));
              setFile(chosen);
            }}
          />
          <Group justify="flex-end">
            <Button ref={uploadButton} onClick={() => void send()} loading={upload.isPending}>
              {pkg.data ? 'Upload replacement' : 'Upload package'}
            </Button>
          </Group>
          <div role="status" aria-live="polite">
            {upload.isPending ? <Text size="sm">Checking and unpacking the package. Large packages take a minute.</Text> : null}
          </div>
        </Stack>

        {pkg.data ? <ScormSettings key={`${pkg.data.revision}-${pkg.data.completionRule}-${pkg.data.scoreIsQuizScore}-${pkg.data.minMinutes}`} pkg={pkg.data} /> : null}

        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function PackageDetails({ pkg }: { pkg: ScormPackage }) {
  return (
    <Stack gap="xs" data-testid="scorm-package">
      <Title order={3} size="h4">
        {pkg.title}
      </Title>
      <Text size="sm">
        {scormVersionLabel(pkg.version, pkg.edition)} · {pkg.fileCount.toLocaleString('en-GB')} files, {size(pkg.unpackedBytes)} · revision {pkg.revision}
      </Text>
      <Text size="sm" fw={600} id="scorm-scos-label">
        {pkg.scos.length === 1 ? 'Launches' : `${pkg.scos.length} parts (SCOs), in order`}
      </Text>
      <Stack component="ol" gap={4} aria-labelledby="scorm-scos-label" style={{ margin: 0, paddingLeft: '1.25rem' }}>
        {pkg.scos.map((sco) => (
          <li key={sco.id}>
            <Text size="sm" span>
              {sco.title}
            </Text>{' '}
            <Code style={{ overflowWrap: 'anywhere' }}>{sco.href}</Code>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

function ScormSettings({ pkg }: { pkg: ScormPackage }) {
  const save = useSaveScormSettings(pkg.moduleId);
  const [rule, setRule] = useState<ScormCompletionRule>(pkg.completionRule);
  const [score, setScore] = useState(pkg.scoreIsQuizScore);
  const [minMinutes, setMinMinutes] = useState<number | string>(Math.round(pkg.minMinutes ?? 0));
  const [error, setError] = useState<string | null>(null);
  const minutes = typeof minMinutes === 'number' ? minMinutes : Number.NaN;
  const minutesError = Number.isInteger(minutes) && minutes >= 0 && minutes <= 1440 ? null : 'Minimum time must be from 0 to 1,440 minutes';

  async function submit() {
    setError(null);
    if (minutesError) return;
    try {
      await save.mutateAsync({ completionRule: rule, scoreIsQuizScore: score, minMinutes: minutes });
      notifySuccess('Settings saved', 'What completes the module has been saved.');
    } catch (failure) {
      const message = errorDescription(failure, 'The settings could not be saved.');
      setError(message);
      notifyFailure('Error saving settings', message);
    }
  }

  return (
    <form
      noValidate
      aria-label="Completion settings"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <Radio.Group label="The module is complete when the package reports" value={rule} onChange={(value) => setRule(value as ScormCompletionRule)}>
          <Stack gap={6} mt={6}>
            {RULES.map((r) => (
              <Radio key={r.value} value={r.value} label={r.label} />
            ))}
          </Stack>
        </Radio.Group>
        <Checkbox label="The package's score counts as the module's quiz score" checked={score} onChange={(event) => setScore(event.currentTarget.checked)} />
        <NumberInput
          label="Minimum time (minutes)"
          description="A learner's attempt counts only once they have spent this long in the package, by the platform's clock. 0: no minimum."
          min={0}
          max={1440}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          value={minMinutes}
          onChange={setMinMinutes}
          error={minutesError}
          w={{ base: '100%', xs: 320 }}
        />
        {error ? (
          <Alert color="red" role="alert" title="Not saved">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={save.isPending}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
