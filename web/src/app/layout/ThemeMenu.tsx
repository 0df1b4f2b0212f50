// The colour scheme menu: light, dark or system (the default), kept by Mantine's colour scheme
// manager. Loaded with its first use (LazyMenu.tsx).
import { useEffect, useRef } from 'react';
import { Menu, useMantineColorScheme } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { OpenOnMount } from './LazyMenu';
import { THEME_OPTIONS, ThemeButton } from './ThemeButton';

export default function ThemeMenu({ openOnMount }: OpenOnMount) {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const target = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!openOnMount) return;
    target.current?.focus();
    target.current?.click();
  }, [openOnMount]);
  return (
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <ThemeButton ref={target} />
      </Menu.Target>
      <Menu.Dropdown>
        {THEME_OPTIONS.map(({ value, label, Icon }) => (
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
