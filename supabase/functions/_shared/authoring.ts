// Authoring schemas: the course editor, the course manager and the admin quick
// course form, modules, quizzes and questions. Shared by the web forms and the api function, so the
// field messages are defined once. The server validates course writes with `courseCreateSchema` /
// `courseUpdateSchema`, which every form's output also satisfies (the forms are stricter or equal).
import { z } from 'zod';
import { SERVICE_CODES } from './services.ts';
import { COURSE_LEVELS, COURSE_STATUSES, QUESTION_TYPES } from './domain.ts';
import { certificateValidMonthsField } from './certificates.ts';
import { ANSWER_DISPLAYS, type AnswerDisplay } from './quiz.ts';

export const MESSAGES = {
  titleRequired: 'Title is required',
  titleMin: 'Title must be at least 3 characters',
  titleMax: 'Title must be at most 200 characters',
  descriptionRequired: 'Description is required',
  descriptionMin10: 'Description must be at least 10 characters',
  descriptionMin20: 'Description must be at least 20 characters',
  descriptionMax: 'Description must be at most 5000 characters',
  serviceRequired: 'Service is required',
  durationHours: 'Duration must be at least 1 hour',
  levelRequired: 'Level is required',
  statusRequired: 'Status is required',
  modulesMin: 'Course must have at least 1 module',
  contentMin: 'Content must be at least 20 characters',
  contentMax: 'Content must be at most 100000 characters',
  orderMin: 'Order must be at least 1',
  durationMinutes: 'Duration must be at least 1 minute',
  quizTitleMin: 'Quiz title must be at least 3 characters',
  quizDescriptionMin: 'Description must be at least 10 characters',
  passingScore: 'Passing score must be between 1 and 100',
  timeLimit: 'Time limit must be at least 1 minute',
  showCorrectAnswers: 'Show correct answers must be never, after passing or after every attempt',
  maxAttempts: 'Maximum attempts must be a whole number from 1 to 100, or empty for unlimited',
  retryWait: 'Wait between attempts must be a whole number from 0 minutes to 30 days (720 hours)',
  questionTextMin: 'Question text must be at least 5 characters',
  questionType: 'Question type must be multiple choice or true/false',
  optionsMin: 'At least 2 options are required',
  optionsMax: 'At most 10 options are allowed',
  optionText: 'Option text is required',
  oneCorrect: 'Mark at least one option as correct',
  trueFalse: 'A true/false question has exactly the options True and False, one of them correct',
  pointsMin: 'Points must be at least 1',
  moduleIds: 'Send every module of the course exactly once',
  questionIds: 'Send every question of the quiz exactly once',
  courseServices: 'You can only create courses in your services',
  imageType: 'Only PNG, JPEG, WebP or GIF images are allowed',
  imageTooLarge: 'Images must be 5 MB or smaller',
  courseHasRecords: 'This course has learner records, so it cannot be deleted: archive it instead',
  courseNotArchived: 'This course is not archived',
  courseArchived: 'This course is archived: no one new can enrol',
  titleCyMin: 'The Welsh title must be at least 3 characters',
  titleCyMax: 'The Welsh title must be at most 200 characters',
  descriptionCyMin: 'The Welsh description must be at least 20 characters',
  descriptionCyMax: 'The Welsh description must be at most 5000 characters',
  contentCyMin: 'The Welsh content must be at least 20 characters',
  contentCyMax: 'The Welsh content must be at most 100000 characters',
  contentCyScorm: 'A SCORM module has no Welsh content: its package is one language',
  quizTitleCyMin: 'The Welsh quiz title must be at least 3 characters',
  quizDescriptionCyMin: 'The Welsh description must be at least 10 characters',
  questionCyMin: 'The Welsh question text must be at least 5 characters',
  questionCyMax: 'The Welsh question text must be at most 2000 characters',
  optionsCyText: 'Every Welsh option needs a text of at most 500 characters',
  optionsCyCount: 'Give a Welsh text for every option, in the same order as the options',
  explanationCyMax: 'The Welsh explanation must be at most 2000 characters',
} as const;

/** GET /api/courses/:id/deletion: whether a delete would delete the course or must archive it. */
export interface CourseDeletion {
  /** True when no one ever enrolled, studied or was certified: the course can be deleted. */
  deletable: boolean;
  status: 'DRAFT' | 'ACTIVE' | 'ARCHIVED';
}

