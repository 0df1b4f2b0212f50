// A SCORM module's package: upload or replace the .zip (the server checks it and says
// why it refuses one; a file over the site's size limit, settings.scormMaxUploadMb, is refused here
// before it is sent, in the server's words), what the package holds (title, version, its SCOs in order with their launch
// files) and what completes the module.
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Code, FileInput, Group, Loader, Modal, NumberInput, Radio, Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  type ScormCompletionRule,
  type ScormPackage,
  scormOverLimit,
  scormTooLargeMessage,
  scormVersionLabel,
} from '@shared/scorm.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { errorDescription } from '@/lib/api-client';
import { formatNumber, formatSize } from '@/lib/format';
import { useUser } from '@/lib/auth/user';
import { useSiteSettings } from '@/lib/site-settings/get-settings';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useSaveScormSettings, useScormPackage, useUploadScormPackage } from '../api/scorm';

const RULES: ScormCompletionRule[] = ['completed-or-passed', 'completed', 'passed'];

/** "SCORM 1.2", "SCORM 2004", or "SCORM 2004 (3rd edition)" in the page's language. */
function versionLabel(pkg: ScormPackage, t: TFunction<'course-editor'>): string {
  return pkg.version !== '1.2' && pkg.edition
    ? t('scorm.version2004Edition', { edition: t(`scorm.edition.${pkg.edition}`) })
    : scormVersionLabel(pkg.version, null);
}

export function ScormPackageDialog({ courseId, module, onClose }: { courseId: string; module: CourseModule; onClose: () => void }) {
  const { t } = useTranslation('course-editor');
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
      setUploadError(t('scorm.chooseFirst'));
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
      notifySuccess(t('scorm.uploaded'), t('scorm.uploadedMessage', { title: saved.title, revision: saved.revision }));
    } catch (error) {
      setUploadError(errorDescription(error, t('scorm.uploadError')));
    } finally {
      setRefocus((n) => n + 1);
    }
  }

  return (
    <Modal opened onClose={onClose} title={t('scorm.title', { title: module.title })} size="lg" closeButtonProps={{ 'aria-label': t('closeDialog') }}>
      <Stack gap="md">
        {pkg.isPending ? (
          <Group role="status" gap="xs">
            <Loader size="sm" aria-hidden />
            <Text>{t('scorm.loading')}</Text>
          </Group>
        ) : pkg.isError ? (
          <Text c="red.8">{errorDescription(pkg.error, t('scorm.loadError'))}</Text>
        ) : pkg.data ? (
          <PackageDetails pkg={pkg.data} />
        ) : (
          <Text size="sm">{t('scorm.none')}</Text>
        )}

        <Stack gap="xs">
          <FileInput
            label={pkg.data ? t('scorm.replaceLabel') : t('scorm.uploadLabel')}
            description={limitMb === undefined ? t('scorm.uploadHintSiteLimit') : t('scorm.uploadHint', { size: `${formatNumber(limitMb)} MB` })}
            placeholder={t('scorm.chooseFile')}
            accept=".zip,application/zip,application/x-zip-compressed"
            clearable
            clearButtonProps={{ 'aria-label': t('scorm.removeFile') }}
            value={file}
            error={uploadError}
            onChange={(chosen) => {
              setUploadError(tooLarge(chosen));
              setFile(chosen);
            }}
          />
          <Group justify="flex-end">
            <Button ref={uploadButton} onClick={() => void send()} loading={upload.isPending}>
              {pkg.data ? t('scorm.uploadReplacement') : t('scorm.uploadPackage')}
            </Button>
          </Group>
          <div role="status" aria-live="polite">
            {upload.isPending ? <Text size="sm">{t('scorm.unpacking')}</Text> : null}
          </div>
        </Stack>

        {pkg.data ? <ScormSettings key={`${pkg.data.revision}-${pkg.data.completionRule}-${pkg.data.scoreIsQuizScore}-${pkg.data.minMinutes}`} pkg={pkg.data} /> : null}

        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function PackageDetails({ pkg }: { pkg: ScormPackage }) {
  const { t } = useTranslation('course-editor');
  return (
    <Stack gap="xs" data-testid="scorm-package">
      <Title order={3} size="h4">
        {pkg.title}
      </Title>
      <Text size="sm">
        {t('scorm.details', {
          version: versionLabel(pkg, t),
          files: t('scorm.files', { count: pkg.fileCount, number: formatNumber(pkg.fileCount) }),
          size: formatSize(pkg.unpackedBytes),
          revision: pkg.revision,
        })}
      </Text>
      <Text size="sm" fw={600} id="scorm-scos-label">
        {pkg.scos.length === 1 ? t('scorm.launches') : t('scorm.parts', { count: pkg.scos.length })}
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
  const { t } = useTranslation('course-editor');
  const save = useSaveScormSettings(pkg.moduleId);
  const [rule, setRule] = useState<ScormCompletionRule>(pkg.completionRule);
  const [score, setScore] = useState(pkg.scoreIsQuizScore);
  const [minMinutes, setMinMinutes] = useState<number | string>(Math.round(pkg.minMinutes ?? 0));
  const [error, setError] = useState<string | null>(null);
  const minutes = typeof minMinutes === 'number' ? minMinutes : Number.NaN;
  const minutesError = Number.isInteger(minutes) && minutes >= 0 && minutes <= 1440 ? null : t('scorm.minMinutesError', { max: formatNumber(1440) });

  async function submit() {
    setError(null);
    if (minutesError) return;
    try {
      await save.mutateAsync({ completionRule: rule, scoreIsQuizScore: score, minMinutes: minutes });
      notifySuccess(t('scorm.settingsSaved'), t('scorm.settingsSavedMessage'));
    } catch (failure) {
      const message = errorDescription(failure, t('scorm.settingsError'));
      setError(message);
      notifyFailure(t('scorm.settingsErrorTitle'), message);
    }
  }

  return (
    <form
      noValidate
      aria-label={t('scorm.settingsForm')}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <Radio.Group label={t('scorm.ruleLabel')} value={rule} onChange={(value) => setRule(value as ScormCompletionRule)}>
          <Stack gap={6} mt={6}>
            {RULES.map((r) => (
              <Radio key={r} value={r} label={t(`scorm.rule.${r}`)} />
            ))}
          </Stack>
        </Radio.Group>
        <Checkbox label={t('scorm.scoreIsQuiz')} checked={score} onChange={(event) => setScore(event.currentTarget.checked)} />
        <NumberInput
          label={t('scorm.minMinutes')}
          description={t('scorm.minMinutesHint')}
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
          <Alert color="red" role="alert" title={t('scorm.notSaved')}>
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={save.isPending}>
            {t('scorm.saveSettings')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
