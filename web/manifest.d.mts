import type { ManifestOptions } from 'vite-plugin-pwa';
export declare const webManifest: Partial<ManifestOptions>;
