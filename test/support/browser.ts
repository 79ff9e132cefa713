import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or undefined. Under CI a missing browser fails the run. */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const message = `Chromium not found at ${CHROMIUM} (apt-get install chromium)`;
  if (process.env.CI === 'true') throw new Error(message);
  console.log(`# skipping browser tests: ${message}`);
  return message;
}

/** Debian's Chromium, headless, with the flags this closed network needs (Playwright gives it a fresh profile). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
