import type { ProviderContext } from '../provider-type.js';
import { ProviderError } from '../provider-type.js';
import { isObject } from './api.js';

// Calls to a catalogue provider's API with the user's access token, placed
// where that provider wants it: a Bearer header (most), the query string
// (`?access_token=`, Foursquare's `oauth_token`), another header scheme
// (`token`, `OAuth`) or a header of its own (DingTalk, Shopify). URLs are the
// provider's fixed ones, rewritten by SOCIALACCOUNT_PROVIDER_ORIGINS.

export type TokenPlacement = 'bearer' | 'none' | { query: string } | { scheme: string } | { header: string };

export interface ApiCall {
  method?: 'GET' | 'POST' | 'PUT';
  query?: Record<string, string | readonly string[]>;
  headers?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  /** Where the access token goes; Bearer by default. */
  token?: TokenPlacement;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/**
 * Integers beyond 2^53 (Strava's and X's ids) would lose digits as numbers:
 * they are kept as their exact digits, a string (the source text of the number).
 */
function exactIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
  return typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source) ? context.source : value;
}

/** Parses a provider's answer: JSON, whatever its content type says (Weibo sends text/plain). */
function parse(text: string, what: string, status: number): unknown {
  try {
    return JSON.parse(text, exactIntegers as (key: string, value: unknown) => unknown);
  } catch {
    throw new ProviderError(`${what}: answered ${status} without JSON`);
  }
}

/** One HTTP call to a provider, with the configured timeout; a network failure is a ProviderError. */
export async function providerFetch(context: ProviderContext, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; text: string; type: string }> {
  const target = context.endpoint(url);
  let response: Response;
  try {
    response = await fetch(target, { ...init, redirect: 'manual', signal: AbortSignal.timeout(context.timeoutSeconds * 1000) });
  } catch (error) {
    throw new ProviderError(`${init.method} ${url} failed: ${(error as Error).message}`, { cause: error });
  }
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') ?? '' };
}

export interface Api {
  /** The JSON answer of a call; anything but a 2xx with JSON is a ProviderError. */
  json(url: string, call?: ApiCall): Promise<unknown>;
  /** Like json, but only a JSON object will do. */
  object(url: string, call?: ApiCall): Promise<Record<string, unknown>>;
  /** The status and JSON body, whatever the status (for calls whose failure is tolerated). */
  answer(url: string, call?: ApiCall): Promise<ApiAnswer>;
}

export function providerApi(context: ProviderContext, accessToken: string): Api {
  async function answer(url: string, call: ApiCall = {}): Promise<ApiAnswer> {
    const target = new URL(url);
    const placement = call.token ?? 'bearer';
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    for (const [name, value] of Object.entries(call.query ?? {})) {
      for (const one of typeof value === 'string' ? [value] : value) target.searchParams.append(name, one);
    }
    if (placement === 'bearer') headers.authorization = `Bearer ${accessToken}`;
    else if (placement !== 'none' && 'query' in placement) target.searchParams.set(placement.query, accessToken);
    else if (placement !== 'none' && 'scheme' in placement) headers.authorization = `${placement.scheme} ${accessToken}`;
    else if (placement !== 'none') headers[placement.header] = accessToken;
    let body: string | undefined;
    if (call.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(call.form).toString();
    } else if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.json);
    }
    const method = call.method ?? (body === undefined ? 'GET' : 'POST');
    const response = await providerFetch(context, target.toString(), { method, headers, body });
    const what = `${method} ${url}`;
    return { status: response.status, body: parse(response.text, what, response.status) };
  }
  async function json(url: string, call?: ApiCall): Promise<unknown> {
    const got = await answer(url, call);
    if (got.status < 200 || got.status > 299) throw new ProviderError(`${call?.method ?? 'GET'} ${url}: answered ${got.status}`);
    return got.body;
  }
  return {
    answer,
    json,
    async object(url, call) {
      const body = await json(url, call);
      if (!isObject(body)) throw new ProviderError(`${url}: expected a JSON object`);
      return body;
    },
  };
}
