// /api/sign-in/organisation?email=: how a work address signs in (the sign-in page asks before it
// sends the person to their organisation's identity provider). Anyone may ask; only sign-ins that
// are switched on answer.
import { Hono } from 'hono';
import { z } from 'zod';
import type { OrganisationSignInOption } from '../../../_shared/sign-in.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, visitor } from '../../lib/auth.ts';
import { validate } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';

const lookupSchema = z.object({
  email: z.string({ error: 'Give your work email address' }).trim().toLowerCase().max(320, 'At most 320 characters')
    .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'Give your work email address, such as name@force.police.uk'),
});

export function signInLookupRoutes(db: Db) {
  const app = new Hono<Env>();

  app.get('/organisation', async (c) => {
    const { email } = validate(lookupSchema, { email: c.req.query('email') });
    // As a visitor: the function is granted to anon and reads only switched-on sign-ins.
    const [row] = await db.withCaller(visitor.db, (tx) => tx<OrganisationSignInOption[]>`
      select protocol, organisation_name, domain, password_sign_in from private.organisation_sign_in_for(${email})`);
    if (!row) throw new ApiError(404, `No organisation signs in with addresses at ${email.split('@')[1]} here`);
    return c.json(row);
  });

  return app;
}
