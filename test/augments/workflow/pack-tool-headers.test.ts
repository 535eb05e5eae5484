import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mockKernelTool, packMockTools, packToolProblems } from '../../../src/augments/workflow/pack-tools.js';
import type { PackFile } from '../../../src/augments/workflow/pack-schema.js';
import { NOBODY } from '../../../src/kernel/person.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A local HTTP server that records each request's headers, URL and body. */
async function recordingServer(): Promise<{ url: string; seen: { headers: IncomingHttpHeaders; url: string; body: string }[] }> {
  const seen: { headers: IncomingHttpHeaders; url: string; body: string }[] = [];
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += String(chunk);
    });
    request.on('end', () => {
      seen.push({ headers: request.headers, url: request.url ?? '', body });
      response.setHeader('content-type', 'application/json');
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function pack(tools: Record<string, Record<string, unknown>>): PackFile {
  return { prompts: { a: { system_template: 'A.', tools: Object.keys(tools) } }, tools } as PackFile;
}

const context = { toolCallId: 'call_1', signal: new AbortController().signal, emit: () => {}, person: NOBODY };

describe("a pack's HTTP tool headers, as PromptKit builds them", () => {
  it('header_params are Go templates of the arguments; the arguments they read stay out of the body', async () => {
    const { url, seen } = await recordingServer();
    const [tool] = packMockTools(
      pack({
        lookup: {
          description: 'Looks an order up',
          parameters: { type: 'object', properties: { token: { type: 'string' }, order: { type: 'string' } } },
          http: {
            url: `${url}/orders`,
            method: 'POST',
            headers: { 'X-Client': 'auggy' },
            request: { header_params: { Authorization: 'Bearer {{.token}}', 'X-Fixed': 'plain' }, static_headers: { 'X-Static': 's' } },
          },
        },
      }),
    );
    const result = await mockKernelTool(tool, {}).run({ token: 't-9', order: '42' }, context);
    expect(result).toEqual({ content: '{"ok":true}' });
    expect(seen[0].headers).toMatchObject({
      authorization: 'Bearer t-9',
      'x-fixed': 'plain',
      'x-static': 's',
      'x-client': 'auggy',
      'content-type': 'application/json',
    });
    expect(JSON.parse(seen[0].body)).toEqual({ order: '42' });
  });

  it('a later source wins, in PromptKit order: header_params, static_headers, headers, headers_from_env', async () => {
    const { url, seen } = await recordingServer();
    const [tool] = packMockTools(
      pack({
        lookup: {
          description: 'Looks up',
          parameters: { type: 'object', properties: { who: { type: 'string' } } },
          http: {
            url: `${url}/q`,
            method: 'GET',
            headers: { 'X-B': 'headers' },
            headers_from_env: ['X-C=KEY'],
            request: { header_params: { 'X-A': '{{.who}}', 'X-B': '{{.who}}', 'X-C': '{{.who}}' }, static_headers: { 'X-A': 'static' } },
          },
        },
      }),
    );
    await mockKernelTool(tool, { KEY: 'env' }).run({ who: 'arg' }, context);
    expect(seen[0].headers).toMatchObject({ 'x-a': 'static', 'x-b': 'headers', 'x-c': 'env' });
    // `who` went to a header, so a GET sends no query for it.
    expect(seen[0].url).toBe('/q');
  });

  it('validate warns about a header template this renderer cannot render', () => {
    const problems = packToolProblems(
      pack({ lookup: { description: 'x', http: { url: 'http://127.0.0.1:9/', request: { header_params: { Authorization: '{{range .x}}' } } } } }),
    );
    expect(problems).toEqual([
      expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/^tool lookup: its header_params Authorization cannot be rendered here/) }),
    ]);
  });
});

describe("a pack tool's mock_parts", () => {
  it('are named by validate: tool results here are text, so the model gets the mock result alone', () => {
    const problems = packToolProblems(
      pack({
        scan_document: {
          description: 'Scans',
          mock_result: { extracted_text: 'Receipt' },
          mock_parts: [
            { type: 'text', text: 'Scanned' },
            { type: 'image', media: { file_path: 'a.png', mime_type: 'image/png' } },
          ],
        },
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        key: 'scan_document',
        severity: 'warning',
        message: "tool scan_document: its mock_parts are not sent, since auggy's tool results are text; the model gets the mock result alone",
      }),
    ]);
  });
});
