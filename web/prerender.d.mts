import type { Plugin } from 'vite';

/** The prerendered pages: path, the pattern of the paths they answer, and the file written. */
export declare const PRERENDERED: { path: string; pattern: string; file: string }[];

/** The client's index.html with a prerendered page in it, its entry script taken out. */
export declare function fillTemplate(template: string, page: { html: string; title: string; description: string; data?: unknown }, pattern: string): string;

/** The renderer's folder beside a build's folder, its entry and the client's untouched index.html. */
export declare function renderDirOf(outDir: string): string;
export declare function renderEntry(renderDir: string): string | null;
export declare const RENDER_TEMPLATE: string;

/** After the client build: renders / and /auth with the app's components into the build. */
export declare function prerender(): Plugin;
