import { Center, Loader } from '@mantine/core';

/** Full-area spinner with an accessible name, shown while a page or the session loads. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Center mih={240} role="status" aria-live="polite">
      {/* role img: an aria-label on a role-less element is not allowed (axe aria-prohibited-attr, serious). */}
      <Loader role="img" aria-label={label} />
    </Center>
  );
}
