// zod schemas of the account forms with their messages, defined once for the web forms and the api
// function. Imports only zod, mapped to npm:zod in Deno and resolved from node_modules by Vite.
import { z } from 'zod';

export const loginSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
  /** The browser's known-device token from an earlier sign-in (a malformed one is ignored). */
  device: z.string().regex(/^[A-Za-z0-9_-]{43}$/).optional().catch(undefined),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The account fields of registration, reused wherever an account is edited. */
export const usernameField = z
  .string({ error: 'Username must be at least 3 characters' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, numbers, dots, dashes and underscores');
export const emailField = z
  .string({ error: 'Invalid email address' })
  .trim()
  .email('Invalid email address')
  .max(254, 'Invalid email address');
export const nameField = z
  .string({ error: 'Name must be at least 2 characters' })
  .trim()
  .min(2, 'Name must be at least 2 characters')
  .max(100, 'Name must be at most 100 characters');
/** The server's answer (field error on the password) when a chosen password is on the common list. */
export const COMMON_PASSWORD = 'This password is too common and easy to guess. Please choose a different one.';
export const newPasswordField = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(72, 'Password must be at most 72 characters');
export const confirmPasswordField = z.string({ error: 'Please confirm your password' }).min(6, 'Please confirm your password');

export const registerSchema = z
  .object({
    username: usernameField,
    email: emailField,
    name: nameField,
    password: newPasswordField,
    confirmPassword: confirmPasswordField,
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type RegisterInput = z.infer<typeof registerSchema>;

/** Turns a zod error into `{ field: firstMessage }`, the `fields` of a 400 answer. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}
