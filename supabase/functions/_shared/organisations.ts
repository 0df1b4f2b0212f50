// Organisations and their units: the shapes and zod schemas shared by the api function
// (/api/organisations) and the web app's Organisation tab.
import { z } from 'zod';
import { UUID_PATTERN } from './ids.ts';
import { visibleName } from './schemas.ts';
import { SERVICE_CODES, type ServiceCode } from './services.ts';

export interface Organisation {
  id: string;
  name: string;
  /** Short code, unique ignoring case (e.g. NSP). */
  code: string;
  /** The organisation's sector. */
  service: ServiceCode;
  createdAt: string;
  /** People of the organisation. */
  people: number;
}

export interface Unit {
  id: string;
  organisationId: string;
  /** null for a top-level unit. */
  parentId: string | null;
  name: string;
  /** People of this unit and of every unit below it. */
  people: number;
}

// Names: the shared name rule, 1 to 200 characters (the database checks the same).
const nameField = (what: string) =>
  visibleName({ min: 1, max: 200, tooShort: `${what} is required`, tooLong: `${what} must be at most 200 characters` });

export const organisationInputSchema = z.object({
  name: nameField('Name'),
  code: z.string({ error: 'Code is required' }).trim()
    .regex(/^[A-Za-z0-9-]{2,16}$/, 'Code must be 2 to 16 letters, digits or dashes'),
  service: z.enum(SERVICE_CODES, { error: 'Choose a service' }),
});
export type OrganisationInput = z.infer<typeof organisationInputSchema>;

const parentField = z.union([z.string().regex(UUID_PATTERN, 'Choose a unit of this organisation'), z.null()], {
  error: 'Choose a unit of this organisation',
});

export const unitCreateSchema = z.object({
  name: nameField('Name'),
  parentId: parentField.optional().default(null),
});
export type UnitCreateInput = z.infer<typeof unitCreateSchema>;

/** Rename (name), move (parentId; null makes it top-level), or both. */
export const unitUpdateSchema = z.object({
  name: nameField('Name').optional(),
  parentId: parentField.optional(),
}).refine((v) => v.name !== undefined || v.parentId !== undefined, { message: 'Give a new name or a new parent', path: ['name'] });
export type UnitUpdateInput = z.infer<typeof unitUpdateSchema>;
