// The badge of a course's service: its code on the service colour, with the
// full name for assistive technology and as a tooltip. Unknown codes fall back to grey.
import { Badge, type BadgeProps, useMantineTheme, VisuallyHidden } from '@mantine/core';
import { serviceColor } from '@shared/services.ts';
import { useTranslation } from 'react-i18next';
import { labelOf } from '@/lib/i18n/labels';

/** Relative luminance of a #rrggbb colour (WCAG 2.2). */
function luminance(hex: string): number {
  const value = hex.replace('#', '');
  const channels = [0, 2, 4].map((i) => parseInt(value.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Black or white, whichever contrasts more with the background: never below 4.5:1 (AA). */
export function readableTextOn(hex: string): '#000' | '#fff' {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000' : '#fff';
}

export interface ServiceBadgeProps extends Omit<BadgeProps, 'color' | 'children'> {
  code: string;
  /** Show the full service name instead of the code. */
  full?: boolean;
}

export function ServiceBadge({ code, full = false, ...props }: ServiceBadgeProps) {
  useTranslation();
  const theme = useMantineTheme();
  const color = serviceColor(code);
  const background = theme.colors[color]?.[7] ?? theme.colors.gray[7];
  const label = labelOf('service', code);
  return (
    <Badge
      variant="filled"
      radius="sm"
      title={full ? undefined : label}
      data-service={code}
      {...props}
      style={{ backgroundColor: background, color: readableTextOn(background) }}
    >
      {full ? label : code}
      {/* Screen readers hear "UKPS (United Kingdom Police Service)". */}
      {!full && label !== code ? <VisuallyHidden>{` (${label})`}</VisuallyHidden> : null}
    </Badge>
  );
}
