// Baseline for `npm run bench`: a bare node:http hello-world (as
// fastify/benchmarks' "bare" case), the same body and content type as the
// Fastify hello-world. Plain JavaScript, run by plain node with the flags
// `npm start` passes. PORT is given by the bench.
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.end(JSON.stringify({ hello: 'world' }));
});
server.listen(Number(process.env.PORT), '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
