import { isObject } from './api.js';

// Where a catalogue provider keeps a value in its answer: a dotted path
// (`data.user.id`, `users.0`, `kakao_account.email`), read without trusting
// the answer's shape.

export function pick(data: unknown, path: string): unknown {
  let value: unknown = data;
  for (const key of path.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(key)) value = value[Number(key)];
    else if (isObject(value)) value = value[key];
    else return undefined;
  }
  return value;
}

/** A path's value when it is an object, else an empty one. */
export function pickObject(data: unknown, path: string): Record<string, unknown> {
  const value = pick(data, path);
  return isObject(value) ? value : {};
}