/** Upload cap for covers and module images (the buckets' file_size_limit). */
/** The editor's choices for a course's own approval setting (courses.requires_approval). */
export const APPROVAL_CHOICES = [
  { value: 'inherit', label: 'Use the site setting', requiresApproval: null },
  // The site's course-access label ('Login and Approval Required'), for this course alone.
  { value: 'required', label: 'Login and Approval Required', requiresApproval: true },
  { value: 'none', label: 'No approval needed', requiresApproval: false },
] as const;
export type ApprovalChoice = (typeof APPROVAL_CHOICES)[number]['value'];
export function approvalChoiceOf(requiresApproval: boolean | null | undefined): ApprovalChoice {
  return requiresApproval === true ? 'required' : requiresApproval === false ? 'none' : 'inherit';
}
export function requiresApprovalOf(choice: string | null): boolean | null {
  return APPROVAL_CHOICES.find((c) => c.value === choice)?.requiresApproval ?? null;
}

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** What the file inputs offer; the server decides by content, not by this. */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif';

export const DEFAULT_MODULE_DURATION = 15;
export const DEFAULT_PASSING_SCORE = 70;
/** Quiz integrity limits (the database's checks on public.quizzes). */
export const MAX_QUIZ_ATTEMPTS = 100;
export const MAX_RETRY_WAIT_MINUTES = 43200;
export const MODULE_PREVIEW_LENGTH = 200;

const title = z
  .string({ error: MESSAGES.titleMin })
  .trim()
  .min(3, MESSAGES.titleMin)
  .max(200, MESSAGES.titleMax);
/** A course's title: 'Title is required' when empty, else at least 3 characters (every course form and the API). */
const courseTitle = z
  .string({ error: MESSAGES.titleRequired })
  .trim()
  .min(1, MESSAGES.titleRequired)
  .min(3, MESSAGES.titleMin)
  .max(200, MESSAGES.titleMax);
const service = z.enum(SERVICE_CODES, { error: MESSAGES.serviceRequired });
const level = z.enum(COURSE_LEVELS, { error: MESSAGES.levelRequired });
const status = z.enum(COURSE_STATUSES, { error: MESSAGES.statusRequired });
const durationHours = z
  .number({ error: MESSAGES.durationHours })
  .int(MESSAGES.durationHours)
  .min(1, MESSAGES.durationHours)
  .max(10000, 'Duration must be at most 10000 hours');
/** The minimum length of a course description, the same in every form and in the API. */
export const COURSE_DESCRIPTION_MIN = 20;
const COURSE_DESCRIPTION_MIN_CY = COURSE_DESCRIPTION_MIN;
const courseDescription = z
  .string({ error: MESSAGES.descriptionRequired })
  .trim()
  .min(1, MESSAGES.descriptionRequired)
  .min(COURSE_DESCRIPTION_MIN, MESSAGES.descriptionMin20)
  .max(5000, MESSAGES.descriptionMax);

/** A Welsh version of a text: absent, null or blank is "none" (null); else the rules of the English. */
const welshText = (schema: z.ZodString) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable().optional());
const courseTitleCy = welshText(z.string({ error: MESSAGES.titleCyMin }).trim().min(3, MESSAGES.titleCyMin).max(200, MESSAGES.titleCyMax));
const courseDescriptionCy = welshText(
  z.string({ error: MESSAGES.descriptionCyMin }).trim().min(COURSE_DESCRIPTION_MIN_CY, MESSAGES.descriptionCyMin).max(5000, MESSAGES.descriptionCyMax),
);

/** Every course field the API accepts, without defaults (the base of create and update). */
const courseFields = {
  title: courseTitle,
  description: courseDescription,
  service,
  level,
  duration: durationHours,
  status,
  featured: z.boolean({ error: 'Featured must be true or false' }),
  requiresEnrollment: z.boolean({ error: 'Requires enrolment must be true or false' }),
  certificateValidMonths: certificateValidMonthsField,
  // null: follow the site-wide course access; true/false: this course requires approval or not.
  requiresApproval: z.boolean({ error: 'Requires approval must be true, false or null' }).nullable(),
  // Whether a learner's booking of a classroom session waits for their line manager's approval.
  sessionsNeedManagerApproval: z.boolean({ error: 'Manager approval of session bookings must be true or false' }),
  // The Welsh versions: absent or null is none (on an update, absent leaves them as they are).
  titleCy: courseTitleCy,
  descriptionCy: courseDescriptionCy,
};

