import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { checkHost, checkOrigin, normalOrigins, requireJsonBody, type RequestGuards } from '../../src/hosts/http/request-guards.js';
import { HttpError } from '../../src/hosts/http/http-io.js';
import { serveRefusal } from '../helpers/serve-process.js';
import { copyExample } from '../helpers/agent-fixture.js';

function request(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

function status(check: () => unknown): number | 'passed' {
  try {
    check();
    return 'passed';
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
}

const loopback: RequestGuards = { bound: { address: '127.0.0.1', host: '127.0.0.1' }, allowedHosts: [], corsOrigins: [] };

describe('request guards', () => {
  it('Host: the bound address, localhost and allowed names pass; IPv6 loopback is compared without brackets', () => {
    expect(status(() => checkHost(request({ host: '127.0.0.1:8787' }), loopback))).toBe('passed');
    expect(status(() => checkHost(request({ host: 'LOCALHOST:8787' }), loopback))).toBe('passed');
    expect(status(() => checkHost(request({ host: 'evil.example' }), loopback))).toBe(403);
    expect(status(() => checkHost(request({}), loopback))).toBe(403);
    const v6: RequestGuards = { ...loopback, bound: { address: '::1', host: '::1' } };
    expect(status(() => checkHost(request({ host: '[::1]:8787' }), v6))).toBe('passed');
    const named: RequestGuards = { ...loopback, allowedHosts: ['agents.example.com'] };
    expect(status(() => checkHost(request({ host: 'agents.example.com.' }), named))).toBe('passed');
  });

  it('a server on every address answers to any IP literal, which cannot be rebound, but not to other names', () => {
    const wildcard: RequestGuards = { ...loopback, bound: { address: '0.0.0.0', host: '0.0.0.0' } };
    expect(status(() => checkHost(request({ host: '10.1.2.3:8787' }), wildcard))).toBe('passed');
    expect(status(() => checkHost(request({ host: 'evil.example:8787' }), wildcard))).toBe(403);
  });

  it("Origin: none, the server's own, or a listed one (in any spelling of it) passes; * lets every origin in", () => {
    const listed: RequestGuards = { ...loopback, corsOrigins: normalOrigins(['http://LOCALHOST:5173/']) };
    expect(checkOrigin(request({ host: '127.0.0.1:8787' }), listed)).toBeUndefined();
    expect(checkOrigin(request({ host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' }), listed)).toBeUndefined();
    expect(checkOrigin(request({ host: '127.0.0.1:8787', origin: 'http://localhost:5173' }), listed)).toBe('http://localhost:5173');
    expect(status(() => checkOrigin(request({ host: '127.0.0.1:8787', origin: 'http://localhost:5174' }), listed))).toBe(403);
    expect(status(() => checkOrigin(request({ host: '127.0.0.1:8787', origin: 'http://127.0.0.1:9999' }), listed))).toBe(403);
    const any: RequestGuards = { ...loopback, corsOrigins: ['*'] };
    expect(checkOrigin(request({ host: '127.0.0.1:8787', origin: 'https://anything.example' }), any)).toBe('https://anything.example');
  });

  it('Content-Type: application/json with or without parameters, nothing else', () => {
    expect(status(() => requireJsonBody(request({ 'content-type': 'Application/JSON; charset=utf-8' })))).toBe('passed');
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/jsonp']) {
      expect(status(() => requireJsonBody(request({ 'content-type': type })))).toBe(415);
    }
    expect(status(() => requireJsonBody(request({})))).toBe(415);
  });
});

describe('auggy serve refuses guard flags it cannot honour', () => {
  it('a --cors-origin that is not an origin, or an --allowed-host with a scheme or port: exit 2', async () => {
    const origin = await serveRefusal([copyExample('demo'), '--port', '0', '--cors-origin', 'localhost:3000/app']);
    expect(origin.exitCode).toBe(2);
    expect(origin.stderr.trim()).toBe(
      'auggy: --cors-origin localhost:3000/app is not an origin; pass scheme, host and port only, such as http://localhost:3000 (or * for any)',
    );
    const host = await serveRefusal([copyExample('demo'), '--port', '0', '--allowed-host', 'agents.example.com:8080']);
    expect(host.exitCode).toBe(2);
    expect(host.stderr).toMatch(/--allowed-host agents\.example\.com:8080 is not a host name/);
  });
});
