// Applies the saved colour scheme (light, dark or system) before React starts: the same storage key
// and attribute as Mantine's localStorageColorSchemeManager, plus a class on <html>, so the page is
// drawn in its scheme from the first frame (no flash of the light theme).
(function () {
  try {
    var stored = window.localStorage.getItem('mantine-color-scheme-value');
    var scheme = stored === 'light' || stored === 'dark' ? stored : 'auto';
    var computed =
      scheme === 'auto'
        ? window.matchMedia('(prefers-color-scheme: dark)').matches
          ? 'dark'
          : 'light'
        : scheme;
    var root = document.documentElement;
    root.setAttribute('data-mantine-color-scheme', computed);
    root.classList.remove('light', 'dark');
    root.classList.add(computed);
  } catch {
    /* storage unavailable: Mantine falls back to the system scheme */
  }
})();
