// What the service worker tells the page, as window events (web/src/lib/offline/register.ts).

/** Background Sync asks the page to replay the offline queue (the session is the page's). */
export const REPLAY_EVENT = 'esl-replay-queue';

/** The service worker has started to control the page for the first time: the answers on screen
 * are asked again through it, so that what a person keeps (who they are, their courses) is kept. */
export const CONTROLLING_EVENT = 'esl-sw-controlling';
