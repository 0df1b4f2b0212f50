// The course button's label from an enrolment's progress. The progress itself is the server's
// (the SQL functions that mark a module read or a quiz passed compute it); this only labels it.

export const PROGRESS_MAX = 100;

/** The label of the course button for an enrolled learner ('Start Course', 'Continue Course', 'Review Course'). */
export function courseButtonLabel(progress: number): 'Start Course' | 'Continue Course' | 'Review Course' {
  if (progress <= 0) return 'Start Course';
  if (progress >= PROGRESS_MAX) return 'Review Course';
  return 'Continue Course';
}
