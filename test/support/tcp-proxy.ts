import net from 'node:net';
import type { AddressInfo } from 'node:net';

// A TCP proxy the test owns, between the server and a shared dependency
// (PostgreSQL, Redis), to fail the dependency without touching the shared
// server itself: frozen (it looks alive but stays silent), refusing (it
// looks down: every connection is reset at once), or with its connections
// cut.

export interface TcpProxy {
  port: number;
  /** Stops forwarding in both directions; bytes sent meanwhile are held, not lost. */
  freeze(): void;
  /** Forwards what was held, then resumes. */
  thaw(): void;
  /** Cuts every connection and resets every new one until accept(): the dependency is down. */
  refuse(): void;
  /** Takes connections again after refuse(). */
  accept(): void;
  /** Resolves at the next connection refused (now or later). */
  nextRefusal(): Promise<void>;
  /** The local ports of the connections to the target, as the target sees its clients. */
  upstreamPorts(): number[];
  /** Everything forwarded from clients to the target so far. */
  forwarded(): string;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  let refusing = false;
  let upstreamText = '';
  const refusalWaiters: Array<() => void> = [];
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      for (const wake of refusalWaiters.splice(0)) wake();
      return;
    }
    const upstream = net.connect(target);
    const pair = { client, upstream };
    pairs.add(pair);
    client.on('data', (chunk) => {
      upstreamText += chunk.toString('latin1');
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
    if (frozen) {
      client.pause();
      upstream.pause();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze() {
      frozen = true;
      for (const { client, upstream } of pairs) {
        client.pause();
        upstream.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const { client, upstream } of pairs) {
        client.resume();
        upstream.resume();
      }
    },
    refuse() {
      refusing = true;
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
    },
    accept() {
      refusing = false;
    },
    nextRefusal: () => new Promise<void>((resolve) => refusalWaiters.push(resolve)),
    upstreamPorts: () => [...pairs].map(({ upstream }) => upstream.localPort).filter((port): port is number => port !== undefined),
    forwarded: () => upstreamText,
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
