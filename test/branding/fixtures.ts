import { after } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A 2×2 opaque PNG, small enough for any limit, real enough for a browser to draw. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGNgYPj/n4GBgYEBAB3+A/2WBuG4AAAAAElFTkSuQmCC', 'base64');
export const SVG = '<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><rect width="10" height="10" fill="#c0ffee"/></svg>\n';
export const CSS = ':root { --brand-primary: #123456; }\nbody { letter-spacing: 0.01em; }\n';

/** A folder of brand files for one test file (removed after it): name → content. */
export function brandFolder(files: Record<string, string | Buffer>): (name: string) => string {
  const dir = mkdtempSync(join(tmpdir(), 'brand-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  after(() => rmSync(dir, { recursive: true, force: true }));
  return (name) => join(dir, name);
}
