// The learner's SCORM player (docs/ARCHITECTURE.md "SCORM player"). The package is
// untrusted: it runs in a sandboxed frame on the content origin, never the app's, inside a launcher
// page that holds the SCORM run-time API (scorm-again) and relays what the content reports by
// postMessage. Here those reports are checked (origin and frame) and saved with the learner's token,
// in order: on Commit, on Finish, every 30 seconds and when the page goes away. Without a connection,
// a package downloaded with its course plays from the content origin's offline cache and what it
// reports is kept in the learner's offline queue instead. Loaded lazily: pages without a package
// never load it.
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceFloppy, IconMaximize, IconMinimize, IconPlayerPlay } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { TFunction, TOptions } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { OfflineSco } from '@shared/offline.ts';
import { ApiError, errorDescription, OfflineError } from '@/lib/api-client';
import { formatTimeSpent } from '@/lib/format';
import { currentLanguage } from '@/lib/i18n/i18n';
import { useDownloads } from '@/lib/offline/hooks';
import { queuedItems } from '@/lib/offline/queue';
import { keepable } from '@/lib/offline/scorm-content';
import { OfflineSitting, offlineStartCmi } from '@/lib/offline/scorm-sitting';
import { invalidateLearning, offlineKeys } from '@/lib/query-keys';
import {
  accessToken,
  launcherAddress,
  saveScormSession,
  saveScormSessionOnLeave,
  startScormSession,
  useScormPlayer,
  type ScormPlayerData,
  type ScormSaveResult,
  type ScormSco,
} from '../api/scorm';

/** How often what the content reported is saved while it runs (at most 30 seconds lost). */
export const SAVE_EVERY_MS = 30_000;
const ELEMENT = /^cmi\.[A-Za-z0-9_.]{1,250}$/;
const MAX_VALUE = 64_000;

/** 'In progress', 'Passed' ...: a SCO's status in words. */
export function scoStatusText(t: TFunction, status: string | null): string {
  switch (status) {
    case 'passed':
      return t('scormPlayer.status.passed');
    case 'completed':
      return t('scormPlayer.status.completed');
    case 'failed':
      return t('scormPlayer.status.failed');
    case 'incomplete':
    case 'browsed':
      return t('scormPlayer.status.inProgress');
    default:
      return t('scormPlayer.status.notStarted');
  }
}

/** The values reported since the last save, saved one after another with increasing numbers. */
export class ScormSaver {
  private pending: Record<string, string> = {};
  private chain: Promise<unknown> = Promise.resolve();
  /** The session has ended on the server (or can take nothing more). */
  private finished = false;
  /** A finish is asked for and not yet saved. */
  private finishing = false;
  token = '';

  constructor(
    readonly sessionId: string,
    private seq: number,
    private readonly onSaved: (result: ScormSaveResult, finish: boolean) => void,
    private readonly onFailed: (error: unknown) => void,
  ) {}

  set(element: string, value: string) {
    if (!this.finished) this.pending[element] = value;
  }

  get hasPending() {
    return Object.keys(this.pending).length > 0;
  }

  /** Saves, in its turn, what is pending then (with finish, even nothing: the session ends). */
  save(finish = false): Promise<unknown> {
    if (this.finished) return this.chain;
    if (finish) this.finishing = true;
    if (!this.finishing && !this.hasPending) return this.chain;
    this.chain = this.chain.then(() => this.send());
    return this.chain;
  }

  private async send() {
    // When the server names elements it refuses, they are dropped and the rest is sent again at
    // once, so that one wrong element never blocks the others (a few times at most).
    for (let tries = 0; tries < 3; tries++) {
      if (this.finished) return;
      const finish = this.finishing;
      if (!finish && !this.hasPending) return;
      const values = this.pending;
      this.pending = {};
      const seq = ++this.seq;
      try {
        this.token = await accessToken();
        const result = await saveScormSession(this.sessionId, { seq, values, finish: finish || undefined });
        if (finish) this.finished = true;
        this.onSaved(result, finish);
        return;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          // The sitting is over on the server (finished, or another opened since): nothing more
          // can be saved through it.
          this.pending = {};
          this.finished = true;
          this.onFailed(error);
          return;
        }
        const refused = error instanceof ApiError && error.status === 400
          ? Object.keys(error.fields ?? {}).filter((key) => key.startsWith('values.')).map((key) => key.slice('values.'.length))
          : [];
        // Kept for the next save (newer values win), whose number is higher still.
        const kept = { ...values };
        for (const element of refused) delete kept[element];
        this.pending = { ...kept, ...this.pending };
        if (refused.length === 0) {
          this.onFailed(error);
          return;
        }
      }
    }
  }

  /** The page is going away: what is pending goes in a keepalive request. */
  leave() {
    if (this.finished || !this.hasPending || !this.token) return;
    const values = this.pending;
    this.pending = {};
    saveScormSessionOnLeave(this.sessionId, { seq: ++this.seq, values }, this.token);
  }
}

