import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/config.js';
import { createTranslator } from '../src/i18n/catalog.js';
import { renderMail } from '../src/messaging/mail-content.js';
import { loadTemplates } from '../src/templates/load.js';
import { MAILS } from '../src/templates/registry.js';
import { median } from './harness.js';

// The templates block (BENCH_ONLY=templates): rendering one mail (subject, text and
// HTML parts) from its compiled templates, in-process, for every mail in English and
// German. Target: under 1 ms per mail. Also reports what compiling and checking every
// template costs the start.

export interface TemplateFigures {
  startMs: number;
  /** Per mail and language: the median of the rounds' mean time per render, in ms. */
  mails: Array<{ name: string; language: string; ms: number }>;
}

const ROUNDS = 9;
const RENDERS = 500;

export function measureTemplateRender(): TemplateFigures {
  const config = loadConfig({});
  const i18n = createTranslator({ languages: config.languages.languages, defaultLanguage: config.languages.languageCode });
  const started = performance.now();
  const { templates } = loadTemplates(config, i18n);
  const startMs = performance.now() - started;
  const mails: TemplateFigures['mails'] = [];
  for (const info of MAILS) {
    for (const language of ['en', 'de']) {
      const context = info.samples[0]!;
      // Warm: V8 optimises the compiled template's function after some calls.
      for (let i = 0; i < RENDERS; i++) renderMail(templates, config, info.name, language, context);
      const rounds: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const t0 = performance.now();
        for (let i = 0; i < RENDERS; i++) renderMail(templates, config, info.name, language, context);
        rounds.push((performance.now() - t0) / RENDERS);
      }
      mails.push({ name: info.name, language, ms: median(rounds) });
    }
  }
  return { startMs, mails };
}

export function printTemplateRender(figures: TemplateFigures): void {
  console.log(`\nTemplates: one mail (subject, text and HTML) rendered from compiled templates, in-process; median of ${ROUNDS} rounds of ${RENDERS}\n`);
  console.log('mail'.padEnd(48) + 'lang'.padStart(6) + 'ms/mail'.padStart(10));
  for (const { name, language, ms } of figures.mails) console.log(name.padEnd(48) + language.padStart(6) + ms.toFixed(3).padStart(10));
  const worst = Math.max(...figures.mails.map((m) => m.ms));
  console.log(`\ncompiling and checking every template at start: ${figures.startMs.toFixed(0)} ms`);
  console.log(`${'slowest mail (ms)'.padEnd(40)}${worst.toFixed(3).padStart(8)}  target < 1     ${worst < 1 ? 'met' : 'MISSED'}`);
}
