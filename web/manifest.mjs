// The web app manifest: what a browser needs to install the app (name, icons at the sizes it asks
// for, colours, start URL). The icons are the favicon's cross (web/public/favicon.svg) as PNG.
export const webManifest = {
  id: '/',
  name: 'Emergency Services Learning',
  short_name: 'ES Learning',
  description: "Training courses for the United Kingdom's emergency services.",
  lang: 'en-GB',
  start_url: '/dashboard',
  scope: '/',
  display: 'standalone',
  theme_color: '#1971c2',
  background_color: '#ffffff',
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};
