import { z } from 'zod';
import type { KernelTool, ToolResult } from '../../kernel/tool.js';
import { goTemplateProblem, renderGoTemplate } from './go-template.js';
import type { PackFile } from './pack-schema.js';

/** An HTTP tool's request as the pack gives it (PromptKit's `http:` on a `mode: live` tool). */
export interface PackHttp {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** `Header-Name=ENV_VAR`: the header's value read from the environment at call time. */
  headersFromEnv: string[];
  timeoutMs?: number;
  queryParams?: string[];
  staticQuery: Record<string, string>;
  staticHeaders: Record<string, string>;
  staticBody: Record<string, unknown>;
  exclude: string[];
}

/** How a pack tool answers: PromptKit's static mock, its text/template mock, or a live HTTP call. */
export type PackToolAnswer = { kind: 'static'; result: unknown } | { kind: 'template'; template: string } | { kind: 'http'; http: PackHttp };

/** A tool the pack implements itself. */
export interface PackMockTool {
  name: string;
  description: string;
  parameters: unknown;
  answer: PackToolAnswer;
}

const stringRecord = z.record(z.string(), z.unknown()).transform((record) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)])));

const httpSchema = z.looseObject({
  url: z.string().url(),
  method: z.string().optional(),
  headers: stringRecord.optional(),
  headers_from_env: z.array(z.string()).optional(),
  timeout_ms: z.number().int().min(1).optional(),
  request: z
    .looseObject({
      query_params: z.array(z.string()).optional(),
      static_query: stringRecord.optional(),
      static_headers: stringRecord.optional(),
      static_body: z.record(z.string(), z.unknown()).optional(),
      exclude: z.array(z.string()).optional(),
    })
    .optional(),
});

function httpOf(raw: Record<string, unknown>): PackHttp | undefined {
  const parsed = httpSchema.safeParse(raw.http);
  if (!parsed.success) return undefined;
  const { url, method, headers, headers_from_env, timeout_ms, request } = parsed.data;
  const timeout = timeout_ms ?? (typeof raw.timeout_ms === 'number' ? raw.timeout_ms : undefined);
  return {
    url,
    method: (method ?? 'POST').toUpperCase(),
    headers: headers ?? {},
    headersFromEnv: headers_from_env ?? [],
    ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
    ...(request?.query_params ? { queryParams: request.query_params } : {}),
    staticQuery: request?.static_query ?? {},
    staticHeaders: request?.static_headers ?? {},
    staticBody: request?.static_body ?? {},
    exclude: request?.exclude ?? [],
  };
}

function answerOf(raw: Record<string, unknown>): PackToolAnswer | undefined {
  if ('mock_result' in raw) return { kind: 'static', result: raw.mock_result };
  if (typeof raw.mock_template === 'string') return { kind: 'template', template: raw.mock_template };
  const http = raw.http !== undefined ? httpOf(raw) : undefined;
  return http ? { kind: 'http', http } : undefined;
}

/** The pack's tools that carry their own answer; the others need an augment or MCP server. */
export function packMockTools(pack: PackFile): PackMockTool[] {
  return Object.entries(pack.tools ?? {}).flatMap(([key, tool]) => {
    const raw = tool as Record<string, unknown>;
    const answer = answerOf(raw);
    if (!answer) return [];
    return [{ name: tool.name ?? key, description: tool.description ?? key, parameters: raw.parameters ?? raw.input_schema ?? { type: 'object' }, answer }];
  });
}

/** What a pack tool's declaration asks that auggy cannot do, for validate: one sentence per tool, or none. */
export function packToolProblems(pack: PackFile): { key: string; message: string }[] {
  return Object.entries(pack.tools ?? {}).flatMap(([key, tool]) => {
    const raw = tool as Record<string, unknown>;
    const name = tool.name ?? key;
    if (typeof raw.mock_template === 'string') {
      const problem = goTemplateProblem(raw.mock_template);
      return problem ? [{ key, message: `tool ${name}: its mock_template cannot be rendered here: ${problem}` }] : [];
    }
    if (raw.http !== undefined && !('mock_result' in raw)) {
      if (!httpSchema.safeParse(raw.http).success) return [{ key, message: `tool ${name}: http needs a url (http: { url: "https://...", method: GET })` }];
      const request = (raw.http as { request?: { body_mapping?: unknown }; response?: { body_mapping?: unknown } }) ?? {};
      if (request.request?.body_mapping !== undefined || request.response?.body_mapping !== undefined) {
        return [{ key, message: `tool ${name}: its http body_mapping (JMESPath) is not applied here; the arguments and the response go as they are` }];
      }
    }
    return [];
  });
}

