import { Center, Loader } from '@mantine/core';

/** Full-area spinner with an accessible name, shown while a page or the session loads. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Center mih={240} role="status" aria-live="polite">
      <Loader aria-label={label} />
    </Center>
  );
}
