// Open Badges credentials: the shapes of the passport, the course achievement and the
// verification answer, and the schemas of their bodies. Shared by the api function and the web app.
import { z } from 'zod';

/** A credential JSON sent to be verified: at most this many bytes. */
export const MAX_CREDENTIAL_BYTES = 256 * 1024;

export const PASSPORT_STATES = ['valid', 'expired', 'revoked'] as const;
export type PassportState = (typeof PASSPORT_STATES)[number];

const httpUrl = (message: string) =>
  z.string().trim().max(2000, 'Use at most 2,000 characters').regex(/^https?:\/\/\S+$/, message);

export const alignmentSchema = z.object({
  targetFramework: z.string().trim().max(200, 'Use at most 200 characters').nullish(),
  targetCode: z.string().trim().max(100, 'Use at most 100 characters').nullish(),
  targetName: z.string().trim().min(1, 'Give the name of what it aligns to').max(200, 'Use at most 200 characters'),
  targetUrl: httpUrl('Give a web address starting with https://'),
});
export type Alignment = z.infer<typeof alignmentSchema>;

export const achievementSchema = z.object({
  name: z.string().trim().min(1, 'Give the achievement a name').max(200, 'Use at most 200 characters'),
  description: z.string().trim().min(1, 'Describe the achievement').max(2000, 'Use at most 2,000 characters'),
  criteria: z.string().trim().min(1, 'Say in words what earns it').max(2000, 'Use at most 2,000 characters'),
  imageUrl: httpUrl('Give a web address starting with https://').nullish(),
  alignments: z.array(alignmentSchema).max(20, 'Give at most 20 alignments').default([]),
}).strict();
export type AchievementInput = z.infer<typeof achievementSchema>;

export const shareSchema = z.object({
  shareEnabled: z.boolean({ error: 'Say whether the credential is shared (true or false)' }),
}).strict();

/** GET /api/courses/:courseId/achievement: the course's achievement (`defined` false: the one
 * made of its title and description that its credentials carry until an author defines one). */
export interface CourseAchievement {
  courseId: string;
  defined: boolean;
  name: string;
  description: string;
  criteria: string;
  imageUrl: string | null;
  alignments: Alignment[];
  validMonths: number | null;
  updatedAt: string | null;
}

/** One credential of GET /api/passport. */
export interface PassportCredential {
  id: string;
  certificateId: string;
  verificationCode: string;
  courseTitle: string;
  achievementName: string | null;
  issuerId: string;
  issuerName: string | null;
  issuedAt: string;
  validUntil: string | null;
  status: PassportState;
  /** False only for a credential still being signed (a moment after its certificate is issued). */
  signed: boolean;
  shareEnabled: boolean;
  shareUrl: string | null;
  /** The verification address of the certificate, for "Add to LinkedIn" (its certUrl). */
  verifyUrl: string;
}
