/** The window event by which the service worker's Background Sync asks the page to replay the queue. */
export const REPLAY_EVENT = 'esl-replay-queue';
