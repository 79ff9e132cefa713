import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The folders of src/ are layers, and an import may only point down (or
// within its own folder): what a layer may use is then read off this list,
// and no folder cycle can come back unnoticed. Root files (app.ts, main.ts,
// migrate.ts) wire everything and sit on top.
const layers: string[][] = [
  ['kernel', 'domain'],
  ['observability', 'social'],
  ['config'],
  ['i18n'],
  ['templates'],
  ['security'],
  ['store'],
  ['messaging'],
  ['audit'],
  ['tokens'],
  ['idp'],
  ['flows'],
  ['http'],
  ['cli'],
  ['(root)'],
];

const src = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function folderOf(path: string): string {
  const parts = relative(src, path).split('/');
  return parts.length === 1 ? '(root)' : parts[0]!;
}

function levelOf(folder: string): number {
  const level = layers.findIndex((layer) => layer.includes(folder));
  assert.notEqual(level, -1, `src/${folder} is in no layer: add it to the list in this test`);
  return level;
}

/** Every relative import or re-export of the file, static or dynamic, type-only included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]!);
  return specifiers.map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
}

test('every import in src/ points to its own layer or one below', () => {
  const upward: string[] = [];
  let crossing = 0;
  for (const file of sourceFiles(src)) {
    const from = folderOf(file);
    for (const target of importsOf(file)) {
      const to = folderOf(target);
      if (to === from) continue;
      crossing++;
      if (levelOf(to) >= levelOf(from)) upward.push(`${relative(src, file)} -> ${relative(src, target)}`);
    }
  }
  // The scan found the imports it judges (a broken pattern would pass vacuously).
  assert.ok(crossing > 300, `only ${crossing} imports across folders were found`);
  assert.deepEqual(upward, []);
});
