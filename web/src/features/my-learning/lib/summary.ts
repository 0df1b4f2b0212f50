// What the learner's screens show, computed from the enrolments only (no invented figures).
import type { Enrollment } from '../api/get-enrollments';

export interface LearningSummary {
  total: number;
  inProgress: Enrollment[];
  completed: Enrollment[];
  /** Average progress of all enrolments, rounded; 0 with none. */
  overallProgress: number;
  /** Distinct services of the enrolled courses, in first-seen order. */
  services: string[];
}

export function summarise(enrollments: Enrollment[]): LearningSummary {
  // Specification §4: in progress until completed is true (a pending enrolment included).
  const inProgress = enrollments.filter((e) => !e.completed);
  const completed = enrollments.filter((e) => e.completed);
  const overallProgress = enrollments.length
    ? Math.round(enrollments.reduce((sum, e) => sum + e.progress, 0) / enrollments.length)
    : 0;
  const services: string[] = [];
  for (const e of enrollments) {
    if (e.course && !services.includes(e.course.service)) services.push(e.course.service);
  }
  return { total: enrollments.length, inProgress, completed, overallProgress, services };
}
