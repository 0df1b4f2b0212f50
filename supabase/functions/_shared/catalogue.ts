// Query and path parameters of the learner journey's endpoints: the catalogue's filters
// and paging, and the progress update's body. Shared by the api function and web/.
import { z } from 'zod';
import { uuidSchema } from './ids.ts';
import { COURSE_STATUSES } from './domain.ts';
import type { AnswerDisplay, QuizAttempts } from './quiz.ts';
import { SERVICE_CODES } from './services.ts';

export const DEFAULT_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 100;

const positiveInt = (message: string, max?: number) => {
  let schema = z.coerce.number({ error: message }).int(message).min(1, message);
  if (max) schema = schema.max(max, message);
  return schema;
};

/** GET /api/courses query (values arrive as strings). */
export const courseListQuerySchema = z.object({
  service: z.enum(SERVICE_CODES, { error: 'Unknown service' }).optional(),
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional()
    .transform((value) => (value ? value : undefined)),
  page: positiveInt('Page must be a whole number from 1').default(1),
  pageSize: positiveInt(`Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  status: z.enum(COURSE_STATUSES, { error: 'Status must be DRAFT, ACTIVE or ARCHIVED' }).optional(),
  mine: z.enum(['true', 'false'], { error: 'mine must be true or false' }).optional()
    .transform((value) => value === 'true'),
  // Archived courses are out of the catalogue; the course lists of those who manage them ask for them.
  includeArchived: z.enum(['true', 'false'], { error: 'includeArchived must be true or false' }).optional()
    .transform((value) => value === 'true'),
  // Only the courses available in Welsh (courses.available_in_welsh); false or absent: every course.
  welsh: z.enum(['true', 'false'], { error: 'welsh must be true or false' }).optional()
    .transform((value) => value === 'true'),
});
export type CourseListQuery = z.infer<typeof courseListQuerySchema>;

/** PUT /api/enrollments/:id: the body clients send (id, progress, completed). The server ignores
 * the values and computes progress itself, but a malformed body is still refused. */
export const enrollmentUpdateSchema = z.object({
  id: uuidSchema.optional(),
  progress: z.number({ error: 'Progress must be a number' }).int('Progress must be a whole number')
    .min(0, 'Progress must be between 0 and 100').max(100, 'Progress must be between 0 and 100').optional(),
  completed: z.boolean({ error: 'Completed must be true or false' }).optional(),
});

/** POST /api/courses/:courseId/enroll: no body, or the reading with a body {userId, courseId}. */
export const enrollBodySchema = z.object({
  userId: uuidSchema.optional(),
  courseId: uuidSchema.optional(),
});

// ---- Answer shapes, camelCase (docs/ARCHITECTURE.md, "Answer shapes"). ----

export interface PagedList<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** The caller's own enrolment, embedded in a course. */
export interface CourseEnrollmentSummary {
  id: string;
  progress: number;
  completed: boolean;
  status: 'PENDING' | 'ACTIVE';
  completedAt: string | null;
  /** The certificate this enrolment earned (completed, not revoked); null otherwise. */
  certificateId: string | null;
}

export interface Course {
  id: string;
  title: string;
  description: string;
  /** The title and description in Welsh; null: not translated. */
  titleCy: string | null;
  descriptionCy: string | null;
  /** The whole course is in Welsh: its title, description, every module, quiz and question. */
  availableInWelsh: boolean;
  service: string;
  coverImage: string | null;
  authorId: string | null;
  author: { name: string; username: string } | null;
  duration: number;
  level: string;
  featured: boolean;
  requiresEnrollment: boolean;
  status: string;
  /** Number of modules. */
  modules: number;
  /** How many months a certificate of the course stays valid; null: it never expires. */
  certificateValidMonths?: number | null;
  /** The course's own approval setting: null follows the site-wide course access. */
  requiresApproval?: boolean | null;
  /** Whether enrolling on this course needs an instructor's approval (own setting, else the site rule). */
  approvalRequired?: boolean;
  /** Whether a learner's booking of one of its classroom sessions waits for their line manager's approval. */
  sessionsNeedManagerApproval?: boolean;
  createdAt: string;
  updatedAt: string;
  enrollment: CourseEnrollmentSummary | null;
}

export interface CourseModule {
  id: string;
  courseId: string;
  title: string;
  /** The title in Welsh; null: not translated. */
  titleCy: string | null;
  /** Markdown; null in the outline for someone who may not study the course. */
  content: string | null;
  /** The body in Welsh (Markdown; a session's or a practical's introduction); null when not translated, for a SCORM module, or where content is null. */
  contentCy: string | null;
  orderIndex: number;
  duration: number;
  hasQuiz: boolean;
  /** content: a Markdown body; scorm: a SCORM package (GET /api/modules/:id/scorm). */
  kind: 'content' | 'scorm' | 'session' | 'assessment';
  image: string | null;
  createdAt: string;
  updatedAt: string;
  /** The caller's progress on the module (false for visitors and the unenrolled). */
  completed: boolean;
  read: boolean;
  quizPassed: boolean;
}

/** GET /api/modules/:id */
export interface ModuleDetail extends CourseModule {
  content: string;
  previousId: string | null;
  nextId: string | null;
  position: number;
  total: number;
  course: { id: string; title: string; titleCy: string | null; service: string; requiresEnrollment: boolean };
  quiz: {
    id: string;
    title: string;
    description: string | null;
    titleCy: string | null;
    descriptionCy: string | null;
    passingScore: number;
    timeLimit: number | null;
    /** When the correct answers are shown after an attempt. */
    showCorrectAnswers: AnswerDisplay;
    /** The caller's attempts (a visitor's: none used). */
    attempts: QuizAttempts;
  } | null;
  /** The caller is enrolled (ACTIVE): progress is kept. */
  enrolled: boolean;
}
