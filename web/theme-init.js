// Applies the saved colour scheme (light, dark or system) before React starts: the same storage key
// and attribute as Mantine's localStorageColorSchemeManager, plus a class on <html>, so the page is
// drawn in its scheme from the first frame (no flash of the light theme).
(function () {
  var root = document.documentElement;
  function languageOf(tag) {
    var lower = String(tag || '').toLowerCase();
    if (lower === 'cy' || lower.indexOf('cy-') === 0) return 'cy';
    if (lower === 'en' || lower.indexOf('en-') === 0) return 'en-GB';
    return null;
  }
  function readerLanguage() {
    var linked = /[?&]lng=([^&#]*)/.exec(window.location.search);
    var language = linked && languageOf(decodeURIComponent(linked[1]));
    if (language) return language;
    var kept = /(?:^|;\s*)lang=([^;]*)/.exec(document.cookie);
    if (kept && (kept[1] === 'cy' || kept[1] === 'en-GB')) return kept[1];
    var preferred = navigator.languages || [navigator.language];
    for (var i = 0; i < preferred.length; i++) {
      language = languageOf(preferred[i]);
      if (language) return language;
    }
    return 'en-GB';
  }
  try {
    var stored = window.localStorage.getItem('mantine-color-scheme-value');
    var scheme = stored === 'light' || stored === 'dark' ? stored : 'auto';
    var computed =
      scheme === 'auto'
        ? window.matchMedia('(prefers-color-scheme: dark)').matches
          ? 'dark'
          : 'light'
        : scheme;
    root.setAttribute('data-mantine-color-scheme', computed);
    root.classList.remove('light', 'dark');
    root.classList.add(computed);
  } catch {
    /* storage unavailable: Mantine falls back to the system scheme */
  }
  // The page's HTML is a prerendered one (web/prerender.mjs). Answering for another path (the
  // single-page-app fallback), its content is hidden until the app renders the page asked for; with
  // a session stored, its visitor's Login button is (AppLayout.module.css). The app clears both.
  try {
    var page = root.getAttribute('data-prerendered');
    if (page && !new RegExp(page).test(window.location.pathname)) root.setAttribute('data-other-page', '');
    // A page built in one language for a reader of the other (web/src/lib/i18n/language.ts decides the
    // same way: a link's ?lng=, the lang cookie, the browser's languages): unseen until the app has
    // rendered it in theirs.
    if (page && root.lang !== readerLanguage()) root.setAttribute('data-other-page', '');
    for (var i = 0; i < window.localStorage.length; i++) {
      if (/^sb-.+-auth-token$/.test(window.localStorage.key(i) || '')) root.setAttribute('data-session', '');
    }
  } catch {
    /* storage unavailable: no session to expect */
  }
})();
