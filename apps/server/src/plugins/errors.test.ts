import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';

const f = useFixture();

/** Sends raw bytes to the listening server and answers the status code and body of what comes back. */
async function rawRequest(port: number, text: string): Promise<{ status: number; body: string }> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  socket.write(text);
  await new Promise((resolve) => socket.on('close', resolve));
  const answer = Buffer.concat(chunks).toString('utf8');
  const [head, body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body };
}

describe('every error answer carries the envelope', () => {
  it('answers a URL whose %-encoding does not decode with 400 and the envelope', async () => {
    for (const url of ['/api/groups/acme/%E0%A4%A', '/api/subscriber/user/%E0%A4%A', '/x/%E0%A4%A']) {
      const res = await f.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({
        errcode: 2,
        code: 'validation_failed',
        message: expect.any(String),
      });
    }
  });

  it('answers a path parameter longer than 100 characters with 414 and the envelope', async () => {
    const token = await f.signIn('admin@acme.test');
    for (const url of [`/api/subscriber/user/${'a'.repeat(101)}`, `/api/groups/acme/${'1'.repeat(101)}`]) {
      const res = await f.app.inject({ url, headers: { 'x-auth-token': token } });
      expect(res.statusCode, url).toBe(414);
      expect(res.json(), url).toEqual({ errcode: 2, code: 'validation_failed', message: expect.any(String) });
    }
    // 100 characters are still routed (and the tenant is simply unknown).
    const longest = await f.app.inject({
      url: `/api/subscriber/user/${'a'.repeat(100)}`,
      headers: { 'x-auth-token': token },
    });
    expect(longest.statusCode).toBe(404);
    expect(longest.json()).toMatchObject({ errcode: 4, code: 'not_found' });
  });

  it('answers a request that is not valid HTTP with the envelope on the socket', async () => {
    await f.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = f.app.server.address() as { port: number };
    const bad = await rawRequest(port, 'GET /api/health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({
      errcode: 2,
      code: 'validation_failed',
      message: expect.any(String),
    });
    const huge = await rawRequest(
      port,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toMatchObject({ errcode: 2, code: 'validation_failed' });
  });
});
