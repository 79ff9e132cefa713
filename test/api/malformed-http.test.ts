import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { rawExchange } from '../support/raw-http.js';

// Issue 13 item 10: HTTP that Node's parser refuses got Fastify's own
// {"error","message","statusCode"} body. It is answered in the envelope.

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Writes `request` byte for byte and reads until the server closes the connection; the body as JSON when it is. */
async function exchange(server: TestServer, request: string): Promise<RawAnswer> {
  const { status, headers, text } = await rawExchange(server.baseUrl, request);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status, headers, body };
}

function assertEnvelope(answer: RawAnswer, status: number, code: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer));
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(answer.body.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.errors[0].code, code);
  assert.equal(typeof answer.body.errors[0].message, 'string');
  assert.equal(answer.body.statusCode, undefined, "not Fastify's own body");
}

const LOGIN = 'POST /_service/app/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n';

describeEachDatabase('regression: malformed HTTP is answered in the envelope (issue 13 item 10)', {}, ({ server }) => {
  it('bad chunked encoding: 400 bad_request', async () => {
    assertEnvelope(await exchange(server(), `${LOGIN}Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`), 400, 'bad_request');
  });

  it('Content-Length beside Transfer-Encoding: 400 bad_request', async () => {
    assertEnvelope(await exchange(server(), `${LOGIN}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`), 400, 'bad_request');
  });

  it('an unknown method: 400 bad_request', async () => {
    assertEnvelope(await exchange(server(), 'FROBNICATE /_service/app/v1/config HTTP/1.1\r\nHost: localhost\r\n\r\n'), 400, 'bad_request');
  });

  it('a request line that is not HTTP: 400 bad_request', async () => {
    assertEnvelope(await exchange(server(), 'hello there\r\n\r\n'), 400, 'bad_request');
  });

  it('oversized headers: 431 headers_too_large', async () => {
    assertEnvelope(await exchange(server(), `GET /_service/app/v1/config HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'a'.repeat(64 * 1024)}\r\n\r\n`), 431, 'headers_too_large');
  });

  it('a method Node knows but no route serves is the 405 of the envelope', async () => {
    const answer = await exchange(server(), 'PROPFIND /_service/app/v1/config HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    assert.ok([404, 405].includes(answer.status), JSON.stringify(answer));
    assert.equal(answer.body.status, answer.status);
    assert.ok(['method_not_allowed', 'not_found'].includes(answer.body.errors[0].code));
  });

  it('a well-formed request on a fresh connection still works afterwards', async () => {
    const answer = await exchange(server(), 'GET /_service/app/v1/config HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 200);
  });
});
