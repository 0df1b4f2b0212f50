// Verifying an Open Badges 3.0 credential of any issuer: its shape (the OB 3.0.3 schema), the
// issuer's key (resolved from the proof's verificationMethod: it must be a key its controller, the
// credential's issuer, lists), the Data Integrity proof, the Bitstring Status List and the dates.
// Each check's outcome and the machine codes the web turns into plain words.
import * as vc from '@digitalbazaar/vc';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { achievementCredentialErrors } from './schema.ts';
import { DocumentNotLoaded, type DocumentLoader } from './loader.ts';

export const VERIFICATION_CODES = [
  'malformed', 'tampered', 'revoked', 'expired', 'not-yet-valid', 'unknown-issuer-key', 'untrusted-issuer',
  'status-unavailable',
] as const;
export type VerificationCode = (typeof VERIFICATION_CODES)[number];

export type CheckOutcome = 'passed' | 'failed' | 'not-checked';

export interface VerificationResult {
  /** Every check passed: the proof, the issuer's key, the status (when it has one), the dates, the schema. */
  verified: boolean;
  codes: VerificationCode[];
  checks: {
    schema: CheckOutcome;
    proof: CheckOutcome;
    issuerKey: CheckOutcome;
    status: CheckOutcome | 'none';
    dates: CheckOutcome;
  };
  schemaErrors: string[];
  credentialId: string | null;
  issuer: { id: string; name: string | null } | null;
  achievement: { id: string | null; name: string | null } | null;
  validFrom: string | null;
  validUntil: string | null;
  /** The issuer's key that signed it (the proof's verificationMethod). */
  verificationMethod: string | null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value : null);

function summary(credential: Json) {
  const issuer = credential.issuer;
  const issuerId = text(issuer) ?? (isObject(issuer) ? text(issuer.id) : null);
  const subject = Array.isArray(credential.credentialSubject) ? credential.credentialSubject[0] : credential.credentialSubject;
  const achievement = isObject(subject) && isObject(subject.achievement) ? subject.achievement : null;
  const proof = Array.isArray(credential.proof) ? credential.proof[0] : credential.proof;
  return {
    credentialId: text(credential.id),
    issuer: issuerId ? { id: issuerId, name: isObject(issuer) ? text(issuer.name) : null } : null,
    achievement: achievement ? { id: text(achievement.id), name: text(achievement.name) } : null,
    validFrom: text(credential.validFrom),
    validUntil: text(credential.validUntil),
    verificationMethod: isObject(proof) ? text(proof.verificationMethod) : null,
  };
}

const validDate = (value: string | null) => (value && !Number.isNaN(Date.parse(value)) ? new Date(value) : null);

function errorsOf(error: unknown): unknown[] {
  if (!error) return [];
  const nested = (error as { errors?: unknown[] }).errors;
  return Array.isArray(nested) && nested.length ? nested.flatMap(errorsOf) : [error];
}

/** Verifies `input` (a parsed credential JSON) at `now` with the given document loader. */
export async function verifyOpenBadge(
  input: unknown,
  { documentLoader, now = new Date() }: { documentLoader: DocumentLoader; now?: Date },
): Promise<VerificationResult> {
  const codes = new Set<VerificationCode>();
  const empty = {
    credentialId: null, issuer: null, achievement: null, validFrom: null, validUntil: null, verificationMethod: null,
  };
  if (!isObject(input)) {
    return {
      verified: false, codes: ['malformed'], schemaErrors: ['/ must be object'],
      checks: { schema: 'failed', proof: 'not-checked', issuerKey: 'not-checked', status: 'not-checked', dates: 'not-checked' },
      ...empty,
    };
  }
  const credential = input;
  const about = summary(credential);
  const schemaErrors = achievementCredentialErrors(credential);
  if (schemaErrors.length) codes.add('malformed');

  // The issuer's key: the proof's verification method, whose controller must be the credential's issuer.
  let issuerKey: CheckOutcome = 'not-checked';
  let issuerName = about.issuer?.name ?? null;
  if (about.verificationMethod && about.issuer) {
    try {
      const { document: key } = await documentLoader(about.verificationMethod);
      const controller = isObject(key) ? text(key.controller) : null;
      if (controller !== about.issuer.id) {
        issuerKey = 'failed';
        codes.add('untrusted-issuer');
      } else {
        const { document: profile } = await documentLoader(controller);
        const listed = isObject(profile) &&
          [profile.assertionMethod].flat().some((m) => m === about.verificationMethod || (isObject(m) && m.id === about.verificationMethod));
        if (isObject(profile) && text(profile.name)) issuerName = text(profile.name);
        issuerKey = listed ? 'passed' : 'failed';
        if (!listed) codes.add('untrusted-issuer');
      }
    } catch {
      issuerKey = 'failed';
      codes.add('unknown-issuer-key');
    }
  } else {
    codes.add('malformed');
  }

  // The proof, at a time inside the credential's validity: the dates are a check of their own.
  let proof: CheckOutcome = 'not-checked';
  const validFrom = validDate(about.validFrom);
  const validUntil = validDate(about.validUntil);
  if (issuerKey === 'passed') {
    const proofTime = validFrom ?? now;
    try {
      const result = await vc.verifyCredential({
        credential,
        suite: new DataIntegrityProof({ cryptosuite }),
        documentLoader,
        now: proofTime,
        // The status is a check of its own, below.
        checkStatus: () => Promise.resolve({ verified: true }),
      });
      proof = result.verified ? 'passed' : 'failed';
      if (!result.verified) {
        const errors = errorsOf(result.error ?? result.results?.[0]?.error);
        if (errors.some((e) => e instanceof DocumentNotLoaded)) codes.add('unknown-issuer-key');
        else codes.add(schemaErrors.length && errors.some((e) => /safe mode|validation/i.test(String(e))) ? 'malformed' : 'tampered');
      }
    } catch {
      proof = 'failed';
      codes.add('tampered');
    }
  }

  // The status list (revocation), checked only for a credential whose proof holds.
  let status: CheckOutcome | 'none' = credential.credentialStatus ? 'not-checked' : 'none';
  if (proof === 'passed' && credential.credentialStatus) {
    const result = await checkStatus({
      credential,
      documentLoader,
      suite: new DataIntegrityProof({ cryptosuite }),
      verifyBitstringStatusListCredential: true,
      verifyMatchingIssuers: true,
    });
    // verified: the list was read and its proof holds; each entry's status: its bit (set = revoked).
    const entries = (result.results ?? []) as { status?: boolean }[];
    if (!result.verified) {
      status = 'not-checked';
      codes.add('status-unavailable');
    } else if (entries.some((entry) => entry.status === true)) {
      status = 'failed';
      codes.add('revoked');
    } else status = 'passed';
  }

  let dates: CheckOutcome = 'not-checked';
  if (validFrom) {
    dates = 'passed';
    if (validFrom > now) {
      dates = 'failed';
      codes.add('not-yet-valid');
    }
    if (validUntil && validUntil <= now) {
      dates = 'failed';
      codes.add('expired');
    }
  }

  return {
    verified: codes.size === 0 && proof === 'passed',
    codes: VERIFICATION_CODES.filter((c) => codes.has(c)),
    checks: { schema: schemaErrors.length ? 'failed' : 'passed', proof, issuerKey, status, dates },
    schemaErrors,
    ...about,
    issuer: about.issuer ? { id: about.issuer.id, name: issuerName } : null,
  };
}