/** POST /api/courses. */
export const courseCreateSchema = z.object({
  title: courseFields.title,
  description: courseFields.description,
  service: courseFields.service,
  level: courseFields.level.default('BEGINNER'),
  duration: courseFields.duration.default(1),
  status: courseFields.status.default('DRAFT'),
  featured: courseFields.featured.default(false),
  requiresEnrollment: courseFields.requiresEnrollment.default(true),
  certificateValidMonths: courseFields.certificateValidMonths.default(null),
  requiresApproval: courseFields.requiresApproval.default(null),
  sessionsNeedManagerApproval: courseFields.sessionsNeedManagerApproval.default(false),
  titleCy: courseFields.titleCy,
  descriptionCy: courseFields.descriptionCy,
  // The course manager's form carries a module count with no input (spec §5); accepted and ignored.
  modules: z.number().optional(),
});
export type CourseCreateInput = z.infer<typeof courseCreateSchema>;
/** What a client may send (defaults filled in by the server). */
export type CourseCreateBody = z.input<typeof courseCreateSchema>;

/** PUT /api/courses/:id: any subset of the fields, at least one. */
export const courseUpdateSchema = z
  .strictObject({
    title: courseFields.title.optional(),
    description: courseFields.description.optional(),
    service: courseFields.service.optional(),
    level: courseFields.level.optional(),
    duration: courseFields.duration.optional(),
    status: courseFields.status.optional(),
    featured: courseFields.featured.optional(),
    requiresEnrollment: courseFields.requiresEnrollment.optional(),
    certificateValidMonths: courseFields.certificateValidMonths.optional(),
    requiresApproval: courseFields.requiresApproval.optional(),
    sessionsNeedManagerApproval: courseFields.sessionsNeedManagerApproval.optional(),
    titleCy: courseFields.titleCy,
    descriptionCy: courseFields.descriptionCy,
    modules: z.number().optional(),
  })
  .refine((value) => Object.entries(value).some(([key, v]) => key !== 'modules' && v !== undefined), {
    message: 'Nothing to update',
  });
export type CourseUpdateInput = z.infer<typeof courseUpdateSchema>;

/**
 * The rules every create-course form applies: the course editor, the course manager's
 * dialog and the admin's Quick Add share these fields and messages, and the API's
 * courseCreateSchema / courseUpdateSchema validate the same fields with the same rules.
 */
export const courseFormSchema = z.object({
  title: courseFields.title,
  description: courseFields.description,
  service,
  level,
  duration: durationHours,
  status,
});

/** The course editor's Basic Information form (spec §5 "Course editor form"). */
export const courseEditorSchema = courseFormSchema.extend({
  // An empty number input ('') means the certificate never expires.
  certificateValidMonths: z.preprocess((value) => (value === '' || value === undefined ? null : value), certificateValidMonthsField),
  requiresApproval: courseFields.requiresApproval.default(null),
  sessionsNeedManagerApproval: courseFields.sessionsNeedManagerApproval.default(false),
});
export type CourseEditorValues = z.infer<typeof courseEditorSchema>;

/** The course manager's create/edit dialogs (spec §5 "Course manager form"). */
export const courseManagerSchema = courseFormSchema.extend({
  modules: z.number({ error: MESSAGES.modulesMin }).int(MESSAGES.modulesMin).min(1, MESSAGES.modulesMin).default(1),
  status: status.default('DRAFT'),
  featured: z.boolean().default(false),
  requiresEnrollment: z.boolean().default(true),
});
export type CourseManagerValues = z.infer<typeof courseManagerSchema>;

/** The admin's Quick Add / Quick Edit dialog (spec §5 "Admin quick course form"). */
export const adminQuickCourseSchema = courseFormSchema.extend({
  status: status.default('ACTIVE'),
});
export type AdminQuickCourseValues = z.infer<typeof adminQuickCourseSchema>;

