// Baseline for `npm run bench`: Fastify's own hello-world benchmark
// (fastify/benchmarks, benchmarks/fastify.js) on this project's Fastify:
// logger off, a response schema, GET / answering {"hello":"world"}.
// Plain JavaScript, run by plain node with the flags `npm start` passes, so
// that it compares with the compiled server. PORT is given by the bench.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const schema = { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } };
app.get('/', schema, function (request, reply) {
  reply.send({ hello: 'world' });
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => void app.close().then(() => process.exit(0)));
