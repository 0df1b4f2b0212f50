import type { Plugin } from 'vite';

/** Serves /theme-init.js; in a build, it also preloads the code of the page the visitor landed on. */
export declare function firstPagePreload(firstPages: Record<string, string>): Plugin;