const moduleTitle = title;
const moduleContent = z
  .string({ error: MESSAGES.contentMin })
  .trim()
  .min(20, MESSAGES.contentMin)
  .max(100000, MESSAGES.contentMax);
const moduleTitleCy = welshText(z.string({ error: MESSAGES.titleCyMin }).trim().min(3, MESSAGES.titleCyMin).max(200, MESSAGES.titleCyMax));
const moduleContentCy = welshText(z.string({ error: MESSAGES.contentCyMin }).trim().min(20, MESSAGES.contentCyMin).max(100000, MESSAGES.contentCyMax));
const orderIndex = z.number({ error: MESSAGES.orderMin }).int(MESSAGES.orderMin).min(1, MESSAGES.orderMin).max(10000, 'Order must be at most 10000');
const moduleDuration = z
  .number({ error: MESSAGES.durationMinutes })
  .int(MESSAGES.durationMinutes)
  .min(1, MESSAGES.durationMinutes)
  .max(100000, 'Duration must be at most 100000 minutes');

/** POST /api/courses/:courseId/modules and the module dialog. orderIndex absent: count + 1. */
export const moduleCreateSchema = z.object({
  title: moduleTitle,
  content: moduleContent,
  titleCy: moduleTitleCy,
  contentCy: moduleContentCy,
  orderIndex: orderIndex.optional(),
  duration: moduleDuration.default(DEFAULT_MODULE_DURATION),
  // The client may echo the course id (spec §7 "module fields plus courseId"); the path decides.
  courseId: z.string().optional(),
});
export type ModuleCreateInput = z.infer<typeof moduleCreateSchema>;

export const MODULE_KIND_MESSAGE = 'Kind must be content, scorm, session or assessment';

/** POST /api/courses/:courseId/modules with kind 'session': its content (and contentCy, in Welsh) is the
 * learner's introduction to the classroom session; its dates are added next (POST /api/modules/:moduleId/sessions). */
export const sessionModuleCreateSchema = moduleCreateSchema.extend({
  kind: z.literal('session', { error: MODULE_KIND_MESSAGE }),
});
export type SessionModuleCreateInput = z.infer<typeof sessionModuleCreateSchema>;

/** POST /api/courses/:courseId/modules with kind 'scorm': no body, the package is uploaded next. */
export const scormModuleCreateSchema = z.object({
  kind: z.literal('scorm', { error: MODULE_KIND_MESSAGE }),
  title: moduleTitle,
  titleCy: moduleTitleCy,
  // A SCORM package is one language: no Welsh body.
  contentCy: z.null({ error: MESSAGES.contentCyScorm }).optional(),
  orderIndex: orderIndex.optional(),
  duration: moduleDuration.default(DEFAULT_MODULE_DURATION),
  courseId: z.string().optional(),
});
export type ScormModuleCreateInput = z.infer<typeof scormModuleCreateSchema>;

/** POST /api/courses/:courseId/modules with kind 'assessment': a practical assessment, whose
 * settings and criteria are authored next (/api/modules/:id/assessment). Its content, optional, is
 * the learner's introduction, and contentCy (optional) the same in Welsh. */
export const assessmentModuleCreateSchema = z.object({
  kind: z.literal('assessment', { error: MODULE_KIND_MESSAGE }),
  title: moduleTitle,
  titleCy: moduleTitleCy,
  content: z.preprocess((v) => (v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? '' : v),
    z.union([z.literal(''), moduleContent], { error: MESSAGES.contentMin })),
  contentCy: moduleContentCy,
  orderIndex: orderIndex.optional(),
  duration: moduleDuration.default(DEFAULT_MODULE_DURATION),
  courseId: z.string().optional(),
});
export type AssessmentModuleCreateInput = z.infer<typeof assessmentModuleCreateSchema>;
export type ScormModuleCreateBody = z.input<typeof scormModuleCreateSchema>;
export type ModuleCreateBody = z.input<typeof moduleCreateSchema>;

/** PUT /api/modules/:id. */
export const moduleUpdateSchema = z
  .object({
    title: moduleTitle.optional(),
    content: moduleContent.optional(),
    // Absent: as they are; null or blank: none.
    titleCy: moduleTitleCy,
    contentCy: moduleContentCy,
    orderIndex: orderIndex.optional(),
    duration: moduleDuration.optional(),
    courseId: z.string().optional(),
  })
  .refine((v) => [v.title, v.content, v.titleCy, v.contentCy, v.orderIndex, v.duration].some((x) => x !== undefined), {
    message: 'Nothing to update',
  });
