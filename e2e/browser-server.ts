// Vitest globalSetup of the e2e project: one Chromium for the whole run, started as a Playwright
// browser server. Each test file connects to it (launchBrowser in ./browser.ts) and makes a new
// context for each person it plays, so no file sees another's cookies or storage; starting Chromium
// once instead of once per file saves seconds a file on a 2-core machine.
import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { chromium, type LaunchOptions } from 'playwright-core';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint: string;
  }
}

/** Debian's headless shell (package chromium-headless-shell: Chromium's engine without the browser's
 * own interface, what Playwright itself runs headless; a tenth less CPU a test than the full
 * browser), or /usr/bin/chromium where only that is installed. */
export const chromiumPath = process.env.CHROMIUM_PATH ??
  (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/** Chromium headless, without the sandbox (tests run as root in CI), without
 * the background traffic that would reach the network, and without the omnibox popups (two WebUI
 * pages in a renderer process of their own) that it preloads for every new context's window: no
 * test types into an address bar, and they cost about a fifth of the CPU a context takes. Chromium
 * adds these features to the ones Playwright disables. */
export function chromiumOptions(): LaunchOptions {
  return {
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ],
  };
}

export default async function setup(project: TestProject) {
  const server = await chromium.launchServer(chromiumOptions());
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
