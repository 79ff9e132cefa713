import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/**
 * /metrics on a port of its own (METRICS_PORT), so that it can stay off the
 * public network. Nothing else is served there.
 */
export function metricsServer(registry: Registry): { listen(host: string, port: number): Promise<AddressInfo>; close(): Promise<void> } {
  let server: Server | undefined;
  return {
    async listen(host, port) {
      server = createServer((request, response) => {
        const path = (request.url ?? '').split('?')[0];
        if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
          response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ status: 404, errors: [{ code: 'not_found', message: 'Not found.' }] }));
          return;
        }
        registry.metrics().then(
          (text) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
          () => response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ status: 500, errors: [{ code: 'server_error', message: 'Something went wrong on our side.' }] })),
        );
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, host, () => resolve());
      });
      return server.address() as AddressInfo;
    },
    async close() {
      if (!server?.listening) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
}
