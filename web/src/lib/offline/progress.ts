// What this device knows of a course's modules before the server does. A module marked read offline
// waits in the queue; until it is replayed the outline shows it read, and completed where reading is
// all it needs (a page of content without a quiz, or whose quiz is passed). The server decides again
// when the item is replayed, and its answer then replaces this.
import type { CourseModule } from '@shared/catalogue.ts';
import type { QueuedItem } from './device-store';

export function withQueuedReads<T extends CourseModule>(modules: T[], queued: readonly QueuedItem[] | undefined): T[] {
  const readOffline = new Set((queued ?? []).flatMap((q) => (q.item.kind === 'module-read' ? [q.item.moduleId] : [])));
  if (readOffline.size === 0) return modules;
  return modules.map((module) =>
    readOffline.has(module.id) && !module.read
      ? { ...module, read: true, completed: module.completed || (module.kind === 'content' && (!module.hasQuiz || module.quizPassed)) }
      : module,
  );
}
