// The learner's SCORM player (issue 20; docs/ARCHITECTURE.md "SCORM player"). The package is
// untrusted: it runs in a sandboxed frame on the content origin, never the app's, inside a launcher
// page that holds the SCORM run-time API (scorm-again) and relays what the content reports by
// postMessage. Here those reports are checked (origin and frame) and saved with the learner's token,
// in order: on Commit, on Finish, every 30 seconds and when the page goes away. Loaded lazily: pages
// without a package never load it.
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceFloppy, IconPlayerPlay } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { errorDescription } from '@/lib/api-client';
import { invalidateLearning } from '@/lib/query-keys';
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

/** How often what the content reported is saved while it runs (issue 20: at most 30 seconds lost). */
export const SAVE_EVERY_MS = 30_000;
const ELEMENT = /^cmi\.[A-Za-z0-9_.]{1,250}$/;
const MAX_VALUE = 64_000;

/** 'In progress', 'Passed' ...: a SCO's status in words. */
export function scoStatusText(status: string | null): string {
  switch (status) {
    case 'passed':
      return 'Passed';
    case 'completed':
      return 'Completed';
    case 'failed':
      return 'Failed';
    case 'incomplete':
    case 'browsed':
      return 'In progress';
    default:
      return 'Not started';
  }
}

/** The values reported since the last save, saved one after another with increasing numbers. */
export class ScormSaver {
  private pending: Record<string, string> = {};
  private chain: Promise<unknown> = Promise.resolve();
  private finished = false;
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

  /** Saves what is pending (with finish, even nothing: the session ends). */
  save(finish = false): Promise<unknown> {
    if (this.finished || (!finish && !this.hasPending)) return this.chain;
    const values = this.pending;
    this.pending = {};
    const seq = ++this.seq;
    if (finish) this.finished = true;
    this.chain = this.chain.then(async () => {
      try {
        this.token = await accessToken();
        this.onSaved(await saveScormSession(this.sessionId, { seq, values, finish: finish || undefined }), finish);
      } catch (error) {
        // Kept for the next save (newer values win); its number is higher still.
        this.pending = { ...values, ...this.pending };
        if (finish) this.finished = false;
        this.onFailed(error);
      }
    });
    return this.chain;
  }

  /** The page is going away: what is pending goes in a keepalive request. */
  leave() {
    if (this.finished || !this.hasPending || !this.token) return;
    const values = this.pending;
    this.pending = {};
    saveScormSessionOnLeave(this.sessionId, { seq: ++this.seq, values }, this.token);
  }
}

/** ' · score 85' once the SCO is done (a score while in progress says nothing yet). */
function scoreText(sco: ScormSco): string {
  return sco.score !== null && ['passed', 'completed', 'failed'].includes(sco.status ?? '') ? ` · score ${sco.score}` : '';
}

function timeNow() {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' }).format(new Date());
}

function ScoFrame({ moduleId, player, sco, onStatus, onClosed }: {
  moduleId: string;
  player: ScormPlayerData;
  sco: ScormSco;
  onStatus: (text: string) => void;
  onClosed: () => void;
}) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const saverRef = useRef<ScormSaver | null>(null);
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const launcher = launcherAddress(player, window.location.origin);
  const launcherHref = launcher?.href ?? null;

  useEffect(() => {
    if (!launcherHref) return;
    const contentOrigin = new URL(launcherHref).origin;
    let cancelled = false;
    let starting = false;
    const refresh = () => void invalidateLearning(queryClient);
    const onSaved = (result: ScormSaveResult, finish: boolean) => {
      if (cancelled && !finish) return;
      onStatus(finish
        ? result.moduleCompleted ? 'Finished and saved: you have completed this module.' : 'Finished and saved.'
        : `Progress saved at ${timeNow()}.`);
      if (finish || result.moduleCompleted) refresh();
    };
    const onFailed = (error: unknown) => onStatus(`Your progress could not be saved: ${errorDescription(error, 'please check your connection')}. It will be tried again.`);

    function onMessage(event: MessageEvent) {
      // Only the launcher in this frame, on the content origin, is listened to.
      if (event.origin !== contentOrigin || !frameRef.current || event.source !== frameRef.current.contentWindow) return;
      const data: unknown = event.data;
      if (!data || typeof data !== 'object' || !('type' in data)) return;
      const message = data as { type: unknown; element?: unknown; value?: unknown; message?: unknown };
      const saver = saverRef.current;
      if (message.type === 'ready' && !saver && !starting) {
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
            onStatus(session.cmi['cmi.core.entry'] === 'resume' || session.cmi['cmi.entry'] === 'resume' ? 'Resumed where you left off.' : 'Started.');
          })
          .catch((error: unknown) => onStatus(`The package could not be started: ${errorDescription(error, 'please try again')}.`));
      } else if (message.type === 'value' && saver) {
        if (typeof message.element === 'string' && ELEMENT.test(message.element) && typeof message.value === 'string' && message.value.length <= MAX_VALUE) {
          saver.set(message.element, message.value);
        }
      } else if (message.type === 'commit' && saver) {
        void saver.save();
      } else if (message.type === 'finish' && saver) {
        void saver.save(true);
      } else if (message.type === 'error') {
        onStatus('The package could not be started.');
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
  }, [launcherHref, moduleId, player.version, player.contentBase, sco.id, sco.href, sco.title, queryClient, onStatus]);

  async function saveAndExit() {
    setSaving(true);
    await saverRef.current?.save();
    setSaving(false);
    onStatus('Saved: you can carry on from where you left off.');
    onClosed();
  }

  if (!launcherHref) return <Text c="red.9">The package's address is not valid.</Text>;
  return (
    <Stack gap="sm">
      <iframe
        ref={frameRef}
        src={launcherHref}
        title={`${sco.title} (SCORM package)`}
        // allow-same-origin only because the content origin is not the app's (see the file's comment).
        sandbox="allow-scripts allow-same-origin allow-forms"
        allow="fullscreen"
        referrerPolicy="no-referrer"
        data-testid="scorm-frame"
        style={{ display: 'block', width: '100%', height: 'min(75vh, 640px)', minHeight: 420, border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)' }}
      />
      <Group>
        <Button variant="default" onClick={() => void saveAndExit()} loading={saving} leftSection={<IconDeviceFloppy size={18} aria-hidden="true" />}>
          Save and exit
        </Button>
      </Group>
    </Stack>
  );
}