export type ModuleUpdateInput = z.infer<typeof moduleUpdateSchema>;

/** The module dialog's form values (all required there). */
export const moduleFormSchema = z.object({
  title: moduleTitle,
  content: moduleContent,
  orderIndex,
  duration: moduleDuration,
});
export type ModuleFormValues = z.infer<typeof moduleFormSchema>;

const uuid = z.uuid('Invalid id');

export const moduleReorderSchema = z.object({
  moduleIds: z.array(uuid, { error: MESSAGES.moduleIds }).min(1, MESSAGES.moduleIds).max(1000, MESSAGES.moduleIds),
});
export const questionReorderSchema = z.object({
  questionIds: z.array(uuid, { error: MESSAGES.questionIds }).min(1, MESSAGES.questionIds).max(1000, MESSAGES.questionIds),
});

/** An empty or blank optional text is "none". */
const optionalText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable().optional());

/** PUT /api/modules/:id/quiz (create or update) and the quiz form. */
export const quizSchema = z.object({
  title: z.string({ error: MESSAGES.quizTitleMin }).trim().min(3, MESSAGES.quizTitleMin).max(200, MESSAGES.titleMax),
  description: optionalText(
    z.string().trim().min(10, MESSAGES.quizDescriptionMin).max(5000, MESSAGES.descriptionMax),
  ),
  titleCy: welshText(z.string({ error: MESSAGES.quizTitleCyMin }).trim().min(3, MESSAGES.quizTitleCyMin).max(200, MESSAGES.titleCyMax)),
  descriptionCy: welshText(
    z.string({ error: MESSAGES.quizDescriptionCyMin }).trim().min(10, MESSAGES.quizDescriptionCyMin).max(5000, MESSAGES.descriptionCyMax),
  ),
  passingScore: z
    .number({ error: MESSAGES.passingScore })
    .int(MESSAGES.passingScore)
    .min(1, MESSAGES.passingScore)
    .max(100, MESSAGES.passingScore)
    .default(DEFAULT_PASSING_SCORE),
  timeLimit: z.preprocess(
    (v) => (v === '' ? null : v),
    z.number({ error: MESSAGES.timeLimit }).int(MESSAGES.timeLimit).min(1, MESSAGES.timeLimit).max(10000, 'Time limit must be at most 10000 minutes').nullable().optional(),
  ),
  randomizeQuestions: z.boolean({ error: 'Randomise questions must be true or false' }).default(false),
  // Quiz integrity. Left out of a PUT, each keeps its stored value (a new quiz: the default).
  showCorrectAnswers: z.enum(ANSWER_DISPLAYS, { error: MESSAGES.showCorrectAnswers }).optional(),
  maxAttempts: z.preprocess(
    (v) => (v === '' ? null : v),
    z.number({ error: MESSAGES.maxAttempts }).int(MESSAGES.maxAttempts).min(1, MESSAGES.maxAttempts).max(MAX_QUIZ_ATTEMPTS, MESSAGES.maxAttempts)
      .nullable().optional(),
  ),
  retryWaitMinutes: z
    .number({ error: MESSAGES.retryWait })
    .int(MESSAGES.retryWait)
    .min(0, MESSAGES.retryWait)
    .max(MAX_RETRY_WAIT_MINUTES, MESSAGES.retryWait)
    .optional(),
});
export type QuizInput = z.infer<typeof quizSchema>;

export const TRUE_FALSE_OPTIONS = ['True', 'False'] as const;

