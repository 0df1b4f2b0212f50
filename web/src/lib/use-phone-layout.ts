// Whether the screen is phone-narrow (below Mantine's `sm`, 48em = 768 px): wide tables give way to
// stacked cards there (at 390 px a table would cut off the hours, score, validity and CPD actions).
// Read synchronously, so the first paint already has the right layout.
import { useMediaQuery } from '@mantine/hooks';

export const PHONE_QUERY = '(max-width: 47.99em)';

export function usePhoneLayout(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}