/** ' · score 85%' once the SCO is done (a score while in progress says nothing yet). */
function scoreText(t: TFunction, sco: ScormSco): string {
  return sco.score !== null && ['passed', 'completed', 'failed'].includes(sco.status ?? '') ? t('scormPlayer.score', { score: sco.score }) : '';
}

const DONE = ['passed', 'completed'];

function timeNow() {
  return new Intl.DateTimeFormat(currentLanguage(), { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' }).format(new Date());
}

/** A message of this namespace in the page's language (t, or the same through an effect event). */
type Translate = (key: string, options?: TOptions) => string;

/** What a save tells the learner. */
function savedText(t: Translate, result: ScormSaveResult, finish: boolean): string {
  if (result.secondsToMinimum != null && result.secondsToMinimum > 0) {
    return t('scormPlayer.savedBeforeMinimum', { time: formatTimeSpent(result.secondsToMinimum) });
  }
  if (!finish) return t('scormPlayer.progressSavedAt', { time: timeNow() });
  return result.moduleCompleted ? t('scormPlayer.finishedCompleted') : t('scormPlayer.finished');
}

/** What the frame saves through: the session online, the offline queue without a connection. */
type Saver = Pick<ScormSaver, 'set' | 'save' | 'leave' | 'hasPending'>;

/** A SCO played without a connection: whose queue keeps the sitting, and its run-time start. */
interface OfflinePlay {
  personId: string;
  sco: OfflineSco;
}

function ScoFrame({ moduleId, player, sco, offline: offlineAtStart, onStatus, onScoStatus, onClosed }: {
  moduleId: string;
  player: ScormPlayerData;
  sco: ScormSco;
  offline: OfflinePlay | null;
  onStatus: (text: string) => void;
  onScoStatus: (scoId: string, status: string) => void;
  onClosed: () => void;
}) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const saverRef = useRef<Saver | null>(null);
  // Decided when the SCO opens: a sitting begun offline stays in the queue to its end.
  const [offline] = useState(offlineAtStart);
  const unloadedRef = useRef<(() => void) | null>(null);
  const closedRef = useRef(false);
  const queryClient = useQueryClient();
  const { t } = useTranslation('learning');
  // The messages of a running package, in the language of the moment: an effect event, so that a
  // change of language does not restart the package's session.
  const translate = useEffectEvent((key: string, options: TOptions = {}): string => t(key, options));
  const [saving, setSaving] = useState(false);
  const [fullScreen, setFullScreen] = useState(false);
  const [ended, setEnded] = useState(false);
  const launcher = launcherAddress(player, window.location.origin);
  const launcherHref = launcher?.href ?? null;

  const close = useCallback(() => {
    if (closedRef.current) return;
    closedRef.current = true;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    onClosed();
  }, [onClosed]);

  useEffect(() => {
    const onChange = () => setFullScreen(document.fullscreenElement === boxRef.current && boxRef.current !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  useEffect(() => {
    if (!launcherHref) return;
    const contentOrigin = new URL(launcherHref).origin;
    let cancelled = false;
    let starting = false;
    const refresh = () => void invalidateLearning(queryClient);
    const onSaved = (result: ScormSaveResult, finish: boolean) => {
      if (result.scoStatus) onScoStatus(sco.id, result.scoStatus);
      if (cancelled && !finish) return;
      onStatus(savedText(translate, result, finish));
      if (finish || result.moduleCompleted) refresh();
    };
    const onFailed = (error: unknown) => onStatus(error instanceof ApiError && error.status === 409
      ? translate('scormPlayer.sittingEnded')
      : translate('scormPlayer.notSaved', { reason: errorDescription(error, translate('scormPlayer.checkConnection')) }));

    function onMessage(event: MessageEvent) {
      // Only the launcher in this frame, on the content origin, is listened to.
      if (event.origin !== contentOrigin || !frameRef.current || event.source !== frameRef.current.contentWindow) return;
      const data: unknown = event.data;
      if (!data || typeof data !== 'object' || !('type' in data)) return;
      const message = data as { type: unknown; element?: unknown; value?: unknown; message?: unknown };
      const saver = saverRef.current;
      if (message.type === 'ready' && !saver && !starting && offline) {
        starting = true;
        const onKept = (finish: boolean, reported: string | null) => {
          void offlineKeys.invalidate(queryClient);
          if (reported) onScoStatus(sco.id, reported);
          if (!cancelled || finish) onStatus(translate(finish ? 'scormPlayer.offlineFinished' : 'scormPlayer.offlineKept', { time: timeNow() }));
        };
        queuedItems(offline.personId)
          .then((waiting) => {
            if (cancelled) return;
            const cmi = offlineStartCmi(offline.sco, moduleId, waiting);
            saverRef.current = new OfflineSitting(offline.personId, moduleId, sco.id, onKept, onFailed);
            frameRef.current?.contentWindow?.postMessage(
              { type: 'start', version: player.version, cmi, launchUrl: new URL(sco.href, player.contentBase).href, title: sco.title },
              contentOrigin,
            );
            onScoStatus(sco.id, 'incomplete');
            onStatus(translate('scormPlayer.offlineStarted'));
          })
          .catch(onFailed);
      } else if (message.type === 'ready' && !saver && !starting) {
        starting = true;
        startScormSession(moduleId, sco.id)
          .then(async (session) => {
            if (cancelled) return;
            const next = new ScormSaver(session.sessionId, session.seq, onSaved, onFailed);
            next.token = await accessToken();
            saverRef.current = next;
            frameRef.current?.contentWindow?.postMessage(
              { type: 'start', version: player.version, cmi: session.cmi, launchUrl: new URL(sco.href, player.contentBase).href, title: sco.title },
              contentOrigin,
            );
            onScoStatus(sco.id, 'incomplete');
            onStatus(session.cmi['cmi.core.entry'] === 'resume' || session.cmi['cmi.entry'] === 'resume' ? translate('scormPlayer.resumed') : translate('scormPlayer.started'));
          })
          .catch((error: unknown) => onStatus(translate('scormPlayer.notStartedBecause', { reason: errorDescription(error, translate('scormPlayer.pleaseTryAgain')) })));
      } else if (message.type === 'value' && saver) {
        if (typeof message.element === 'string' && ELEMENT.test(message.element) && typeof message.value === 'string' && message.value.length <= MAX_VALUE) {
          saver.set(message.element, message.value);
        }
      } else if (message.type === 'commit' && saver) {
        void saver.save();
      } else if (message.type === 'finish' && saver) {
        // The package ended its session (its own exit or finish): saved; the frame stays for what
        // the package shows last, and "Save and exit" becomes "Close".
        void saver.save(true).then(() => {
          if (!cancelled) setEnded(true);
        });
      } else if (message.type === 'unloaded') {
        unloadedRef.current?.();
      } else if (message.type === 'error') {
        onStatus(translate('scormPlayer.couldNotStart'));
      }
    }

    const timer = window.setInterval(() => void saverRef.current?.save(), SAVE_EVERY_MS);
    const onPageHide = () => saverRef.current?.leave();
    window.addEventListener('message', onMessage);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      window.removeEventListener('message', onMessage);
      window.removeEventListener('pagehide', onPageHide);
      // Leaving the page within the app: the last values still go (the request outlives the frame).
      const saver = saverRef.current;
      saverRef.current = null;
      if (saver?.hasPending) void saver.save().then(refresh);
    };
  }, [launcherHref, moduleId, player.version, player.contentBase, sco.id, sco.href, sco.title, offline, queryClient, onStatus, onScoStatus, close]);

  async function saveAndExit() {
    if (ended) {
      close();
      return;
    }
    setSaving(true);
    // The package is unloaded first: its own unload handlers report cmi.exit and session_time (and
    // terminate) before anything is saved and the frame goes. At most 4 seconds are waited.
    const frame = frameRef.current;
    if (frame?.contentWindow && launcherHref) {
      await new Promise<void>((resolve) => {
        const timeout = window.setTimeout(resolve, 4000);
        unloadedRef.current = () => {
          window.clearTimeout(timeout);
          resolve();
        };
        frame.contentWindow?.postMessage({ type: 'unload' }, new URL(launcherHref).origin);
      });
    }
    await saverRef.current?.save();
    setSaving(false);
    onStatus(offline ? t('scormPlayer.offlineKept', { time: timeNow() }) : t('scormPlayer.savedForLater'));
    close();
  }

  function toggleFullScreen() {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void boxRef.current?.requestFullscreen().catch(() => onStatus(t('scormPlayer.fullScreenUnavailable')));
  }

  if (!launcherHref) return <Text c="red.9">{t('scormPlayer.invalidAddress')}</Text>;
  return (
    <Stack gap="sm" ref={boxRef} data-testid="scorm-box" style={fullScreen ? { background: 'var(--mantine-color-body)', padding: 8, height: '100%' } : undefined}>
      <iframe
        ref={frameRef}
        src={launcherHref}
        title={t('scormPlayer.frameTitle', { title: sco.title })}
        // allow-same-origin only because the content origin is not the app's (see the file's comment);
        // allow-modals so that the package's own confirm() and alert() (resume where you left off?) work.
        sandbox="allow-scripts allow-same-origin allow-forms allow-modals"
        allow="fullscreen"
        referrerPolicy="no-referrer"
        data-testid="scorm-frame"
        style={{
          display: 'block',
          width: '100%',
          flex: fullScreen ? '1 1 auto' : undefined,
          height: fullScreen ? 'auto' : 'max(480px, calc(100vh - 220px))',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-sm)',
        }}
      />
      <Group gap="sm" wrap="wrap">
        <Button variant="default" onClick={() => void saveAndExit()} loading={saving} leftSection={<IconDeviceFloppy size={18} aria-hidden="true" />}>
          {ended ? t('scormPlayer.close') : t('scormPlayer.saveAndExit')}
        </Button>
        <Button
          variant="subtle"
          onClick={toggleFullScreen}
          leftSection={fullScreen ? <IconMinimize size={18} aria-hidden="true" /> : <IconMaximize size={18} aria-hidden="true" />}
        >
          {fullScreen ? t('scormPlayer.leaveFullScreen') : t('scormPlayer.fullScreen')}
        </Button>
        <Text size="sm" c="dimmed">
          {ended ? t(offline ? 'scormPlayer.offlineEndedNote' : 'scormPlayer.endedNote') : t('scormPlayer.saveAndExitNote')}
        </Text>
      </Group>
    </Stack>
  );
}

/** The module's package as downloaded with its course, and whether its files are kept offline. */
function useDownloadedPackage(personId: string | null, moduleId: string) {
  const downloads = useDownloads(personId);
  for (const course of downloads.data ?? []) {
    const pkg = course.offline.scorm.find((p) => p.moduleId === moduleId);
    if (pkg) return { pkg, course };
  }
  return null;
}

export default function ScormPlayer({ moduleId, enrolled, staff = false, personId = null }: {
  moduleId: string;
  enrolled: boolean;
  staff?: boolean;
  /** The signed-in person: their downloads play offline. */
  personId?: string | null;
}) {
  const { t } = useTranslation('learning');
  const player = useScormPlayer(moduleId);
  const downloaded = useDownloadedPackage(personId, moduleId);
  const [playing, setPlaying] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  // The statuses the saves answered while the package runs, ahead of the player's next fetch.
  const [live, setLive] = useState<Record<string, string>>({});
  const startButton = useRef<HTMLButtonElement>(null);
  // Set when the package closes: the effect after that render moves the focus to the start button.
  const focusStart = useRef(false);
  const onScoStatus = useCallback((scoId: string, next: string) => {
    setLive((current) => {
      // Opening a SCO says 'in progress' only when it had no status yet.
      if (next === 'incomplete' && current[scoId] && current[scoId] !== 'not attempted') return current;
      return { ...current, [scoId]: next };
    });
  }, []);
  const onClosed = useCallback(() => {
    focusStart.current = true;
    setPlaying(null);
  }, []);

  useEffect(() => {
    if (focusStart.current && !playing) {
      focusStart.current = false;
      startButton.current?.focus();
    }
  }, [playing]);

  // Without a connection, a package downloaded with its course plays from the content origin's cache.
  const offlinePkg = player.error instanceof OfflineError && downloaded && personId && keepable(downloaded.pkg) && downloaded.course.packagesKept !== false
    ? downloaded
    : null;
  if (player.isPending) return <Text size="sm">{t('scormPlayer.loading')}</Text>;
  if (player.isError && !offlinePkg) return <Text c="red.9">{t('scormPlayer.loadFailed', { reason: errorDescription(player.error, t('scormPlayer.pleaseTryAgain')) })}</Text>;
  const data: ScormPlayerData | undefined = offlinePkg
    ? {
      moduleId,
      version: offlinePkg.pkg.version,
      title: offlinePkg.pkg.title,
      contentBase: offlinePkg.pkg.contentBase,
      scos: offlinePkg.pkg.scos.map((sco) => ({ id: sco.id, title: sco.title, href: sco.href, status: sco.status, score: null })),
      moduleCompleted: offlinePkg.course.offline.modules.find((m) => m.id === moduleId)?.completed ?? false,
    }
    : player.data;
  if (!data) return null;
  // The player's statuses, with what the saves of this visit answered.
  const scos = data.scos.map((sco) => {
    const saved = live[sco.id];
    if (!saved) return sco;
    const known = sco.status && sco.status !== 'not attempted';
    // A status from a save replaces the fetched one, except that opening never hides a done one.
    return saved === 'incomplete' && known ? sco : { ...sco, status: saved };
  });
  const current = scos.find((sco) => sco.id === playing) ?? null;
  const offlinePlay = (scoId: string): OfflinePlay | null => {
    const sco = offlinePkg?.pkg.scos.find((s) => s.id === scoId);
    return offlinePkg && personId && sco ? { personId, sco } : null;
  };
  // The first SCO not yet done is the one offered (all done: the first).
  const offered = scos.find((sco) => !DONE.includes(sco.status ?? '')) ?? scos[0] ?? null;
  const multi = scos.length > 1;
  const done = (sco: ScormSco) => DONE.includes(sco.status ?? '') || (!multi && data.moduleCompleted);
  const startLabel = (sco: ScormSco) =>
    done(sco) ? t('scormPlayer.playAgain') : sco.status && sco.status !== 'not attempted' ? t('scormPlayer.resume') : t('scormPlayer.start');

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="scorm-heading" data-testid="scorm-player">
      <Stack gap="md">
        {/* The module's completion is shown in the page's header, beside its duration. */}
        <Title order={2} size="h3" id="scorm-heading">
          {data.title}
        </Title>
        {multi ? (
          <Stack component="ol" gap={6} aria-label={t('scormPlayer.parts')} style={{ margin: 0, paddingLeft: '1.25rem' }}>
            {scos.map((sco) => (
              <li key={sco.id} data-sco={sco.id} aria-current={sco.id === playing ? 'step' : undefined}>
                <Group gap="xs" justify="space-between" wrap="wrap">
                  <Text size="sm" fw={sco.id === playing ? 700 : 400}>
                    {sco.title}
                    {enrolled ? ` · ${scoStatusText(t, sco.status)}` : ''}
                    {enrolled ? scoreText(t, sco) : ''}
                  </Text>
                  {enrolled && sco.id !== playing ? (
                    <Button size="compact-sm" variant="light" onClick={() => setPlaying(sco.id)} aria-label={`${startLabel(sco)} ${sco.title}`}>
                      {startLabel(sco)}
                    </Button>
                  ) : null}
                </Group>
              </li>
            ))}
          </Stack>
        ) : offered && enrolled ? (
          <Text size="sm" data-testid="scorm-sco-status">
            {scoStatusText(t, offered.status)}
            {scoreText(t, offered)}
          </Text>
        ) : null}
        {!enrolled ? (
          <Text size="sm" c="dimmed">
            {/* Instructors and administrators see the package's outline and, below, their learners' figures. */}
            {staff ? t('scormPlayer.staffNote') : t('scormPlayer.enrolToPlay')}
          </Text>
        ) : current ? (
          <ScoFrame
            key={current.id}
            moduleId={moduleId}
            player={data}
            sco={current}
            offline={offlinePlay(current.id)}
            onStatus={setStatus}
            onScoStatus={onScoStatus}
            onClosed={onClosed}
          />
        ) : offered && !multi ? (
          <Stack gap="xs" align="flex-start">
            <Button ref={startButton} onClick={() => setPlaying(offered.id)} leftSection={<IconPlayerPlay size={18} aria-hidden="true" />}>
              {startLabel(offered)}
            </Button>
            {done(offered) ? (
              <Text size="sm" c="dimmed">
                {t('scormPlayer.completedNote')}
              </Text>
            ) : null}
          </Stack>
        ) : null}
        <Text size="sm" role="status" aria-live="polite" data-testid="scorm-status">
          {status}
        </Text>
      </Stack>
    </Paper>
  );
}
