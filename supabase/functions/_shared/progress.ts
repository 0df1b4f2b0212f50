// Progress rules (specification §4 and §9, DESIGN.md §3). The server applies them; the web app
// uses the same functions only to label what the server returned.

export const PROGRESS_STEP = 20;
export const PROGRESS_MAX = 100;

/** A course without modules: each press raises progress from 0 to 20, then by 20, capped at 100. */
export function nextStepProgress(current: number): number {
  return Math.min(PROGRESS_MAX, Math.max(0, current) + PROGRESS_STEP);
}

/** A course with modules: the share of completed modules, rounded to a whole percent. */
export function moduleProgress(completedModules: number, totalModules: number): number {
  if (totalModules <= 0) return 0;
  return Math.round((PROGRESS_MAX * Math.min(completedModules, totalModules)) / totalModules);
}

export function isComplete(progress: number): boolean {
  return progress >= PROGRESS_MAX;
}

/** The label of the course button for an enrolled learner (specification §2). */
export function courseButtonLabel(progress: number): 'Start Course' | 'Continue Course' | 'Review Course' {
  if (progress <= 0) return 'Start Course';
  if (progress >= PROGRESS_MAX) return 'Review Course';
  return 'Continue Course';
}
