// The one pattern of a row id (a uuid, any case), for the schemas here and the function's path
// parameters (api/lib/params.ts), and the schema of an id in a path or a body.
import { z } from 'zod';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid in a path: anything else is "not found", never a database error. */
export const uuidSchema = z.string().regex(UUID_PATTERN, 'Invalid id');
