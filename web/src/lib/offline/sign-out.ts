// Signing out leaves nothing of the person on the device (a shared station computer): every
// person's cache of API answers and downloaded files, the SCORM packages kept on the content
// origin, and their offline queue and downloads.
import { deleteDeviceStore, deviceStoreOwners } from './device-store';
import { PERSON_CACHE_PREFIX } from './kept-answers';
import { clearPackages, keptContentBase } from './scorm-content';

export async function clearPersonData(): Promise<void> {
  const names = typeof caches === 'undefined' ? [] : await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(PERSON_CACHE_PREFIX)).map((name) => caches.delete(name)));
  const contentBase = keptContentBase();
  if (contentBase) await clearPackages(contentBase).catch(() => {});
  if (typeof indexedDB === 'undefined') return;
  await Promise.all((await deviceStoreOwners()).map((personId) => deleteDeviceStore(personId)));
}
