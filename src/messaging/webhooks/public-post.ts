import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../private-address.js';

// A POST that connects to public addresses only, for the requests a client's
// registration points the server at (back-channel logout). The addresses are
// checked inside the connection's own lookup, so the name cannot resolve to a
// public address for the check and a private one for the connection (DNS
// rebinding); an IP literal, which is not looked up, is checked first.

class PrivateAddressError extends Error {
  readonly code = 'private_address';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) return callback(new PrivateAddressError(`${hostname} resolves to a private address`), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/** POSTs `body` to `url` and answers the response's status; refuses private addresses unless `allowPrivate`. A redirect is not followed. */
export function postToPublicAddress(url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal; allowPrivate: boolean }): Promise<number> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!init.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) return Promise.reject(new PrivateAddressError(`${host} is a private address`));
  return new Promise((resolve, reject) => {
    const request = (target.protocol === 'https:' ? https : http).request(
      target,
      { method: 'POST', headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) }, signal: init.signal, ...(init.allowPrivate ? {} : { lookup: publicLookup }) },
      (response) => {
        // Read (and drop) the body, so the connection can be reused.
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}
