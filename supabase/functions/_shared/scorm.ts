// SCORM packages: what the API answers about a module's package and the author's settings.
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
  /** The author's minimum time: an attempt counts once its sessions have lasted this long (server clock). */
  minMinutes: number;
  uploadedAt: string;
}

/** PUT /api/modules/:id/scorm/settings. */
export const scormSettingsSchema = z.object({
  completionRule: z.enum(['completed', 'passed', 'completed-or-passed'], { error: 'Choose completed, passed, or either' }),
  scoreIsQuizScore: z.boolean({ error: 'Say whether the package\'s score is the quiz score' }),
  /** Whole minutes, 0 (no minimum) to 1,440; left out, the current minimum stays. */
  minMinutes: z.number({ error: 'Minimum time must be a whole number of minutes' })
    .int('Minimum time must be a whole number of minutes')
    .min(0, 'Minimum time must be from 0 to 1,440 minutes')
    .max(1440, 'Minimum time must be from 0 to 1,440 minutes')
    .optional(),
});
export type ScormSettingsInput = z.infer<typeof scormSettingsSchema>;

/** How a version reads on screen: "SCORM 1.2", "SCORM 2004 (3rd edition)". */
export function scormVersionLabel(version: ScormPackage['version'], edition: ScormPackage['edition']): string {
  return version === '1.2' ? 'SCORM 1.2' : `SCORM 2004${edition ? ` (${edition} edition)` : ''}`;
}

/**
 * The largest package the site accepts, in MB (settings.scorm_max_upload_mb; 1 MB = 1,048,576 bytes).
 * At most 1,024: a package is also refused when it unpacks to more than 1 GB (lib/scorm.ts), so a
 * larger zip could never pass.
 */
export const SCORM_UPLOAD_LIMIT_MB = { min: 1, max: 1024, default: 200 } as const;
const MEGABYTE = 1024 * 1024;

const LIMIT_MESSAGE = `Enter a whole number of megabytes between ${SCORM_UPLOAD_LIMIT_MB.min} and ${SCORM_UPLOAD_LIMIT_MB.max.toLocaleString('en-GB')}`;
/** The settings form's field (`scormMaxUploadMb`), checked the same in the browser and the API. */
export const scormUploadLimitField = z
  .number({ error: LIMIT_MESSAGE })
  .int(LIMIT_MESSAGE)
  .min(SCORM_UPLOAD_LIMIT_MB.min, LIMIT_MESSAGE)
  .max(SCORM_UPLOAD_LIMIT_MB.max, LIMIT_MESSAGE);

/** A size in MB as a refusal states it: whole MB from 10 MB, else to a tenth, never rounded down to the limit ("200.1 MB"). */
function overLimitMb(bytes: number, limitMb: number): string {
  const whole = Math.round(bytes / MEGABYTE);
  const value = whole >= 10 && whole > limitMb ? whole : Math.ceil((bytes / MEGABYTE) * 10) / 10;
  return `${value.toLocaleString('en-GB', { maximumFractionDigits: 1 })} MB`;
}

/**
 * Why an over-size package is refused (413 from the API, and the upload control before sending).
 * `bytes` null: the size is not known yet (a body without Content-Length), only that it passed the limit.
 */
export function scormTooLargeMessage(bytes: number | null, limitMb: number): string {
  const limit = `${limitMb.toLocaleString('en-GB')} MB`;
  const what = bytes === null
    ? `The package is larger than ${limit}, the largest package this site accepts.`
    : `The package is ${overLimitMb(bytes, limitMb)}; the largest package this site accepts is ${limit}.`;
  return `${what} Export it again with smaller media (compressed video and audio), or split the course into several packages; a national administrator can raise the limit in Settings.`;
}

/** True when a file of `bytes` is over the limit of `limitMb` MB. */
export const scormOverLimit = (bytes: number, limitMb: number): boolean => bytes > limitMb * MEGABYTE;
