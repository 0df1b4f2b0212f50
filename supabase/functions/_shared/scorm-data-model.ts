// The SCORM run-time data model as the server accepts it: which elements the content may
// write for each version, their vocabularies, types and lengths, and the values a session starts
// with. Used by the function's run-time routes before anything reaches the database
// (private.scorm_save reads the statuses and score from what was saved). Interactions, objectives and
// comments are accepted with their patterns and kept for the record; they are not sent back when a
// session starts (write-only in 1.2, and not needed to resume). docs/ARCHITECTURE.md, "SCORM run-time".

export const SCORM_VERSIONS = ['1.2', '2004'] as const;
export type ScormVersion = (typeof SCORM_VERSIONS)[number];
export type ScoStatus = 'not attempted' | 'incomplete' | 'completed' | 'passed' | 'failed';

type Check = (value: string) => string | null;

const MAX_INDEX = 249; // at most 250 interactions / objectives / comments per attempt

const str = (max: number): Check => (v) => (v.length <= max ? null : `At most ${max} characters`);
const vocab = (words: readonly string[]): Check => (v) =>
  words.includes(v) ? null : `Must be one of: ${words.map((w) => (w === '' ? '(empty)' : w)).join(', ')}`;
const DECIMAL = /^-?\d{1,10}(\.\d{1,10})?$/;
const real = (min: number | null, max: number | null, blank = false): Check => (v) => {
  if (blank && v === '') return null;
  if (!DECIMAL.test(v)) return 'Must be a number';
  const n = Number(v);
  if ((min != null && n < min) || (max != null && n > max)) {
    return min != null && max != null ? `Must be between ${min} and ${max}` : min != null ? `Must be at least ${min}` : `Must be at most ${max}`;
  }
  return null;
};
const integer = (min: number, max: number): Check => (v) =>
  /^-?\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max ? null : `Must be a whole number from ${min} to ${max}`;

/** 1.2 CMITimespan HHHH:MM:SS.SS. */
export const TIMESPAN_12 = /^\d{2,4}:[0-5]\d:[0-5]\d(\.\d{1,2})?$/;
/** 2004 timeinterval (second,10,2): an ISO 8601 duration. */
export const DURATION_2004 = /^P(?!$)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d{1,2})?S)?)?$/;
const TIME_12 = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,2})?$/;
const TIMESTAMP_2004 = /^\d{4}(-\d{2}(-\d{2}(T\d{2}(:\d{2}(:\d{2}(\.\d{1,2})?)?)?(Z|[+-]\d{2}(:\d{2})?)?)?)?)?$/;
const pattern = (re: RegExp, what: string): Check => (v) => (re.test(v) ? null : what);
const timespanCheck = pattern(TIMESPAN_12, 'Must be a time span HHHH:MM:SS.SS');
const durationCheck = pattern(DURATION_2004, 'Must be an ISO 8601 duration such as PT1H2M3.5S');
const IDENTIFIER = /^\S{1,4000}$/;

const V12 = {
  lessonStatus: ['passed', 'completed', 'failed', 'incomplete', 'browsed'],
  exit: ['time-out', 'suspend', 'logout', ''],
  interactionType: ['true-false', 'choice', 'fill-in', 'matching', 'performance', 'sequencing', 'likert', 'numeric'],
  result: ['correct', 'wrong', 'unanticipated', 'neutral'],
  objectiveStatus: ['passed', 'completed', 'failed', 'incomplete', 'browsed', 'not attempted'],
} as const;

const V2004 = {
  completion: ['completed', 'incomplete', 'not attempted', 'unknown'],
  success: ['passed', 'failed', 'unknown'],
  exit: ['time-out', 'suspend', 'logout', 'normal', ''],
  interactionType: ['true-false', 'choice', 'fill-in', 'long-fill-in', 'matching', 'performance', 'sequencing', 'likert', 'numeric', 'other'],
  result: ['correct', 'incorrect', 'unanticipated', 'neutral'],
} as const;

const result2004: Check = (v) => (V2004.result.includes(v as never) || DECIMAL.test(v) ? null : `Must be one of: ${V2004.result.join(', ')}, or a number`);
const result12: Check = (v) => (V12.result.includes(v as never) || DECIMAL.test(v) ? null : `Must be one of: ${V12.result.join(', ')}, or a number`);

