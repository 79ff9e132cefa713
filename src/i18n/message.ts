/** A value a message puts in its text: a name, a number a plural counts, a list joined beforehand. */
export type MessageValue = string | number;

/**
 * A message chosen below the http layer, which knows no language: the key of a message in
 * `locales/<language>/api.json` and the values of its placeholders. The http layer writes
 * it in the request's language; a flow never builds the text itself.
 */
export interface MessageRef {
  key: string;
  values?: Record<string, MessageValue>;
}

export function msg(key: string, values?: Record<string, MessageValue>): MessageRef {
  return values === undefined ? { key } : { key, values };
}
