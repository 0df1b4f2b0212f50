// Signing the pending credentials (made by the trigger on certificates, 28_credentials.sql): right
// after a request that may have issued certificates, and on a credential's first read. Runs on the
// function's service_role connection, the only one that reads the issuers' secret keys.
import * as vc from '@digitalbazaar/vc';
import type { Db, Statements } from '../db.ts';
import { type Alignment, buildCredential, type CredentialSource } from './build.ts';
import { currentSigner, type Signer, type Urls } from './issuer.ts';
import { localDocumentLoader } from './loader.ts';

/** At most this many credentials are signed in one go (about 30 ms each). */
export const SIGN_BATCH = 50;

interface PendingRow extends Omit<CredentialSource, 'achievement'> {
  achievementName: string | null;
  achievementDescription: string | null;
  achievementCriteria: string | null;
  achievementImageUrl: string | null;
  achievementAlignments: Alignment[] | null;
}

/** Signs the pending credentials of these holders (or of these credentials), in one transaction;
 * rows another request is signing are skipped. Returns how many were signed. */
export async function signPending(
  db: Db,
  urls: Urls,
  which: { userIds?: string[]; credentialIds?: string[]; any?: boolean },
): Promise<number> {
  const userIds = which.userIds ?? [];
  const credentialIds = which.credentialIds ?? [];
  const any = which.any ?? false;
  if (!any && userIds.length === 0 && credentialIds.length === 0) return 0;
  return await db.withServiceRole(async (tx) => {
    const rows = await tx<PendingRow[]>`
      select cr.id as "credentialId", cr.issuer_id as "issuerId",
             coalesce((select name from private.issuer_profile(cr.issuer_id)), c.organisation_name, '') as "issuerName",
             cr.status_list_id as "statusListId", cr.status_index as "statusIndex",
             coalesce(p.email, '') as email, c.learner_name as "learnerName", c.course_id as "courseId",
             c.course_title as "courseTitle", co.description as "courseDescription",
             c.verification_code as "verificationCode", c.issued_at as "issuedAt", c.expires_at as "expiresAt",
             a.name as "achievementName", a.description as "achievementDescription",
             a.criteria as "achievementCriteria", a.image_url as "achievementImageUrl",
             a.alignments as "achievementAlignments"
      from public.credentials cr
      join public.certificates c on c.id = cr.certificate_id
      left join public.profiles p on p.id = cr.user_id
      left join public.courses co on co.id = c.course_id
      left join public.course_achievements a on a.course_id = c.course_id
      where cr.credential is null
        and (${any} or cr.user_id = any (${userIds}::uuid[]) or cr.id = any (${credentialIds}::uuid[]))
      order by cr.created_at
      limit ${SIGN_BATCH}
      for update of cr skip locked`;
    return await signRows(tx, urls, rows);
  });
}

async function signRows(tx: Statements, urls: Urls, rows: PendingRow[]): Promise<number> {
  const signers = new Map<string, Signer>();
  const documentLoader = localDocumentLoader();
  for (const row of rows) {
    let signer = signers.get(row.issuerId);
    if (!signer) {
      signer = await currentSigner(tx, urls, row.issuerId);
      signers.set(row.issuerId, signer);
    }
    const credential = await buildCredential(urls, {
      ...row,
      issuedAt: new Date(row.issuedAt),
      expiresAt: row.expiresAt ? new Date(row.expiresAt) : null,
      achievement: row.achievementName
        ? {
          name: row.achievementName,
          description: row.achievementDescription ?? '',
          criteria: row.achievementCriteria ?? '',
          imageUrl: row.achievementImageUrl,
          alignments: row.achievementAlignments ?? [],
        }
        : null,
    });
    const signed = await vc.issue({ credential, suite: signer.suite, documentLoader });
    await tx`
      update public.credentials set credential = ${tx.json(signed)}, key_id = ${signer.keyId}, signed_at = now()
      where id = ${row.credentialId}`;
  }
  return rows.length;
}

let signing: Promise<void> | null = null;

/** After a write: signs whatever is pending (any holder), in the background, one run at a time per
 * instance; a failure leaves the rows pending for their first read. */
export function signRecentlyIssued(db: Db, urls: Urls): void {
  if (signing) return;
  signing = (async () => {
    try {
      const [pending] = await db.sql<{ any: boolean }[]>`
        select exists (select 1 from public.credentials where credential is null) as any`;
      if (pending?.any) await signPending(db, urls, { any: true });
    } catch (error) {
      console.error('Signing pending credentials failed:', error);
    } finally {
      signing = null;
    }
  })();
}

/** Resolves when a background signing run (if any) has ended: a caller about to close the pool waits
 * for it, so that no statement of it is cut off mid-flight. */
export function signingSettled(): Promise<void> {
  return signing ?? Promise.resolve();
}
