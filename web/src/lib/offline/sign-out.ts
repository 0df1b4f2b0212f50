// Signing out leaves nothing of the person on the device (a shared station computer): every
// person's cache of API answers and downloaded files, and their offline queue and downloads.
import { deleteDeviceStore, deviceStoreOwners } from './device-store';
import { PERSON_CACHE_PREFIX } from './kept-answers';

export async function clearPersonData(): Promise<void> {
  const names = typeof caches === 'undefined' ? [] : await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(PERSON_CACHE_PREFIX)).map((name) => caches.delete(name)));
  if (typeof indexedDB === 'undefined') return;
  await Promise.all((await deviceStoreOwners()).map((personId) => deleteDeviceStore(personId)));
}
