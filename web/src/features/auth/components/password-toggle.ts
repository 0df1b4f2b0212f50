// The show/hide button of the password fields: named without the word "password" so each field's
// label stays the only one that says it (for people using voice control, and for tests).
import type { TFunction } from 'i18next';

export const visibilityToggleProps = (t: TFunction<'auth'>) => ({ 'aria-label': t('passwordToggle.label') }) as const;
