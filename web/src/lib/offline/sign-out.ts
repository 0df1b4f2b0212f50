// Signing out leaves nothing of the person on the device (a shared station computer): every
// person's cache of API answers and downloaded files, the SCORM packages kept on the content
// origin, and their offline queue and downloads.
import { deleteDeviceStore, type DownloadedCourse, deviceStore, deviceStoreOwners } from './device-store';
import { PERSON_CACHE_PREFIX } from './kept-answers';
import { clearPackages } from './scorm-content';

/** A package root on the content origin, from any person's downloads on this device. */
async function keptContentBase(owners: string[]): Promise<string | null> {
  for (const personId of owners) {
    const courses = await deviceStore.all<DownloadedCourse>(personId, 'courses').catch(() => []);
    const pkg = courses.flatMap((course) => course.offline.scorm).find((p) => p.manifest !== null);
    if (pkg) return pkg.contentBase;
  }
  return null;
}

export async function clearPersonData(): Promise<void> {
  const names = typeof caches === 'undefined' ? [] : await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(PERSON_CACHE_PREFIX)).map((name) => caches.delete(name)));
  if (typeof indexedDB === 'undefined') return;
  const owners = await deviceStoreOwners();
  const contentBase = await keptContentBase(owners);
  if (contentBase) await clearPackages(contentBase).catch(() => {});
  await Promise.all(owners.map((personId) => deleteDeviceStore(personId)));
}
