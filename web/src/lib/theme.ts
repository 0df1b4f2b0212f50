// Mantine theme. Shades are chosen for WCAG 2.2 AA contrast: white on blue.8 is 4.9:1 (blue.6 is only
// 3.6:1), and the dimmed, anchor, placeholder and error colours are darkened in light mode and
// lightened in dark mode.
import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  focusRing: 'auto',
  // A person who asks their device for less motion gets Mantine's transitions (menus, modals, toasts) without it.
  respectReducedMotion: true,
  components: {
    Tooltip: { defaultProps: { openDelay: 700 } },
    // Badges are short labels (status, role, service): never cut to "ST…" or "IN PROG…". A badge
    // keeps its full width (tables widen the column instead of squeezing it) and never ellipsises.
    Badge: {
      styles: {
        root: { maxWidth: 'none', minWidth: 'max-content', flexShrink: 0, overflow: 'visible' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      },
    },
    // The toast description is gray.6 / dark.2 by default (3.3:1 and 3.5:1): use the darker dimmed.
    Notification: { styles: { description: { color: 'var(--mantine-color-dimmed)' } } },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-anchor': t.colors.blue[8],
    '--mantine-color-placeholder': t.colors.gray[7],
    '--mantine-color-error': t.colors.red[9],
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--mantine-color-anchor': t.colors.blue[3],
    '--mantine-color-placeholder': t.colors.dark[1],
    '--mantine-color-error': t.colors.red[4],
  },
});
