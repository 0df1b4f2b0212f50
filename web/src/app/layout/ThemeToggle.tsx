// Colour scheme menu: light, dark or system (the default), kept by Mantine's colour scheme manager.
import { ActionIcon, Menu, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const OPTIONS: { value: MantineColorScheme; label: 'light' | 'dark' | 'system'; Icon: typeof IconSun }[] = [
  { value: 'light', label: 'light', Icon: IconSun },
  { value: 'dark', label: 'dark', Icon: IconMoon },
  { value: 'auto', label: 'system', Icon: IconDeviceDesktop },
];

export function ThemeToggle() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const current = OPTIONS.find((option) => option.value === colorScheme) ?? OPTIONS[2]!;
  return (
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={t('theme.label', { scheme: t(`theme.${current.label}`) })}>
          <current.Icon size={18} aria-hidden="true" />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {OPTIONS.map(({ value, label, Icon }) => (
          <Menu.Item
            key={value}
            leftSection={<Icon size={16} aria-hidden="true" />}
            rightSection={value === colorScheme ? <IconCheck size={14} aria-hidden="true" /> : null}
            aria-current={value === colorScheme ? 'true' : undefined}
            onClick={() => setColorScheme(value)}
          >
            {t(`theme.${label}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
