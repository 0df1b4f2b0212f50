// A file of @mantine/core's esm build, which web/vite.config.ts resolves (deferred.tsx).
declare module 'mantine-part:*';
