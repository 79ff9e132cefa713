// A provider's JSON may hold integers past 2^53 (X's user ids): as numbers
// they would be rounded, and stored rounded in extra_data. Such integers are
// kept as the provider wrote them instead (JSON.rawJSON, from the
// JSON.parse source text access of ES2025), which JSON.stringify writes back
// digit for digit.

type Reviver = (key: string, value: unknown, context?: { source?: string }) => unknown;
const { rawJSON } = JSON as unknown as { rawJSON(text: string): unknown };

const keepBigIntegers: Reviver = (_key, value, context) =>
  typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source) ? rawJSON(context.source) : value;

/** JSON.parse, big integers kept exact; throws as JSON.parse does. */
export function parseExactJson(text: string): unknown {
  return JSON.parse(text, keepBigIntegers as (this: unknown, key: string, value: unknown) => unknown);
}