const ELEMENTS_12: Record<string, Check> = {
  'cmi.core.lesson_location': str(255),
  'cmi.core.lesson_status': vocab(V12.lessonStatus),
  'cmi.core.score.raw': real(0, 100, true),
  'cmi.core.score.min': real(0, 100, true),
  'cmi.core.score.max': real(0, 100, true),
  'cmi.core.exit': vocab(V12.exit),
  'cmi.core.session_time': timespanCheck,
  'cmi.suspend_data': str(4096),
  'cmi.comments': str(4096),
  'cmi.student_preference.audio': integer(-1, 100),
  'cmi.student_preference.language': str(255),
  'cmi.student_preference.speed': integer(-100, 100),
  'cmi.student_preference.text': integer(-1, 1),
};

const INDEXED_12: [RegExp, Check][] = [
  [/^cmi\.objectives\.\d+\.id$/, pattern(/^\S{1,255}$/, 'Must be an identifier of up to 255 characters')],
  [/^cmi\.objectives\.\d+\.score\.(raw|min|max)$/, real(0, 100, true)],
  [/^cmi\.objectives\.\d+\.status$/, vocab(V12.objectiveStatus)],
  [/^cmi\.interactions\.\d+\.id$/, pattern(/^\S{1,255}$/, 'Must be an identifier of up to 255 characters')],
  [/^cmi\.interactions\.\d+\.objectives\.\d+\.id$/, pattern(/^\S{1,255}$/, 'Must be an identifier of up to 255 characters')],
  [/^cmi\.interactions\.\d+\.time$/, pattern(TIME_12, 'Must be a time HH:MM:SS')],
  [/^cmi\.interactions\.\d+\.type$/, vocab(V12.interactionType)],
  [/^cmi\.interactions\.\d+\.correct_responses\.\d+\.pattern$/, str(255)],
  [/^cmi\.interactions\.\d+\.weighting$/, real(null, null)],
  [/^cmi\.interactions\.\d+\.student_response$/, str(255)],
  [/^cmi\.interactions\.\d+\.result$/, result12],
  [/^cmi\.interactions\.\d+\.latency$/, timespanCheck],
];

const ELEMENTS_2004: Record<string, Check> = {
  'cmi.completion_status': vocab(V2004.completion),
  'cmi.success_status': vocab(V2004.success),
  'cmi.exit': vocab(V2004.exit),
  'cmi.location': str(1000),
  'cmi.progress_measure': real(0, 1),
  'cmi.score.scaled': real(-1, 1),
  'cmi.score.raw': real(null, null),
  'cmi.score.min': real(null, null),
  'cmi.score.max': real(null, null),
  'cmi.session_time': durationCheck,
  'cmi.suspend_data': str(64000),
  'cmi.learner_preference.audio_level': real(0, null),
  'cmi.learner_preference.language': str(250),
  'cmi.learner_preference.delivery_speed': real(0, null),
  'cmi.learner_preference.audio_captioning': vocab(['-1', '0', '1']),
};

const ID_2004 = pattern(IDENTIFIER, 'Must be an identifier of up to 4000 characters');
const INDEXED_2004: [RegExp, Check][] = [
  [/^cmi\.comments_from_learner\.\d+\.comment$/, str(4000)],
  [/^cmi\.comments_from_learner\.\d+\.location$/, str(250)],
  [/^cmi\.comments_from_learner\.\d+\.timestamp$/, pattern(TIMESTAMP_2004, 'Must be an ISO 8601 date and time')],
  [/^cmi\.objectives\.\d+\.id$/, ID_2004],
  [/^cmi\.objectives\.\d+\.score\.scaled$/, real(-1, 1)],
  [/^cmi\.objectives\.\d+\.score\.(raw|min|max)$/, real(null, null)],
  [/^cmi\.objectives\.\d+\.success_status$/, vocab(V2004.success)],
  [/^cmi\.objectives\.\d+\.completion_status$/, vocab(V2004.completion)],
  [/^cmi\.objectives\.\d+\.progress_measure$/, real(0, 1)],
  [/^cmi\.objectives\.\d+\.description$/, str(250)],
  [/^cmi\.interactions\.\d+\.id$/, ID_2004],
  [/^cmi\.interactions\.\d+\.type$/, vocab(V2004.interactionType)],
  [/^cmi\.interactions\.\d+\.objectives\.\d+\.id$/, ID_2004],
  [/^cmi\.interactions\.\d+\.timestamp$/, pattern(TIMESTAMP_2004, 'Must be an ISO 8601 date and time')],
  [/^cmi\.interactions\.\d+\.correct_responses\.\d+\.pattern$/, str(4000)],
  [/^cmi\.interactions\.\d+\.weighting$/, real(null, null)],
  [/^cmi\.interactions\.\d+\.learner_response$/, str(4000)],
  [/^cmi\.interactions\.\d+\.result$/, result2004],
  [/^cmi\.interactions\.\d+\.latency$/, durationCheck],
  [/^cmi\.interactions\.\d+\.description$/, str(250)],
];

