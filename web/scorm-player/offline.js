// The content origin's offline page (docs/ARCHITECTURE.md "SCORM player"): hidden, framed by the
// app to keep a package's files on this origin for use offline. It registers the offline SW over
// the bucket, then keeps, removes and clears what the app asks, talking only to its parent at the
// origin named in ?app= (as the launcher does). What it keeps is served offline only when the SW
// proves it genuine (docs/decisions/scorm-offline-integrity.md); it checks each file's hash against
// the manifest here too, so that a mismatch is refused when kept rather than found offline.
(function () {
  'use strict';
  var SCOPE = '/storage/v1/object/public/scorm-content/';
  var FILES_CACHE = 'scorm-offline';
  var MANIFESTS_CACHE = 'scorm-offline-manifests';
  // What the launcher needs offline, and this page (so that a package can be removed offline); the
  // SW serves them only with the hashes baked into it.
  var PLAYER_FILES = ['launcher.html', 'launcher.js', 'scorm12.min.js', 'scorm2004.min.js', 'offline.html', 'offline.js'];
  var status = document.getElementById('status');
  var appOrigin = null;
  try {
    appOrigin = new URL(new URLSearchParams(window.location.search).get('app') || '').origin;
  } catch (_error) {
    appOrigin = null;
  }
  if (!appOrigin || appOrigin === 'null' || window.parent === window) {
    status.textContent = 'This page runs inside the learning platform.';
    return;
  }

  function post(message) {
    window.parent.postMessage(message, appOrigin);
  }

  /** A refusal with the reason the app is told. */
  function Refusal(reason) {
    this.reason = reason;
  }

  function own(object, name) {
    return object && Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined;
  }

  function decodedPath(url) {
    try {
      return decodeURIComponent(new URL(url).pathname);
    } catch (_error) {
      return null;
    }
  }

  /** The cache key of a package's manifest: its base, encoded so that it decodes back exactly. */
  function manifestKey(base) {
    return window.location.origin + base.split('/').map(encodeURIComponent).join('/');
  }

  async function sha256Hex(bytes) {
    var digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return Array.from(digest, function (byte) {
      return (byte < 16 ? '0' : '') + byte.toString(16);
    }).join('');
  }

  async function download(url) {
    var response;
    try {
      response = await fetch(url, { cache: 'no-cache', credentials: 'omit' });
      if (!response.ok) throw new Error(String(response.status));
      return await response.arrayBuffer();
    } catch (_error) {
      throw new Refusal('network');
    }
  }

  async function put(cache, url, bytes) {
    try {
      await cache.put(url, new Response(bytes));
    } catch (error) {
      throw new Refusal(error && error.name === 'QuotaExceededError' ? 'quota' : 'unsupported');
    }
  }

  /** Deletes a package's manifest first (so that nothing of it is served), then its files. */
  async function removePackage(base) {
    var manifests = await caches.open(MANIFESTS_CACHE);
    await manifests.delete(manifestKey(base));
    var files = await caches.open(FILES_CACHE);
    var keys = await files.keys();
    for (var i = 0; i < keys.length; i++) {
      var path = decodedPath(keys[i].url);
      if (path !== null && path.startsWith(base)) await files.delete(keys[i]);
    }
  }

  /** The payload's base and files, or a refusal: only a manifest of a package in the bucket is kept. */
  function readManifest(manifest) {
    if (!manifest || typeof manifest.payload !== 'string' || typeof manifest.signature !== 'string') throw new Refusal('integrity');
    var parsed;
    try {
      parsed = JSON.parse(manifest.payload);
    } catch (_error) {
      throw new Refusal('integrity');
    }
    var base = own(parsed, 'base');
    var files = own(parsed, 'files');
    if (own(parsed, 'v') !== 1 || typeof base !== 'string' || !files || typeof files !== 'object') throw new Refusal('integrity');
    if (!base.startsWith(SCOPE) || !base.endsWith('/') || base === SCOPE || base.startsWith(SCOPE + '_player/')) throw new Refusal('integrity');
    return { base: base, files: files };
  }

  async function keep(id, manifest, list) {
    var parsed = readManifest(manifest);
    if (!Array.isArray(list)) throw new Refusal('integrity');
    var totalBytes = list.reduce(function (sum, file) {
      return sum + (Number(file && file.bytes) > 0 ? Number(file.bytes) : 0);
    }, 0);
    var doneBytes = 0;
    var files = await caches.open(FILES_CACHE);
    try {
      for (var i = 0; i < list.length; i++) {
        var url;
        try {
          url = new URL(String(list[i] && list[i].url), window.location.href);
        } catch (_error) {
          throw new Refusal('integrity');
        }
        var path = decodedPath(url.href);
        var expected = path !== null && path.startsWith(parsed.base) ? own(parsed.files, path.slice(parsed.base.length)) : undefined;
        if (url.origin !== window.location.origin || typeof expected !== 'string') throw new Refusal('integrity');
        // Kept by origin and path, as the SW looks it up.
        var key = url.origin + url.pathname;
        var bytes = await download(key);
        if ((await sha256Hex(bytes)) !== expected.toLowerCase()) throw new Refusal('integrity');
        await put(files, key, bytes);
        doneBytes += bytes.byteLength;
        post({ type: 'progress', id: id, doneBytes: doneBytes, totalBytes: Math.max(totalBytes, doneBytes) });
      }
      for (var j = 0; j < PLAYER_FILES.length; j++) {
        var player = new URL(PLAYER_FILES[j], window.location.href);
        await put(files, player.origin + player.pathname, await download(player.href));
      }
      // The manifest last: until it is there, nothing of the package is served offline.
      var manifests = await caches.open(MANIFESTS_CACHE);
      await put(manifests, manifestKey(parsed.base), JSON.stringify({ payload: manifest.payload, signature: manifest.signature }));
    } catch (error) {
      await removePackage(parsed.base).catch(function () {});
      throw error;
    }
  }

  async function handle(data) {
    var id = data.id;
    try {
      if (!supported) throw new Refusal('unsupported');
      if (data.type === 'keep') {
        await keep(id, data.manifest, data.files);
        post({ type: 'kept', id: id });
      } else if (data.type === 'remove') {
        if (typeof data.base === 'string' && data.base.startsWith(SCOPE) && data.base.endsWith('/')) await removePackage(data.base);
        post({ type: 'removed', id: id });
      } else if (data.type === 'clear') {
        await caches.delete(MANIFESTS_CACHE);
        await caches.delete(FILES_CACHE);
        post({ type: 'cleared', id: id });
      }
    } catch (error) {
      if (!(error instanceof Refusal)) console.error('[offline]', error);
      post({ type: 'failed', id: id, reason: error instanceof Refusal ? error.reason : 'unsupported' });
    }
  }

  var supported = false;
  // One operation at a time, after the SW is active: a keep never interleaves with a clear.
  var queue = (async function () {
    if (!('serviceWorker' in navigator) || typeof caches === 'undefined' || !crypto || !crypto.subtle) return;
    await navigator.serviceWorker.register('offline-sw.js', { scope: SCOPE, updateViaCache: 'none' });
    await navigator.serviceWorker.ready;
    supported = true;
  })().then(function () {
    post(supported ? { type: 'ready' } : { type: 'unsupported' });
  }, function (error) {
    console.error('[offline] the service worker was not registered', error);
    post({ type: 'unsupported' });
  });

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || event.origin !== appOrigin) return;
    var data = event.data;
    if (!data || typeof data !== 'object' || !['keep', 'remove', 'clear'].includes(data.type)) return;
    queue = queue.then(function () {
      return handle(data);
    });
  });
})();
