// Profile and password-change schemas, shared by the profile page and PUT /api/profile[/password].
// The rules and messages are those of registration (schemas.ts) so that a name or email that
// could register can also be saved, and a new password obeys the same minimum.
import { z } from 'zod';
import { LANGUAGE_MESSAGE, LANGUAGES } from './language.ts';
import { confirmPasswordField, emailField, nameField, newPasswordField } from './schemas.ts';

export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';

export const profileSchema = z.object({ name: nameField, email: emailField });
export type ProfileInput = z.infer<typeof profileSchema>;

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required'),
    newPassword: newPasswordField,
    confirmPassword: confirmPasswordField,
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

/** PUT /api/profile/password/recovery: a new password from a recovery link's session (no current one). */
export const passwordRecoverySchema = z
  .object({
    newPassword: newPasswordField,
    confirmPassword: confirmPasswordField,
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type PasswordRecoveryInput = z.infer<typeof passwordRecoverySchema>;


/** PUT /api/profile/language. */
export const languageSchema = z.object({
  language: z.enum(LANGUAGES, { error: LANGUAGE_MESSAGE }),
});
export type LanguageInput = z.infer<typeof languageSchema>;
