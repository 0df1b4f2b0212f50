// The demo trust's SAML sign-in, switched on once Auth and the function are up (`npm start` on a new
// database): its administrator registers the local SAML IdP through the app's own route, as a person
// would in the Sign-in panel, and the seed marks it tested (supabase/seed-organisations.sql switches
// the force's OpenID Connect sign-in on the same way).
export const DEMO_TRUST = '90000000-0000-4000-a000-000000000002';
const TRUST_ADMIN = { email: 'trustadmin@southshire-ambulance.example.uk', password: 'password123' };

/**
 * @param {{ publicUrl: string, anonKey: string, metadataUrl: string,
 *   sql: import('postgres').Sql, log?: (msg: string) => void }} options
 */
export async function switchOnDemoSamlSignIn({ publicUrl, anonKey, metadataUrl, sql, log = () => {} }) {
  const signedIn = await fetch(`${publicUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(TRUST_ADMIN),
  });
  if (!signedIn.ok) throw new Error(`the demo trust's administrator could not sign in: ${signedIn.status}`);
  const { access_token: token } = await signedIn.json();
  const saved = await fetch(`${publicUrl}/functions/v1/api/organisations/${DEMO_TRUST}/sign-in`, {
    method: 'PUT',
    headers: { apikey: anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      protocol: 'saml',
      samlMetadataUrl: metadataUrl,
      attributeMapping: { unit: 'department', manager: 'manager', employee_number: 'employeeid' },
      newPersonServices: ['UKAS'],
    }),
  });
  if (!saved.ok) throw new Error(`registering the demo trust's SAML provider answered ${saved.status}: ${await saved.text()}`);
  await sql`update public.organisation_sign_in set tested_at = now() where organisation_id = ${DEMO_TRUST}`;
  await sql`update public.organisation_sign_in set enabled = true where organisation_id = ${DEMO_TRUST}`;
  log(`Southshire Ambulance signs in through the local SAML identity provider (${metadataUrl})`);
}
