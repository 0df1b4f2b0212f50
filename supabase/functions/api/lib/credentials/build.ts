// The OpenBadgeCredential of a certificate (Open Badges 3.0.3 on the VC 2.0 context): the
// achievement of its course, the learner as an AchievementSubject with a salted, hashed email
// identity, validFrom and validUntil from the certificate, the course's completion as evidence and
// a BitstringStatusListEntry for revocation.
import { OB_V3P0_3, VC_V2 } from './contexts.ts';
import { credentialIssuer, statusListUrl, type Urls } from './issuer.ts';
import { sha256Hex } from '../rate-limit.ts';

export interface Alignment {
  targetFramework?: string | null;
  targetCode?: string | null;
  targetName: string;
  targetUrl: string;
}

export interface CredentialSource {
  credentialId: string;
  issuerId: string;
  issuerName: string;
  statusListId: string;
  statusIndex: number;
  email: string;
  learnerName: string;
  courseId: string | null;
  courseTitle: string;
  courseDescription: string | null;
  verificationCode: string;
  issuedAt: Date;
  expiresAt: Date | null;
  achievement: {
    name: string;
    description: string;
    criteria: string;
    imageUrl: string | null;
    alignments: Alignment[];
  } | null;
}

/** An XML Schema dateTime without milliseconds, as credentials carry them. */
export const dateTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The Open Badges hashed identity of an email: `sha256$` + hex(sha256(email + salt)). */
export async function hashedEmail(email: string, salt: string) {
  return {
    type: 'IdentityObject',
    identityType: 'emailAddress',
    hashed: true,
    identityHash: `sha256$${await sha256Hex(email.trim().toLowerCase() + salt)}`,
    salt,
  };
}

/** The achievement's URL: the course's (a course deleted since keeps the credential's own). */
export const achievementUrl = (urls: Urls, source: Pick<CredentialSource, 'courseId' | 'credentialId'>) =>
  source.courseId ? `${urls.apiBase}/courses/${source.courseId}/achievement` : `urn:uuid:${source.credentialId}#achievement`;

/** The unsigned credential. */
export async function buildCredential(urls: Urls, source: CredentialSource) {
  const salt = crypto.randomUUID().replaceAll('-', '');
  const achievement = source.achievement;
  const name = achievement?.name ?? source.courseTitle;
  const listUrl = statusListUrl(urls, source.issuerId, source.statusListId);
  return {
    '@context': [VC_V2, OB_V3P0_3],
    id: `urn:uuid:${source.credentialId}`,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name,
    issuer: credentialIssuer(urls, source.issuerId, source.issuerName),
    validFrom: dateTime(source.issuedAt),
    ...(source.expiresAt ? { validUntil: dateTime(source.expiresAt) } : {}),
    credentialSubject: {
      type: ['AchievementSubject'],
      identifier: [await hashedEmail(source.email, salt)],
      achievement: {
        id: achievementUrl(urls, source),
        type: ['Achievement'],
        achievementType: 'Certificate',
        name,
        description: achievement?.description ?? (source.courseDescription?.trim() || source.courseTitle),
        criteria: { narrative: achievement?.criteria ?? `Complete the course "${source.courseTitle}".` },
        ...(achievement?.imageUrl ? { image: { id: achievement.imageUrl, type: 'Image' } } : {}),
        ...(achievement?.alignments.length
          ? {
            alignment: achievement.alignments.map((a) => ({
              type: ['Alignment'],
              targetName: a.targetName,
              targetUrl: a.targetUrl,
              ...(a.targetFramework ? { targetFramework: a.targetFramework } : {}),
              ...(a.targetCode ? { targetCode: a.targetCode } : {}),
            })),
          }
          : {}),
      },
    },
    evidence: [{
      id: `${urls.siteUrl}/verify/${source.verificationCode}`,
      type: ['Evidence'],
      name: 'Course completion',
      narrative: `Completed the course "${source.courseTitle}" (certificate ${source.verificationCode}).`,
    }],
    credentialStatus: {
      id: `${listUrl}#${source.statusIndex}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(source.statusIndex),
      statusListCredential: listUrl,
    },
  };
}
