// The account menu's button: the person's initials and name.
import type { Ref } from 'react';
import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { initials } from '@/lib/initials';

export function AccountButton({ ref, name, ...props }: { ref?: Ref<HTMLButtonElement>; name: string } & Record<string, unknown>) {
  const { t } = useTranslation();
  return (
    <UnstyledButton
      ref={ref}
      aria-haspopup="menu"
      aria-label={t('userMenu.accountMenu', { name })}
      style={{ borderRadius: 'var(--mantine-radius-md)', padding: '4px 8px' }}
      {...props}
    >
      <Group gap="xs" wrap="nowrap">
        <Avatar color="blue" variant="filled" radius="xl" size="md" aria-hidden="true">
          {initials(name)}
        </Avatar>
        <Text size="sm" fw={500} visibleFrom="xs" lineClamp={1}>
          {name}
        </Text>
        <IconChevronDown size={14} aria-hidden="true" />
      </Group>
    </UnstyledButton>
  );
}
