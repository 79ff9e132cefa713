// Baseline for `npm run bench`: Fastify giving the server's own answers.
// REPLAY_FILE holds, per path, the status, headers and body text the server
// sent; each request gets them back, the body as the same bytes (its
// content-type is among the headers, so Fastify sends the string as it is),
// with a fresh X-Request-Id as the server makes one. What this costs over
// Fastify's hello-world is what our answers cost any Fastify route (their
// headers and bytes), whatever made them.
// Plain JavaScript, logger off as in fastify-hello.mjs, unless REPLAY_LOG=on:
// then every finished request writes one access line (the fields of the
// server's own line) with pino, through a buffered asynchronous destination,
// from an onResponse hook: the cheapest request log Fastify's own means
// give, the one the issue asks the server to keep. PORT is given by the bench.
import Fastify from 'fastify';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

const answers = JSON.parse(readFileSync(process.env.REPLAY_FILE, 'utf8'));
const app = Fastify({ logger: false });
if (process.env.REPLAY_LOG === 'on') {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 64 * 1024, maxWrite: 128 * 1024 });
  const log = pino({ timestamp: pino.stdTimeFunctions.isoTime }, destination);
  app.addHook('onResponse', function (request, reply, done) {
    log.info(
      { request_id: reply.getHeader('x-request-id'), method: request.method, route: request.routeOptions.url, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime * 100) / 100, client: 'app' },
      'request',
    );
    done();
  });
  process.on('exit', () => destination.flushSync());
}
for (const [path, { status, headers, body }] of Object.entries(answers)) {
  app.get(path, function (request, reply) {
    reply.code(status).headers(headers).header('x-request-id', randomUUID());
    reply.send(body);
  });
}
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => void app.close().then(() => process.exit(0)));
