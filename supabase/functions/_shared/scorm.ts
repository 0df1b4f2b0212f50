// SCORM packages (issue 20): what the API answers about a module's package and the author's settings.
import { z } from 'zod';

export type ScormCompletionRule = 'completed' | 'passed' | 'completed-or-passed';
export const SCORM_COMPLETION_RULES: readonly ScormCompletionRule[] = ['completed', 'passed', 'completed-or-passed'];

export interface ScormSco {
  /** The item's identifier in imsmanifest.xml. */
  id: string;
  title: string;
  /** The launch path relative to the package root, with the item's parameters. */
  href: string;
  /** The launch file's public URL in bucket scorm-content. */
  url: string;
}

/** GET /api/modules/:id/scorm (authors) and the answer of an upload. */
export interface ScormPackage {
  moduleId: string;
  title: string;
  version: '1.2' | '2004';
  edition: '2nd' | '3rd' | '4th' | null;
  scos: ScormSco[];
  revision: number;
  /** Public URL of the package root (ends with /). */
  baseUrl: string;
  fileCount: number;
  unpackedBytes: number;
  completionRule: ScormCompletionRule;
  scoreIsQuizScore: boolean;
  uploadedAt: string;
}

/** PUT /api/modules/:id/scorm/settings. */
export const scormSettingsSchema = z.object({
  completionRule: z.enum(['completed', 'passed', 'completed-or-passed'], { error: 'Choose completed, passed, or either' }),
  scoreIsQuizScore: z.boolean({ error: 'Say whether the package\'s score is the quiz score' }),
});
export type ScormSettingsInput = z.infer<typeof scormSettingsSchema>;

/** How a version reads on screen: "SCORM 1.2", "SCORM 2004 (3rd edition)". */
export function scormVersionLabel(version: ScormPackage['version'], edition: ScormPackage['edition']): string {
  return version === '1.2' ? 'SCORM 1.2' : `SCORM 2004${edition ? ` (${edition} edition)` : ''}`;
}
