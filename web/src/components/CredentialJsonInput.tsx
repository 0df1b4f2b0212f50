// A credential given as JSON, pasted or read from a .json file (the "Verify a credential" page and
// the passport's "Add a credential"): the text area holds it either way, so the person sees what is
// sent. parseCredentialJson checks what the browser can (size, JSON, an object) before anything goes
// to the server, which checks the rest.
import { useRef, useState } from 'react';
import { Button, FileButton, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { i18n } from '@/lib/i18n/i18n';

/** The largest credential the server reads (256 KB). */
export const CREDENTIAL_MAX_BYTES = 256 * 1024;

export type ParsedCredential = { credential: Record<string, unknown>; error?: undefined } | { credential?: undefined; error: string };

/** The credential in `text`, or why it cannot be one (in the page's language). */
export function parseCredentialJson(text: string): ParsedCredential {
  const t = (key: string) => i18n.t(`credentialInput.${key}`, { ns: 'common' });
  const trimmed = text.trim();
  if (!trimmed) return { error: t('empty') };
  if (new TextEncoder().encode(trimmed).length > CREDENTIAL_MAX_BYTES) return { error: t('tooLarge') };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { error: t('notJson') };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: t('notObject') };
  return { credential: value as Record<string, unknown> };
}

export function CredentialJsonInput({ value, onChange, error, label }: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  label?: string;
}) {
  const { t } = useTranslation();
  const resetFile = useRef<() => void>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  return (
    <Stack gap="xs">
      <Textarea
        ref={area}
        label={label ?? t('credentialInput.label')}
        description={t('credentialInput.description')}
        value={value}
        onChange={(event) => {
          setFileError(null);
          onChange(event.currentTarget.value);
        }}
        error={fileError ?? error}
        autosize
        minRows={6}
        maxRows={14}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
      />
      <Group gap="sm">
        <FileButton
          resetRef={resetFile}
          accept="application/json,application/ld+json,.json,.jsonld"
          onChange={(file) => {
            if (!file) return;
            if (file.size > CREDENTIAL_MAX_BYTES) {
              setFileError(t('credentialInput.tooLarge'));
              area.current?.focus();
              resetFile.current?.();
              return;
            }
            void file.text().then((text) => {
              setFileError(null);
              onChange(text);
              resetFile.current?.();
              // The file's text is now in the box: the focus goes where it can be read.
              area.current?.focus();
            });
          }}
        >
          {(props) => (
            <Button {...props} variant="default" leftSection={<IconFileUpload size={16} aria-hidden />}>
              {t('credentialInput.upload')}
            </Button>
          )}
        </FileButton>
        <Text size="sm" c="dimmed">{t('credentialInput.uploadHint')}</Text>
      </Group>
    </Stack>
  );
}