/** Elements a player may send that carry nothing to save (navigation requests): accepted, dropped. */
const IGNORED = new Set(['adl.nav.request']);

/** The check for one element name of the version, or null when the content may not write it. */
export function elementCheck(version: ScormVersion, name: string): Check | null {
  const plain = version === '1.2' ? ELEMENTS_12 : ELEMENTS_2004;
  if (Object.hasOwn(plain, name)) return plain[name];
  const indexes = name.match(/\.(\d+)(?=\.)/g);
  if (indexes?.some((i) => Number(i.slice(1)) > MAX_INDEX || i.length > 5)) return null;
  for (const [re, check] of version === '1.2' ? INDEXED_12 : INDEXED_2004) if (re.test(name)) return check;
  return null;
}

export interface ScormValidation {
  values: Record<string, string>;
  fields: Record<string, string>;
}

/** Checks every element the content reported: unknown or read-only names, vocabularies, types and
 * lengths. `values` holds what is to be saved (navigation requests dropped); `fields` a message per
 * refused element. */
export function validateScormValues(version: ScormVersion, input: Record<string, unknown>): ScormValidation {
  const values: Record<string, string> = {};
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    const key = `values.${name}`;
    if (IGNORED.has(name)) continue;
    const check = elementCheck(version, name);
    if (!check) {
      fields[key] = `Not an element the content may write in SCORM ${version}`;
      continue;
    }
    if (typeof value !== 'string') {
      fields[key] = 'Must be a string';
      continue;
    }
    const problem = check(value);
    if (problem) fields[key] = problem;
    else values[name] = value;
  }
  return { values, fields };
}

/** Seconds as a 1.2 CMITimespan (HHHH:MM:SS.SS). */
export function timespan12(seconds: number): string {
  const cs = Math.round(Math.max(0, seconds) * 100);
  const h = Math.min(9999, Math.floor(cs / 360000));
  const m = Math.floor((cs % 360000) / 6000);
  const s = (cs % 6000) / 100;
  const pad = (n: number) => String(n).padStart(2, '0');
  const sec = s.toFixed(2).padStart(5, '0');
  return `${String(h).padStart(4, '0')}:${pad(m)}:${sec}`;
}

