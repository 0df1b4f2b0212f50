// "Available offline": a course's API answers (the course, its outline, each module) and its images
// kept in the person's own cache, which the service worker answers from when the network is gone
// (web/sw/sw.ts); its SCORM packages kept on the content origin (./scorm-content.ts); and the
// server's offline answer (the quizzes' questions without their answers) in the person's IndexedDB.
// Removing a course deletes all three.
import type { OfflineCourse, OfflineQuiz } from '@shared/offline.ts';
import { api, apiBaseUrl, OfflineError } from '@/lib/api-client';
import { accessToken, supabaseAnonKey } from '@/lib/supabase';
import { deviceStore, type DownloadedCourse } from './device-store';
import { personCacheName } from './kept-answers';
import { ContentKeepError, keepable, keepPackages, packageFiles, removePackages } from './scorm-content';

/** Not enough room on the device for the course: what it needs and what is free (bytes). */
export class StorageFullError extends Error {
  readonly needed: number;
  readonly free: number | null;
  constructor(needed: number, free: number | null) {
    super('storage full');
    this.name = 'StorageFullError';
    this.needed = needed;
    this.free = free;
  }
}

export interface DownloadProgress {
  doneBytes: number;
  totalBytes: number;
}

/** The course's offline answer (what it holds and its size, shown before anything is kept). */
export const getOfflineCourse = (courseId: string) => api.get<OfflineCourse>(`/offline/courses/${courseId}`);

/** The files kept in the person's cache: those the app's own origin serves (images in Storage). A
 * SCORM package's files live on the content origin, whose own service worker answers them. */
export function keptFiles(offline: OfflineCourse) {
  const origins = new Set([window.location.origin, new URL(apiBaseUrl).origin]);
  return offline.files.filter((file) => origins.has(new URL(file.url, window.location.href).origin));
}

const sum = (files: { bytes: number }[]) => files.reduce((total, file) => total + file.bytes, 0);

/** The bytes of the packages kept on the content origin: those whose files the server signed. */
const packageBytes = (offline: OfflineCourse) => offline.scorm.filter(keepable).reduce((total, pkg) => total + sum(packageFiles(offline, pkg)), 0);

/** Whether every SCORM package of a downloaded course plays offline (else they need a connection). */
export const packagesOffline = (course: DownloadedCourse) => course.packagesKept !== false && course.offline.scorm.every(keepable);

/** The bytes a download keeps (the size shown before it starts). */
export const downloadBytes = (offline: OfflineCourse) => sum(keptFiles(offline)) + packageBytes(offline);

/** The addresses of the API answers the course's screens read. */
function answerUrls(offline: OfflineCourse): string[] {
  const id = offline.course.id;
  return [`/courses/${id}`, `/courses/${id}/modules`, ...offline.modules.map((module) => `/modules/${module.id}`)].map((path) => `${apiBaseUrl}${path}`);
}

async function keep(cache: Cache, url: string, init?: RequestInit): Promise<number> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new OfflineError();
  }
  if (!response.ok) throw new Error(`${response.status}: ${url}`);
  const body = await response.blob();
  try {
    await cache.put(url, new Response(body, { status: response.status, headers: response.headers }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'QuotaExceededError') throw new StorageFullError(body.size, null);
    throw error;
  }
  return body.size;
}

/** Room left for this site, from the browser's quota; null where the browser does not say. */
async function freeBytes(): Promise<number | null> {
  const estimate = await navigator.storage?.estimate?.().catch(() => null);
  return estimate?.quota != null && estimate.usage != null ? Math.max(0, estimate.quota - estimate.usage) : null;
}

/**
 * Downloads a course for the person: first its offline answer and the room it needs (refused with
 * StorageFullError when the device has less), then every answer and file, reporting the bytes.
 */
export async function downloadCourse(
  personId: string,
  offline: OfflineCourse,
  onProgress: (progress: DownloadProgress) => void,
): Promise<DownloadedCourse> {
  const totalBytes = downloadBytes(offline);
  const free = await freeBytes();
  if (free !== null && totalBytes > free) throw new StorageFullError(totalBytes, free);
  const cache = await caches.open(personCacheName(personId));
  const headers = { Accept: 'application/json', apikey: supabaseAnonKey, Authorization: `Bearer ${await accessToken()}` };
  const answers = answerUrls(offline);
  const urls: string[] = [];
  let doneBytes = 0;
  let answerBytes = 0;
  let packagesKept = true;
  let packagesStarted = false;
  onProgress({ doneBytes, totalBytes });
  try {
    for (const url of answers) {
      answerBytes += await keep(cache, url, { headers });
      urls.push(url);
    }
    for (const file of keptFiles(offline)) {
      await keep(cache, file.url);
      urls.push(file.url);
      doneBytes += file.bytes;
      onProgress({ doneBytes, totalBytes });
    }
    const before = doneBytes;
    packagesStarted = true;
    try {
      await keepPackages(offline, (packageDone) => onProgress({ doneBytes: before + packageDone, totalBytes }));
    } catch (error) {
      // A browser that refuses the content origin a service worker (third-party storage blocked)
      // keeps the rest of the course; its packages need a connection.
      if (!(error instanceof ContentKeepError && error.reason === 'unsupported')) throw error;
      packagesKept = false;
    }
  } catch (error) {
    // Nothing half kept: what this download put in either origin's cache goes again.
    await Promise.all(urls.map((url) => cache.delete(url)));
    // (The content origin's page is opened only when some of it went there: offline it may not load.)
    if (packagesStarted) await removePackages(offline).catch(() => {});
    if (error instanceof ContentKeepError && error.reason === 'quota') throw new StorageFullError(totalBytes, null);
    if (error instanceof ContentKeepError && error.reason === 'network') throw new OfflineError();
    throw error;
  }
  // What the device keeps: the files and the answers (the size the badge shows).
  const kept = packagesKept ? totalBytes : totalBytes - packageBytes(offline);
  const course: DownloadedCourse = { courseId: offline.course.id, downloadedAt: new Date().toISOString(), bytes: kept + answerBytes, offline, urls, packagesKept };
  await deviceStore.put(personId, 'courses', course);
  return course;
}

export async function removeDownload(personId: string, courseId: string): Promise<void> {
  const course = await deviceStore.get<DownloadedCourse>(personId, 'courses', courseId);
  if (course) {
    const cache = await caches.open(personCacheName(personId));
    await Promise.all(course.urls.map((url) => cache.delete(url)));
    // The packages' files on the content origin (a failure there still removes the course; the
    // next sign-out empties that origin's offline caches).
    await removePackages(course.offline).catch(() => {});
  }
  await deviceStore.delete(personId, 'courses', courseId);
}

export function downloadedCourses(personId: string): Promise<DownloadedCourse[]> {
  return deviceStore.all<DownloadedCourse>(personId, 'courses');
}

/** A downloaded module's quiz, as the server said it may be answered offline (or why not). */
export async function offlineQuizOf(personId: string, moduleId: string): Promise<{ quiz: OfflineQuiz; courseId: string } | null> {
  for (const course of await downloadedCourses(personId)) {
    const module = course.offline.modules.find((m) => m.id === moduleId);
    if (module?.quiz) return { quiz: module.quiz, courseId: course.courseId };
  }
  return null;
}
