// The SCORM run-time's endpoints: the module's player (package, SCOs, their status), a
// session per launch of a SCO (its initial cmi, resume included), and the saves of what the content
// reported, numbered in order (seq).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, apiBaseUrl } from '@/lib/api-client';
import { accessToken, supabaseAnonKey } from '@/lib/supabase';
import { playerFileAddress } from '@/lib/offline/scorm-content';
import { moduleKeys } from '@/lib/query-keys';

export type ScormVersion = '1.2' | '2004';

export interface ScormSco {
  id: string;
  title: string;
  href: string;
  status: string | null;
  score: number | null;
}

export interface ScormPlayerData {
  moduleId: string;
  version: ScormVersion;
  title: string;
  /** Where the package's files are, on the content origin. */
  contentBase: string;
  /** The launcher page on the content origin; when absent it is `_player/launcher.html` at the bucket's root. */
  launcherUrl?: string;
  scos: ScormSco[];
  moduleCompleted: boolean;
}

export interface ScormSession {
  sessionId: string;
  seq: number;
  cmi: Record<string, string>;
}

export interface ScormSaveResult {
  seq: number;
  scoStatus: string | null;
  moduleCompleted: boolean;
  courseProgress?: number;
  /** The package's rule is met but the attempt has not yet lasted its minimum time (server clock). */
  secondsToMinimum?: number;
}

export interface ScormSave {
  seq: number;
  values: Record<string, string>;
  finish?: boolean;
}

export const scormPlayerQueryOptions = (moduleId: string) =>
  queryOptions({ queryKey: moduleKeys.scormPlayer(moduleId), queryFn: () => api.get<ScormPlayerData>(`/modules/${moduleId}/scorm/player`) });
export const useScormPlayer = (moduleId: string) => useQuery(scormPlayerQueryOptions(moduleId));

/** One learner's record of a SCO: latest status, best score (percent), time over all attempts. */
export interface ScormLearnerSco {
  scoId: string;
  status: string | null;
  score: number | null;
  /** The time the package reported. */
  totalSeconds: number;
  /** The time the sessions really lasted, by the server's clock. */
  serverSeconds: number;
  /** The median time of the learners who met the rule (null until three have). */
  typicalSeconds: number | null;
  /** Met far sooner than the package usually takes, or than it reported: the content may not have run. */
  quick: boolean;
  attempts: number;
  lastActivity: string | null;
}

export interface ScormLearner {
  userId: string;
  name: string;
  username: string;
  moduleCompleted: boolean;
  /** Only the SCOs the learner has opened. */
  scos: ScormLearnerSco[];
}

export interface ScormLearnersPage {
  items: ScormLearner[];
  total: number;
  page: number;
  pageSize: number;
}

export const SCORM_LEARNERS_PAGE_SIZE = 20;

/**
 * The instructor's view of a SCORM module's learners, a page at a time; null when the caller does
 * not manage the course (403) or the module has no package (404): the page then shows nothing.
 */
export function useScormLearners(moduleId: string, page: number) {
  return useQuery({
    queryKey: moduleKeys.scormLearners(moduleId, page),
    placeholderData: keepPreviousData,
    queryFn: async () => {
      try {
        return await api.get<ScormLearnersPage>(`/modules/${moduleId}/scorm/learners?page=${page}&pageSize=${SCORM_LEARNERS_PAGE_SIZE}`);
      } catch (error) {
        if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return null;
        throw error;
      }
    },
  });
}

export const startScormSession = (moduleId: string, scoId: string) =>
  api.post<ScormSession>(`/modules/${moduleId}/scorm/scos/${encodeURIComponent(scoId)}/sessions`);

export const saveScormSession = (sessionId: string, body: ScormSave) => api.put<ScormSaveResult>(`/scorm/sessions/${sessionId}`, body);

/**
 * The save when the page is going away (pagehide): a keepalive request, which the browser sends
 * after the page is gone. The token is the one read before (nothing may be awaited here).
 */
export function saveScormSessionOnLeave(sessionId: string, body: ScormSave, token: string) {
  void fetch(`${apiBaseUrl}/scorm/sessions/${sessionId}`, {
    method: 'PUT',
    keepalive: true,
    headers: { 'Content-Type': 'application/json', apikey: supabaseAnonKey, Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  }).catch(() => {});
}

export { accessToken };

/** The launcher page's address: the player's own, else `_player/launcher.html` beside the packages in the bucket. */
export function launcherAddress(player: Pick<ScormPlayerData, 'contentBase' | 'launcherUrl'>, appOrigin: string): URL | null {
  if (!player.launcherUrl) return playerFileAddress(player.contentBase, 'launcher.html', appOrigin);
  try {
    const url = new URL(player.launcherUrl);
    url.searchParams.set('app', appOrigin);
    return url;
  } catch {
    return null;
  }
}
