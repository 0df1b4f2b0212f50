// Offline learning: the course a learner keeps offline (GET /api/offline/courses/:id) and the items of
// their offline queue replayed once each (PUT /api/offline/items/:key). Shared by the web app's queue
// and the function, which checks every item with these schemas.
import { z } from 'zod';
import { uuidSchema } from './ids.ts';
import { type AnswerDisplay, type LearnerQuiz, quizAnswersSchema, type QuizAttempts } from './quiz.ts';
import type { ScoStatus, ScormVersion } from './scorm-data-model.ts';

export const OFFLINE_ITEM_KINDS = ['module-read', 'quiz-answers', 'scorm-sitting'] as const;
export type OfflineItemKind = (typeof OFFLINE_ITEM_KINDS)[number];

const personId = uuidSchema.describe('The person whose queue holds the item: the caller, or it is refused');
const recordedAt = z.iso.datetime({ offset: true, error: 'recordedAt must be a date and time (ISO 8601)' }).optional();

/** One item of a learner's offline queue, as the device queued it. */
export const offlineItemSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('module-read'), personId, moduleId: uuidSchema, recordedAt }),
  z.strictObject({ kind: z.literal('quiz-answers'), personId, quizId: uuidSchema, answers: quizAnswersSchema.shape.answers, recordedAt }),
  z.strictObject({
    kind: z.literal('scorm-sitting'),
    personId,
    moduleId: uuidSchema,
    scoId: z.string({ error: 'scoId must be the SCO\'s identifier' }).min(1, 'scoId must be the SCO\'s identifier')
      .max(255, 'scoId is at most 255 characters'),
    values: z.record(z.string().max(255, 'Element names are at most 255 characters'), z.unknown(), {
      error: 'values must be an object of element names and string values',
    }).refine((v) => Object.keys(v).length <= 2000, 'At most 2,000 elements per sitting'),
    finish: z.boolean({ error: 'finish must be true or false' }).optional(),
    recordedAt,
  }),
], { error: 'kind must be module-read, quiz-answers or scorm-sitting' });
export type OfflineItem = z.infer<typeof offlineItemSchema>;

/** Why an item is no longer valid (409), or not the caller's (403): the learner is told in their language. */
export const OFFLINE_REFUSALS = [
  'course_unavailable',
  'not_enrolled',
  'needs_connection',
  'no_attempts_left',
  'retry_wait',
  'deactivated',
  'key_reused',
  'another_person',
] as const;
export type OfflineRefusalReason = (typeof OFFLINE_REFUSALS)[number];

/** The refusal's body: `{ message, reason }` (message in English, as the API's other errors). */
export interface OfflineRefusal {
  message: string;
  reason: OfflineRefusalReason;
}

/** An accepted item: what it changed, the same on every replay of its key. */
export interface OfflineItemAccepted {
  key: string;
  kind: OfflineItemKind;
  /** False the first time the server accepts the key; true for a replay (nothing changed). */
  replayed: boolean;
  acceptedAt: string;
  moduleId: string;
  moduleCompleted: boolean;
  courseId: string;
  courseProgress: number;
  courseCompleted: boolean;
  certificateId: string | null;
  /** quiz-answers: the attempt as the server scored it. */
  quiz?: { quizId: string; attemptId: string; score: number; maxScore: number; passed: boolean };
  /** scorm-sitting: the SCO's status after the sitting; secondsToMinimum when the package's minimum time is not yet met. */
  scorm?: { scoId: string; status: ScoStatus; secondsToMinimum: number | null };
}

/** A file to keep: its URL (public storage, or the SCORM content origin), size and type. */
export interface OfflineFile {
  url: string;
  bytes: number;
  type: string | null;
  /** A SCORM package's file: its SHA-256 (lowercase hex) as stored, the one its manifest signs; null for
   * other files and for a package stored before hashes were kept. */
  sha256: string | null;
}

/**
 * A SCORM package's signed manifest: the content origin's service worker serves a cached file of the
 * package only when the signature verifies with the public key baked into it and the file's SHA-256
 * is the one named here (every package shares that origin, so any package could write its caches).
 */
export interface OfflineScormManifest {
  /** JSON of OfflineScormManifestPayload, signed as these exact UTF-8 bytes. */
  payload: string;
  /** ECDSA P-256 with SHA-256 (IEEE P1363 r||s, 64 bytes), base64url without padding. */
  signature: string;
}

/** What an OfflineScormManifest's payload holds. */
export interface OfflineScormManifestPayload {
  v: 1;
  moduleId: string;
  /** The package root's URL path on the content origin, percent-decoded, ending with `/`. */
  base: string;
  /** Each file's path relative to base (decoded) and its SHA-256, lowercase hex. */
  files: Record<string, string>;
}

/** A question as online (LearnerQuiz): its texts and options, never which are correct. */
export type OfflineQuestion = LearnerQuiz['questions'][number];

export interface OfflineQuiz {
  id: string;
  title: string;
  titleCy: string | null;
  description: string | null;
  descriptionCy: string | null;
  passingScore: number;
  timeLimit: number | null;
  showCorrectAnswers: AnswerDisplay;
  attempts: QuizAttempts;
  /** Whether it can be answered offline: untimed, and an attempt may start now. */
  offline: boolean;
  /** Why not: a timed quiz needs a connection; no attempt left; the wait after the last one. */
  notOffline: 'timed' | 'no_attempts_left' | 'retry_wait' | null;
  /** The questions without their answers; empty unless offline. */
  questions: OfflineQuestion[];
}

export interface OfflineModule {
  id: string;
  title: string;
  titleCy: string | null;
  kind: 'content' | 'scorm' | 'session' | 'assessment';
  orderIndex: number;
  duration: number;
  content: string;
  contentCy: string | null;
  image: string | null;
  read: boolean;
  completed: boolean;
  quizPassed: boolean;
  quiz: OfflineQuiz | null;
}

export interface OfflineSco {
  id: string;
  title: string;
  href: string;
  status: ScoStatus;
  /** What the run-time starts with offline, as opening a session now would give it. */
  cmi: Record<string, string>;
}

export interface OfflineScormPackage {
  moduleId: string;
  version: ScormVersion;
  title: string;
  /** The package's root on the content origin (its files' URLs start with it). */
  contentBase: string;
  /** The author's minimum time: counted by the server's clock, so a sitting offline never meets it. */
  minSeconds: number;
  scos: OfflineSco[];
  /** Null when the server has no signing key or the package no hashes: the module then needs a connection. */
  manifest: OfflineScormManifest | null;
}

/** GET /api/offline/courses/:id: everything an enrolled learner keeps to learn the course offline. */
export interface OfflineCourse {
  personId: string;
  generatedAt: string;
  /** The latest change to the course, its modules, quizzes and packages when it was generated. */
  updatedAt: string;
  course: {
    id: string;
    title: string;
    titleCy: string | null;
    description: string;
    descriptionCy: string | null;
    service: string;
    image: string | null;
  };
  enrollment: { id: string; progress: number; completed: boolean; certificateId: string | null };
  modules: OfflineModule[];
  scorm: OfflineScormPackage[];
  files: OfflineFile[];
  /** The files' bytes together (the size shown before downloading). */
  totalBytes: number;
}