function schemaOf(parameters: unknown): z.ZodType {
  try {
    return z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.looseObject({});
  }
}

/** A result as PromptKit hands it on: JSON stays JSON, any other text becomes `{"result": text}`. */
function asJsonResult(text: string): string {
  try {
    JSON.parse(text);
    return text.trim();
  } catch {
    return JSON.stringify({ result: text });
  }
}

function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One HTTP call to the URL the pack names, as PromptKit's HTTP executor makes it: GET args in the query, a body method's as JSON. */
async function callHttp(name: string, http: PackHttp, args: Record<string, unknown>, signal: AbortSignal, env: NodeJS.ProcessEnv): Promise<ToolResult> {
  const url = new URL(renderGoTemplate(http.url, args));
  const consumed = new Set([...http.exclude, ...[...http.url.matchAll(/\{\{\s*\.(\w+)/g)].map((match) => match[1])]);
  const bodyMethod = ['POST', 'PUT', 'PATCH'].includes(http.method);
  const body: Record<string, unknown> = { ...http.staticBody };
  for (const [key, value] of Object.entries(args)) {
    if (consumed.has(key)) continue;
    const toQuery = http.queryParams ? http.queryParams.includes(key) : !bodyMethod;
    if (toQuery) url.searchParams.set(key, queryValue(value));
    else body[key] = value;
  }
  for (const [key, value] of Object.entries(http.staticQuery)) url.searchParams.set(key, value);
  const headers: Record<string, string> = { ...http.headers, ...http.staticHeaders };
  for (const pair of http.headersFromEnv) {
    const [header, variable] = pair.split('=', 2);
    const value = variable === undefined ? undefined : env[variable];
    if (header && value) headers[header] = value;
  }
  const sendsBody = bodyMethod && Object.keys(body).length > 0;
  if (sendsBody) headers['content-type'] = 'application/json';
  const signals = [signal, ...(http.timeoutMs !== undefined ? [AbortSignal.timeout(http.timeoutMs)] : [])];
  try {
    const response = await fetch(url, { method: http.method, headers, signal: AbortSignal.any(signals), ...(sendsBody ? { body: JSON.stringify(body) } : {}) });
    const text = await response.text();
    if (!response.ok)
      return { isError: true, content: `${name}: ${http.method} ${url.origin}${url.pathname} answered HTTP ${response.status}: ${text.slice(0, 500)}` };
    return { content: asJsonResult(text) };
  } catch (error) {
    const why =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${http.timeoutMs} ms`
        : error instanceof Error
          ? error.message
          : String(error);
    return { isError: true, content: `${name}: ${http.method} ${url.origin}${url.pathname} failed: ${why}` };
  }
}

async function answer(tool: PackMockTool, args: Record<string, unknown>, signal: AbortSignal, env: NodeJS.ProcessEnv): Promise<ToolResult> {
  const { answer: how } = tool;
  if (how.kind === 'static') return { content: typeof how.result === 'string' ? how.result : JSON.stringify(how.result) };
  if (how.kind === 'http') return callHttp(tool.name, how.http, args, signal, env);
  try {
    return { content: asJsonResult(renderGoTemplate(how.template, args)) };
  } catch (error) {
    return { isError: true, content: `${tool.name}: the pack's mock_template cannot be rendered: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const NOTES: Record<PackToolAnswer['kind'], string> = {
  static: "(A mock tool of the PromptPack: it answers with the pack's fixed result.)",
  template: "(A mock tool of the PromptPack: it answers from the pack's template of its arguments.)",
  http: '',
};

/** A pack tool as the kernel runs it: the arguments checked by the pack's schema, then the pack's answer. */
export function mockKernelTool(tool: PackMockTool, env: NodeJS.ProcessEnv = process.env): KernelTool {
  const schema = schemaOf(tool.parameters);
  const note = NOTES[tool.answer.kind];
  return {
    name: tool.name,
    description: note ? `${tool.description}\n\n${note}` : tool.description,
    inputSchema: schema,
    async run(input, ctx) {
      const checked = schema.safeParse(input ?? {});
      if (!checked.success) return { isError: true, content: `Invalid arguments for ${tool.name}: ${z.prettifyError(checked.error)}` };
      const args = checked.data !== null && typeof checked.data === 'object' ? (checked.data as Record<string, unknown>) : {};
      return answer(tool, args, ctx.signal, env);
    },
  };
}
