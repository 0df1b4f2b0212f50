// Mantine's useId, without its second render. Mantine's own (@mantine/hooks) starts from React's id
// and then, in a layout effect, swaps in a random one: every Input, Popover, Menu, Alert and the
// AppShell rendered twice at mount, the second time synchronously, in one long task right after
// the prerendered page hydrated (docs/PERFORMANCE.md). React's useId is unique within the root and
// the same in the prerendered HTML and in the browser, so it is kept as is. web/vite.config.ts puts
// this module in place of Mantine's.
import { useId as useReactId } from 'react';

export function useId(staticId?: string): string {
  const reactId = useReactId();
  if (typeof staticId === 'string') return staticId;
  return `mantine-${reactId.replace(/:/g, '')}`;
}
