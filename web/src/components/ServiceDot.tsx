import { Box } from '@mantine/core';
import { serviceColor } from '@shared/services.ts';

/** The small colour dot of a service (decorative: the service name is always next to it). */
export function ServiceDot({ code, size = 10 }: { code: string; size?: number }) {
  return (
    <Box
      component="span"
      aria-hidden="true"
      data-service-dot={code}
      style={{
        display: 'inline-block',
        width: size,
        height: size,
        borderRadius: '50%',
        flexShrink: 0,
        backgroundColor: `var(--mantine-color-${serviceColor(code)}-filled)`,
      }}
    />
  );
}
