// Build-time compression of the web app: after `vite build` writes its files, every text file
// (HTML, JS, CSS, JSON, SVG, ...) gets a `.br` (brotli, quality 11) and a `.gz` (gzip, level 9)
// next to it, so the gateway (platform/gateway.mjs) and any static host can send the smaller
// one the browser accepts without compressing on each request. A copy is only kept when it is
// smaller than the original.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';

export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.xml', '.webmanifest', '.map', '.ico', '.wasm']);

/**
 * Writes .br and .gz beside each compressible file under `dir`.
 * @param {string} dir
 * @returns {{ files: number, bytes: number, br: number, gz: number }}
 */
export function precompressDir(dir) {
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  const walk = (folder) => {
    for (const entry of readdirSync(folder)) {
      const file = join(folder, entry);
      const info = statSync(file);
      if (info.isDirectory()) {
        walk(file);
        continue;
      }
      if (!COMPRESSIBLE.has(extname(entry).toLowerCase())) continue;
      const source = readFileSync(file);
      const br = brotliCompressSync(source, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      });
      const gz = gzipSync(source, { level: 9 });
      totals.files += 1;
      totals.bytes += source.length;
      if (br.length < source.length) {
        writeFileSync(`${file}.br`, br);
        totals.br += br.length;
      }
      if (gz.length < source.length) {
        writeFileSync(`${file}.gz`, gz);
        totals.gz += gz.length;
      }
    }
  };
  walk(dir);
  return totals;
}

/** Vite plugin: precompresses the output folder once the bundle is written. */
export function precompress() {
  /** @type {string} */
  let outDir = '';
  return {
    name: 'precompress',
    apply: /** @type {const} */ ('build'),
    configResolved(config) {
      outDir = config.build.outDir;
    },
    // After every other plugin's last writes (the prerendered pages of web/prerender.mjs).
    closeBundle: {
      order: /** @type {const} */ ('post'),
      sequential: true,
      handler() {
        if (outDir) precompressDir(outDir);
      },
    },
  };
}