/** Seconds as a 2004 ISO 8601 duration (PT#H#M#S). */
export function duration2004(seconds: number): string {
  const cs = Math.round(Math.max(0, seconds) * 100);
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = (cs % 6000) / 100;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${Number(s.toFixed(2))}S`;
}

/** A 1.2 CMITimespan or a 2004 duration in seconds (a year 365 days, a month 30), or null. */
export function timeSeconds(value: string): number | null {
  if (TIMESPAN_12.test(value)) {
    const [h, m, s] = value.split(':').map(Number);
    return h * 3600 + m * 60 + s;
  }
  const parts = DURATION_2004.exec(value);
  if (!parts) return null;
  const n = (part: string | undefined) => (part ? parseFloat(part) : 0);
  return n(parts[1]) * 31_536_000 + n(parts[2]) * 2_592_000 + n(parts[3]) * 86_400 + n(parts[5]) * 3600 + n(parts[6]) * 60 + n(parts[7]);
}

// Interactions (write-only in 1.2) and comments are kept for the record, not given back. Objectives
// are: the content finds its manifest objectives and their statuses where it left them.
const NOT_RESTORED = /^cmi\.(interactions|comments_from_learner)\./;

/** What the manifest gives the run-time for one SCO (read by the upload: lib/scorm/manifest.ts). */
export interface ScoManifestData {
  objectives?: string[];
  passingScore?: string;
  completionThreshold?: string;
  masteryScore?: string;
  launchData?: string;
}

export interface SessionStart {
  learnerId: string;
  learnerName: string;
  entry: string;
  saved: Record<string, string>;
  totalSeconds: number;
  /** The SCO's manifest data: objectives, passing score, completion threshold, mastery score. */
  sco?: ScoManifestData;
}

/** The manifest data of a stored SCO entry (scorm_packages.scos), only the fields of their types. */
export function scoManifestData(entry: Record<string, unknown>): ScoManifestData {
  const out: ScoManifestData = {};
  for (const key of ['passingScore', 'completionThreshold', 'masteryScore', 'launchData'] as const) {
    if (typeof entry[key] === 'string') out[key] = entry[key];
  }
  if (Array.isArray(entry.objectives)) out.objectives = entry.objectives.filter((id): id is string => typeof id === 'string');
  return out;
}

/** The manifest's objectives as cmi.objectives.n.id, in the manifest's order. */
function manifestObjectives(sco: ScoManifestData | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [i, id] of (sco?.objectives ?? []).slice(0, MAX_INDEX + 1).entries()) out[`cmi.objectives.${i}.id`] = id;
  return out;
}

/** "Last, First" as 1.2 and 2004 name the learner. */
export function learnerNameForScorm(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length < 2) return name.trim();
  const last = parts.pop()!;
  return `${last}, ${parts.join(' ')}`;
}

/** The element values the run-time is initialised with when a session opens. */
export function initialCmi(version: ScormVersion, start: SessionStart): Record<string, string> {
  const saved: Record<string, string> = {};
  for (const [k, v] of Object.entries(start.saved)) if (!NOT_RESTORED.test(k)) saved[k] = v;
  const name = learnerNameForScorm(start.learnerName);
  const sco = start.sco;
  const fromManifest = (pairs: [string, string | undefined][]) =>
    Object.fromEntries(pairs.filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== ''));
  if (version === '1.2') {
    return {
      'cmi.core.lesson_status': 'not attempted',
      'cmi.core.lesson_location': '',
      'cmi.suspend_data': '',
      'cmi.core.score.raw': '',
      'cmi.core.score.min': '',
      'cmi.core.score.max': '',
      ...manifestObjectives(sco),
      ...saved,
      ...fromManifest([['cmi.student_data.mastery_score', sco?.masteryScore], ['cmi.launch_data', sco?.launchData]]),
      'cmi.core.student_id': start.learnerId,
      'cmi.core.student_name': name,
      'cmi.core.credit': 'credit',
      'cmi.core.lesson_mode': 'normal',
      'cmi.core.entry': start.entry,
      'cmi.core.total_time': timespan12(start.totalSeconds),
      'cmi.core.exit': '',
    };
  }
  return {
    'cmi.completion_status': 'unknown',
    'cmi.success_status': 'unknown',
    'cmi.location': '',
    'cmi.suspend_data': '',
    ...manifestObjectives(sco),
    ...saved,
    ...fromManifest([
      ['cmi.scaled_passing_score', sco?.passingScore],
      ['cmi.completion_threshold', sco?.completionThreshold],
      ['cmi.launch_data', sco?.launchData],
    ]),
    'cmi.learner_id': start.learnerId,
    'cmi.learner_name': name,
    'cmi.credit': 'credit',
    'cmi.mode': 'normal',
    'cmi.entry': start.entry,
    'cmi.total_time': duration2004(start.totalSeconds),
    'cmi.exit': '',
  };
}

/** One status for a SCO from the saved pair (1.2's lesson_status is stored as the pair). */
export function scoStatus(completion: string | null | undefined, success: string | null | undefined): ScoStatus {
  if (success === 'passed') return 'passed';
  if (success === 'failed') return 'failed';
  if (completion === 'completed') return 'completed';
  if (completion === 'incomplete') return 'incomplete';
  return 'not attempted';
}

/** A stored score (fraction 0-1) as the percentage the API answers (one decimal), or null. */
export function scorePercent(fraction: unknown): number | null {
  return fraction == null ? null : Math.round(Number(fraction) * 1000) / 10;
}
