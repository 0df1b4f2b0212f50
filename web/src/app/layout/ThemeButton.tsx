// The colour scheme menu's button: the icon of the scheme in use, named for screen readers.
import type { Ref } from 'react';
import { ActionIcon, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export const THEME_OPTIONS: { value: MantineColorScheme; label: 'light' | 'dark' | 'system'; Icon: typeof IconSun }[] = [
  { value: 'light', label: 'light', Icon: IconSun },
  { value: 'dark', label: 'dark', Icon: IconMoon },
  { value: 'auto', label: 'system', Icon: IconDeviceDesktop },
];

export function ThemeButton({ ref, ...props }: { ref?: Ref<HTMLButtonElement> } & Record<string, unknown>) {
  const { t } = useTranslation();
  const { colorScheme } = useMantineColorScheme();
  const current = THEME_OPTIONS.find((option) => option.value === colorScheme) ?? THEME_OPTIONS[2]!;
  return (
    <ActionIcon ref={ref} variant="default" size="lg" aria-haspopup="menu" aria-label={t('theme.label', { scheme: t(`theme.${current.label}`) })} {...props}>
      <current.Icon size={18} aria-hidden="true" />
    </ActionIcon>
  );
}
