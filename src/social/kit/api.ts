import * as oidc from 'openid-client';
import { ProviderError } from '../provider-type.js';

// Calls to a provider's own API (GitHub's user and emails, Graph's /me, ...):
// bearer calls go through openid-client, which applies the configuration's
// timeout; the few calls authenticated otherwise use fetch with the same
// timeout. A failure or an answer that is not JSON is a ProviderError.

export interface ApiAnswer {
  status: number;
  body: unknown;
}

async function read(response: Response, what: string): Promise<ApiAnswer> {
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    throw new ProviderError(`${what}: answered ${response.status} without JSON`);
  }
}

/** GET `url` with the user's access token. */
export async function bearerGet(config: oidc.Configuration, accessToken: string, url: string, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await oidc.fetchProtectedResource(config, accessToken, new URL(url), 'GET', undefined, new Headers({ accept: 'application/json', ...headers }));
  } catch (error) {
    throw new ProviderError(`GET ${url} failed: ${(error as Error).message}`, { cause: error });
  }
  return read(response, `GET ${url}`);
}

/** Like bearerGet, but only a 200 with a JSON object will do. */
export async function bearerGetObject(config: oidc.Configuration, accessToken: string, url: string, headers?: Record<string, string>): Promise<Record<string, unknown>> {
  const answer = await bearerGet(config, accessToken, url, headers);
  if (answer.status !== 200 || !isObject(answer.body)) throw new ProviderError(`GET ${url}: answered ${answer.status}`);
  return answer.body;
}

/** A request authenticated some other way (e.g. the app's own credentials). */
export async function request(url: string, init: { method: string; headers: Record<string, string>; body?: string }, timeoutSeconds: number): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutSeconds * 1000) });
  } catch (error) {
    throw new ProviderError(`${init.method} ${url} failed: ${(error as Error).message}`, { cause: error });
  }
  return read(response, `${init.method} ${url}`);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
