import type { Plugin } from 'vite';
export declare const COMPRESSIBLE: Set<string>;
export declare function precompressDir(dir: string): { files: number; bytes: number; br: number; gz: number };
export declare function precompress(): Plugin;
