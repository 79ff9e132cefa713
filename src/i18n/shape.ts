import { IntlMessageFormat } from 'intl-messageformat';

// The parser's element kinds (TYPE in @formatjs/icu-messageformat-parser).
const ARGUMENT = 1;
const NUMBER = 2;
const DATE = 3;
const TIME = 4;
const SELECT = 5;
const PLURAL = 6;
const TAG = 8;
const KIND: Record<number, string> = { [ARGUMENT]: 'argument', [NUMBER]: 'number', [DATE]: 'date', [TIME]: 'time', [SELECT]: 'select', [PLURAL]: 'plural', [TAG]: 'tag' };

interface Element {
  type: number;
  value?: unknown;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

/**
 * What a message asks of the code that formats it: each argument's name and kind, and
 * for a select the cases it distinguishes. Two translations of one message must have the
 * same shape, or one of them would fail (a missing value) or say less (a lost case).
 * Plural cases are left out: each language has its own (German one/other, French
 * one/many/other).
 */
export function shapeOf(text: string, language = 'en'): string {
  const found = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      const kind = KIND[element.type];
      if (kind === undefined) continue;
      const name = String(element.value);
      if (element.type === SELECT) found.add(`${name}:select(${Object.keys(element.options ?? {}).sort().join('|')})`);
      else found.add(`${name}:${kind}`);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(text, language, undefined, { ignoreTag: true }).getAst() as unknown as Element[]);
  return [...found].sort().join(', ');
}
