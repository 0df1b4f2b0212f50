// Profile and password-change schemas, shared by the profile page and PUT /api/profile[/password].
// The rules and messages are those of registration (specification §5) so that a name or email that
// could register can also be saved, and a new password obeys the same minimum.
import { z } from 'zod';

export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';

export const profileSchema = z.object({
  name: z
    .string({ error: 'Name must be at least 2 characters' })
    .trim()
    .min(2, 'Name must be at least 2 characters')
    .max(100, 'Name must be at most 100 characters'),
  email: z.string({ error: 'Invalid email address' }).trim().email('Invalid email address').max(254, 'Invalid email address'),
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required'),
    newPassword: z
      .string({ error: 'Password must be at least 6 characters' })
      .min(6, 'Password must be at least 6 characters')
      .max(72, 'Password must be at most 72 characters'),
    confirmPassword: z.string({ error: 'Please confirm your password' }).min(6, 'Please confirm your password'),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;