const questionObject = z.object({
  questionText: z
    .string({ error: MESSAGES.questionTextMin })
    .trim()
    .min(5, MESSAGES.questionTextMin)
    .max(2000, 'Question text must be at most 2000 characters'),
  questionType: z.enum(QUESTION_TYPES, { error: MESSAGES.questionType }).default('MULTIPLE_CHOICE'),
  options: z
    .array(
      z.object({
        text: z.string({ error: MESSAGES.optionText }).trim().min(1, MESSAGES.optionText).max(500, 'Option text must be at most 500 characters'),
        isCorrect: z.boolean().default(false),
      }),
      { error: MESSAGES.optionsMin },
    )
    .min(2, MESSAGES.optionsMin)
    .max(10, MESSAGES.optionsMax),
  points: z.number({ error: MESSAGES.pointsMin }).int(MESSAGES.pointsMin).min(1, MESSAGES.pointsMin).max(1000, 'Points must be at most 1000').default(1),
  explanation: optionalText(z.string().trim().max(2000, 'Explanation must be at most 2000 characters')),
  // The Welsh versions (absent or null: none). The Welsh options are the options' texts in the same
  // order: scoring is by index, the same in either language.
  questionCy: welshText(z.string({ error: MESSAGES.questionCyMin }).trim().min(5, MESSAGES.questionCyMin).max(2000, MESSAGES.questionCyMax)),
  optionsCy: z
    .array(z.string({ error: MESSAGES.optionsCyText }).trim().min(1, MESSAGES.optionsCyText).max(500, MESSAGES.optionsCyText), {
      error: MESSAGES.optionsCyCount,
    })
    .nullable()
    .optional(),
  explanationCy: welshText(z.string({ error: MESSAGES.explanationCyMax }).trim().max(2000, MESSAGES.explanationCyMax)),
});

/** POST /api/quizzes/:id/questions, PUT /api/questions/:id (whole question) and the question form. */
export const questionSchema = questionObject.superRefine((value, ctx) => {
  if (value.optionsCy != null && value.optionsCy.length !== value.options.length) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.optionsCyCount, path: ['optionsCy'] });
  }
  if (value.questionType === 'TRUE_FALSE') {
    const texts = value.options.map((o) => o.text);
    const ok =
      texts.length === 2 &&
      texts[0] === TRUE_FALSE_OPTIONS[0] &&
      texts[1] === TRUE_FALSE_OPTIONS[1] &&
      value.options.filter((o) => o.isCorrect).length === 1;
    if (!ok) ctx.addIssue({ code: 'custom', message: MESSAGES.trueFalse, path: ['options'] });
    return;
  }
  if (!value.options.some((o) => o.isCorrect)) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.oneCorrect, path: ['options'] });
  }
});
export type QuestionInput = z.infer<typeof questionSchema>;

/** The 0-based indexes of the correct options: the scoring key stored beside the options. */
export function correctAnswerIndexes(options: { isCorrect: boolean }[]): number[] {
  return options.flatMap((o, i) => (o.isCorrect ? [i] : []));
}

/** A module's content cut for the editor's list (spec: 200 characters plus an ellipsis). */
export function modulePreview(content: string): string {
  return content.length > MODULE_PREVIEW_LENGTH ? `${content.slice(0, MODULE_PREVIEW_LENGTH)}...` : content;
}

/** Shapes the authoring API answers with (camelCase, as the contracts say). */
export interface Quiz {
  id: string;
  moduleId: string;
  title: string;
  description: string | null;
  /** The title and description in Welsh; null: not translated. */
  titleCy: string | null;
  descriptionCy: string | null;
  passingScore: number;
  timeLimit: number | null;
  randomizeQuestions: boolean;
  /** When the learner sees the correct answers after an attempt. */
  showCorrectAnswers: AnswerDisplay;
  /** Scored attempts allowed per learner (and recertification cycle), or null for unlimited. */
  maxAttempts: number | null;
  /** Minutes from one scored attempt until the next may start; 0 for none. */
  retryWaitMinutes: number;
  createdAt: string;
  updatedAt: string;
}

export interface QuizQuestion {
  id: string;
  quizId: string;
  questionText: string;
  questionType: (typeof QUESTION_TYPES)[number];
  orderIndex: number;
  points: number;
  options: { text: string; isCorrect: boolean }[];
  correctAnswers: number[];
  explanation: string | null;
  /** The question, its option texts (as many as options, in their order) and explanation in Welsh; null: not translated. */
  questionCy: string | null;
  optionsCy: string[] | null;
  explanationCy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/modules/:id/quiz (authoring view): the quiz with its questions and answers, or null. */
export interface AuthoringQuiz extends Quiz {
  questions: QuizQuestion[];
}