export default function ScormPlayer({ moduleId, enrolled, staff = false }: { moduleId: string; enrolled: boolean; staff?: boolean }) {
  const player = useScormPlayer(moduleId);
  const [playing, setPlaying] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const startButton = useRef<HTMLButtonElement>(null);
  const [focusStart, setFocusStart] = useState(false);

  useEffect(() => {
    if (focusStart && !playing) {
      startButton.current?.focus();
      setFocusStart(false);
    }
  }, [focusStart, playing]);

  if (player.isPending) return <Text size="sm">Loading the package…</Text>;
  if (player.isError) return <Text c="red.9">{`The package could not be loaded: ${errorDescription(player.error, 'please try again')}.`}</Text>;
  const data = player.data;
  const current = data.scos.find((sco) => sco.id === playing) ?? null;
  // The first SCO not yet done is the one offered (all done: the first).
  const offered = data.scos.find((sco) => !['passed', 'completed'].includes(sco.status ?? '')) ?? data.scos[0] ?? null;
  const multi = data.scos.length > 1;
  const startLabel = (sco: ScormSco) => (sco.status && sco.status !== 'not attempted' ? 'Resume' : 'Start');

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="scorm-heading" data-testid="scorm-player">
      <Stack gap="md">
        {/* The module's completion is shown in the page's header, beside its duration. */}
        <Title order={2} size="h3" id="scorm-heading">
          {data.title}
        </Title>
        {multi ? (
          <Stack component="ol" gap={6} aria-label="Parts of this package" style={{ margin: 0, paddingLeft: '1.25rem' }}>
            {data.scos.map((sco) => (
              <li key={sco.id} data-sco={sco.id} aria-current={sco.id === playing ? 'step' : undefined}>
                <Group gap="xs" justify="space-between" wrap="wrap">
                  <Text size="sm" fw={sco.id === playing ? 700 : 400}>
                    {sco.title}
                    {` · ${scoStatusText(sco.status)}`}
                    {scoreText(sco)}
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
        ) : offered ? (
          <Text size="sm">
            {scoStatusText(offered.status)}
            {scoreText(offered)}
          </Text>
        ) : null}
        {!enrolled ? (
          <Text size="sm" c="dimmed">
            {/* Instructors and administrators see the package's outline and, below, their learners' figures. */}
            {staff
              ? 'Learners play this package here once they are enrolled; enrol in the course to try it as a learner.'
              : 'Enrol in this course to play this package.'}
          </Text>
        ) : current ? (
          <ScoFrame
            key={current.id}
            moduleId={moduleId}
            player={data}
            sco={current}
            onStatus={setStatus}
            onClosed={() => {
              setPlaying(null);
              setFocusStart(true);
            }}
          />
        ) : offered && !multi ? (
          <Group>
            <Button ref={startButton} onClick={() => setPlaying(offered.id)} leftSection={<IconPlayerPlay size={18} aria-hidden="true" />}>
              {startLabel(offered)}
            </Button>
          </Group>
        ) : null}
        <Text size="sm" role="status" aria-live="polite" data-testid="scorm-status">
          {status}
        </Text>
      </Stack>
    </Paper>
  );
}
