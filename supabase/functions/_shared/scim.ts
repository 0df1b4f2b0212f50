// SCIM provisioning tokens of an organisation: the shapes and zod schema shared by the api function
// (/api/organisations/:id/scim) and the web app's Organisation tab. The SCIM endpoints themselves
// (/api/scim/v2) speak RFC 7643/7644 and are not the web app's.
import { z } from 'zod';
import { visibleName } from './schemas.ts';

/** One token as administrators see it: never the token itself, which is shown once at creation. */
export interface ScimTokenItem {
  id: string;
  label: string;
  /** The token's last four characters, to tell tokens apart. */
  hint: string;
  createdAt: string;
  /** null when the person who made it has since been deleted. */
  createdByName: string | null;
  /** The latest use, to the minute; null when never used. */
  lastUsedAt: string | null;
  /** null while the token works. */
  revokedAt: string | null;
}

/** GET /api/organisations/:id/scim */
export interface ScimSettings {
  /** Where the organisation's identity system sends its requests (the tenant URL). */
  baseUrl: string;
  /** Newest first, revoked ones included. */
  tokens: ScimTokenItem[];
}

/** POST /api/organisations/:id/scim/tokens answers 201 with the token, shown this once. */
export interface CreatedScimToken {
  token: string;
  item: ScimTokenItem;
}

export const scimTokenCreateSchema = z.object({
  label: visibleName({
    min: 1,
    max: 80,
    tooShort: 'Give the token a label, such as "Microsoft Entra ID"',
    tooLong: 'The label must be at most 80 characters',
  }),
});
export type ScimTokenCreateInput = z.infer<typeof scimTokenCreateSchema>;
