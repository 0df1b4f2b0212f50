// A learner's enrolment on a course, as the API answers it (docs/ARCHITECTURE.md, "Answer shapes"):
// in the catalogue's and the learner's lists, and in a quiz result that completed a module.

export interface Enrollment {
  id: string;
  userId: string;
  courseId: string;
  progress: number;
  completed: boolean;
  status: 'PENDING' | 'ACTIVE';
  startedAt: string;
  completedAt: string | null;
  lastAccessedModuleId: string | null;
  /** The certificate the completed enrolment earned (not revoked); null while in progress. */
  certificateId?: string | null;
  /** titleCy: the course's title in Welsh; null: not translated. */
  course: { id: string; title: string; titleCy: string | null; description: string; service: string; duration: number; modules: number } | null;
}
