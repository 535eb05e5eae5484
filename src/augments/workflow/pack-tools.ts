import { resolve } from 'node:path';
import jmespath from 'jmespath';
import { z } from 'zod';
import { readAgentFile } from '../../agent/read-agent-file.js';
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
  /** `request.header_params`: header name → Go template of the arguments (`Bearer {{.token}}`). */
  headerParams: Record<string, string>;
  staticBody: Record<string, unknown>;
  exclude: string[];
  /** JMESPath that reshapes the arguments into the request body (`request.body_mapping`). */
  requestMapping?: string;
  /** JMESPath that reshapes the JSON response into the tool's result (`response.body_mapping`). */
  responseMapping?: string;
}

/** Where a pack's own files are: mock files are named relative to the pack, and read only inside the agent folder. */
export interface PackFiles {
  agentDir: string;
  packDir: string;
}

/** A file the pack names for a tool's answer: as the pack spells it, and where it is. */
export interface PackToolFile {
  named: string;
  path: string;
  agentDir: string;
}

/** How a pack tool answers: PromptKit's static mock, its text/template mock, or a live HTTP call. */
export type PackToolAnswer =
  | { kind: 'static'; result: unknown }
  | { kind: 'static-file'; file: PackToolFile }
  | { kind: 'template'; template: string }
  | { kind: 'template-file'; file: PackToolFile }
  | { kind: 'http'; http: PackHttp };

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
      header_params: stringRecord.optional(),
      static_body: z.record(z.string(), z.unknown()).optional(),
      exclude: z.array(z.string()).optional(),
      body_mapping: z.string().optional(),
    })
    .optional(),
  response: z.looseObject({ body_mapping: z.string().optional() }).optional(),
});

function httpOf(raw: Record<string, unknown>): PackHttp | undefined {
  const parsed = httpSchema.safeParse(raw.http);
  if (!parsed.success) return undefined;
  const { url, method, headers, headers_from_env, timeout_ms, request, response } = parsed.data;
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
    headerParams: request?.header_params ?? {},
    staticBody: request?.static_body ?? {},
    exclude: request?.exclude ?? [],
    ...(request?.body_mapping ? { requestMapping: request.body_mapping } : {}),
    ...(response?.body_mapping ? { responseMapping: response.body_mapping } : {}),
  };
}

const DEFAULT_FILES: PackFiles = { agentDir: process.cwd(), packDir: process.cwd() };

function fileOf(named: string, files: PackFiles): PackToolFile {
  return { named, path: resolve(files.packDir, named), agentDir: files.agentDir };
}

/** PromptKit's order: a template (inline, then file) makes a scripted mock; else the static result (inline, then file). */
function answerOf(raw: Record<string, unknown>, files: PackFiles): PackToolAnswer | undefined {
  if (typeof raw.mock_template === 'string' && raw.mock_template !== '') return { kind: 'template', template: raw.mock_template };
  if (typeof raw.mock_template_file === 'string' && raw.mock_template_file !== '')
    return { kind: 'template-file', file: fileOf(raw.mock_template_file, files) };
  if ('mock_result' in raw) return { kind: 'static', result: raw.mock_result };
  if (typeof raw.mock_result_file === 'string' && raw.mock_result_file !== '') return { kind: 'static-file', file: fileOf(raw.mock_result_file, files) };
  const http = raw.http !== undefined ? httpOf(raw) : undefined;
  return http ? { kind: 'http', http } : undefined;
}

/** The pack's tools that carry their own answer; the others need an augment or MCP server. */
export function packMockTools(pack: PackFile, files: PackFiles = DEFAULT_FILES): PackMockTool[] {
  return Object.entries(pack.tools ?? {}).flatMap(([key, tool]) => {
    const raw = tool as Record<string, unknown>;
    const answer = answerOf(raw, files);
    if (!answer) return [];
    return [{ name: tool.name ?? key, description: tool.description ?? key, parameters: raw.parameters ?? raw.input_schema ?? { type: 'object' }, answer }];
  });
}

/** Why a JMESPath expression cannot run, or undefined when it compiles. */
function jmespathProblem(expression: string): string | undefined {
  try {
    jmespath.search({}, expression);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

type ToolProblem = { key: string; severity: 'error' | 'warning'; message: string };

/**
 * What is wrong with the mock file a tool names: missing or outside the folder (the tool cannot
 * answer: an error), or a template this renderer cannot render (a warning, as inline templates).
 */
function mockFileProblem(key: string, name: string, field: string, file: PackToolFile): ToolProblem[] {
  const read = readAgentFile(file.agentDir, file.path);
  if (!read.ok)
    return [{ key, severity: 'error', message: `tool ${name}: its ${field} ${file.named} ${read.message}; create it next to the pack or fix the path` }];
  const problem = field === 'mock_template_file' ? goTemplateProblem(read.text) : undefined;
  return problem ? [{ key, severity: 'warning', message: `tool ${name}: its mock_template_file ${file.named} cannot be rendered here: ${problem}` }] : [];
}

/** What a pack tool's declaration asks that auggy cannot do, for validate: one sentence per tool, or none. */
export function packToolProblems(pack: PackFile, files: PackFiles = DEFAULT_FILES): ToolProblem[] {
  return Object.entries(pack.tools ?? {}).flatMap(([key, tool]): ToolProblem[] => {
    const raw = tool as Record<string, unknown>;
    const name = tool.name ?? key;
    const parts = mockPartsProblem(key, name, raw);
    return [...(parts ? [parts] : []), ...answerProblems(key, name, raw, answerOf(raw, files))];
  });
}

/** PromptKit's mock_parts (images beside a mock result) cannot reach a model through a text result: said, not dropped silently. */
function mockPartsProblem(key: string, name: string, raw: Record<string, unknown>): ToolProblem | undefined {
  if (!Array.isArray(raw.mock_parts) || raw.mock_parts.length === 0) return undefined;
  return {
    key,
    severity: 'warning',
    message: `tool ${name}: its mock_parts are not sent, since auggy's tool results are text; the model gets ${'mock_result' in raw || typeof raw.mock_template === 'string' ? 'the mock result alone' : 'none of them'}`,
  };
}

/** What keeps a tool's own answer from working as the pack means it: one sentence, or none. */
function answerProblems(key: string, name: string, raw: Record<string, unknown>, answer: PackToolAnswer | undefined): ToolProblem[] {
  if (answer?.kind === 'template') {
    const problem = goTemplateProblem(answer.template);
    return problem ? [{ key, severity: 'warning', message: `tool ${name}: its mock_template cannot be rendered here: ${problem}` }] : [];
  }
  if (answer?.kind === 'template-file' || answer?.kind === 'static-file') {
    return mockFileProblem(key, name, answer.kind === 'template-file' ? 'mock_template_file' : 'mock_result_file', answer.file);
  }
  if (raw.http !== undefined && answer === undefined) {
    return [{ key, severity: 'warning', message: `tool ${name}: http needs a url (http: { url: "https://...", method: GET })` }];
  }
  if (answer?.kind === 'http') {
    const mappings = [
      ['request', answer.http.requestMapping],
      ['response', answer.http.responseMapping],
    ] as const;
    for (const [side, expression] of mappings) {
      const problem = expression === undefined ? undefined : jmespathProblem(expression);
      if (problem) return [{ key, severity: 'error', message: `tool ${name}: its http ${side} body_mapping is not valid JMESPath (${problem})` }];
    }
    for (const [header, template] of Object.entries(answer.http.headerParams)) {
      const problem = goTemplateProblem(template);
      if (problem) return [{ key, severity: 'warning', message: `tool ${name}: its header_params ${header} cannot be rendered here: ${problem}` }];
    }
  }
  return [];
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

/** The response as the tool's result, reshaped by the pack's JMESPath when it gives one; a body that is not JSON passes as it is, as in PromptKit. */
function mappedResponse(name: string, text: string, mapping: string | undefined): ToolResult {
  if (mapping === undefined) return { content: asJsonResult(text) };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { content: asJsonResult(text) };
  }
  try {
    return { content: JSON.stringify(jmespath.search(data, mapping) ?? null) };
  } catch (error) {
    return { isError: true, content: `${name}: the pack's response body_mapping failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** One HTTP call to the URL the pack names, as PromptKit's HTTP executor makes it: GET args in the query, a body method's as JSON. */
/** The arguments a Go template reads (`{{.id}}`): PromptKit keeps them out of the body and the query. */
function templateArgs(template: string): string[] {
  return [...template.matchAll(/\{\{\s*\.(\w+)/g)].map((match) => match[1]);
}

/**
 * The request's headers in PromptKit's order, a later one winning: the JSON content type, the
 * pack's header_params rendered from the arguments, static_headers, headers, then headers_from_env.
 */
function requestHeaders(http: PackHttp, args: Record<string, unknown>, env: NodeJS.ProcessEnv, sendsBody: boolean): Headers {
  const headers = new Headers();
  if (sendsBody) headers.set('content-type', 'application/json');
  for (const [header, template] of Object.entries(http.headerParams))
    headers.set(header, template.includes('{{') ? renderGoTemplate(template, args) : template);
  for (const [header, value] of Object.entries({ ...http.staticHeaders, ...http.headers })) headers.set(header, value);
  for (const pair of http.headersFromEnv) {
    const [header, variable] = pair.split('=', 2);
    const value = variable === undefined ? undefined : env[variable];
    if (header && value) headers.set(header, value);
  }
  return headers;
}

async function callHttp(name: string, http: PackHttp, args: Record<string, unknown>, signal: AbortSignal, env: NodeJS.ProcessEnv): Promise<ToolResult> {
  const url = new URL(renderGoTemplate(http.url, args));
  const consumed = new Set([...http.exclude, ...templateArgs(http.url), ...Object.values(http.headerParams).flatMap(templateArgs)]);
  const bodyMethod = ['POST', 'PUT', 'PATCH'].includes(http.method);
  const body: Record<string, unknown> = { ...http.staticBody };
  for (const [key, value] of Object.entries(args)) {
    if (consumed.has(key)) continue;
    const toQuery = http.queryParams ? http.queryParams.includes(key) : !bodyMethod;
    if (toQuery) url.searchParams.set(key, queryValue(value));
    else body[key] = value;
  }
  for (const [key, value] of Object.entries(http.staticQuery)) url.searchParams.set(key, value);
  const sendsBody = bodyMethod && Object.keys(body).length > 0;
  let headers: Headers;
  try {
    headers = requestHeaders(http, args, env, sendsBody);
  } catch (error) {
    return { isError: true, content: `${name}: the pack's header_params cannot be rendered: ${error instanceof Error ? error.message : String(error)}` };
  }
  let sent: string | undefined;
  if (sendsBody) {
    try {
      sent = JSON.stringify(http.requestMapping ? (jmespath.search(body, http.requestMapping) ?? null) : body);
    } catch (error) {
      return { isError: true, content: `${name}: the pack's request body_mapping failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const signals = [signal, ...(http.timeoutMs !== undefined ? [AbortSignal.timeout(http.timeoutMs)] : [])];
  try {
    const response = await fetch(url, { method: http.method, headers, signal: AbortSignal.any(signals), ...(sent !== undefined ? { body: sent } : {}) });
    const text = await response.text();
    if (!response.ok)
      return { isError: true, content: `${name}: ${http.method} ${url.origin}${url.pathname} answered HTTP ${response.status}: ${text.slice(0, 500)}` };
    return mappedResponse(name, text, http.responseMapping);
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

function readMockFile(tool: PackMockTool, field: string, file: PackToolFile): { text: string } | { error: ToolResult } {
  const read = readAgentFile(file.agentDir, file.path);
  if (read.ok) return { text: read.text };
  return { error: { isError: true, content: `${tool.name}: the pack's ${field} ${file.named} ${read.message}` } };
}

function rendered(tool: PackMockTool, template: string, args: Record<string, unknown>): ToolResult {
  try {
    return { content: asJsonResult(renderGoTemplate(template, args)) };
  } catch (error) {
    return { isError: true, content: `${tool.name}: the pack's mock template cannot be rendered: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function answer(tool: PackMockTool, args: Record<string, unknown>, signal: AbortSignal, env: NodeJS.ProcessEnv): Promise<ToolResult> {
  const { answer: how } = tool;
  switch (how.kind) {
    case 'static':
      return { content: typeof how.result === 'string' ? how.result : JSON.stringify(how.result) };
    case 'http':
      return callHttp(tool.name, how.http, args, signal, env);
    case 'template':
      return rendered(tool, how.template, args);
    case 'static-file': {
      // Read at each call, as PromptKit does: the file's text is the result as it stands.
      const read = readMockFile(tool, 'mock_result_file', how.file);
      return 'error' in read ? read.error : { content: read.text.trim() };
    }
    case 'template-file': {
      const read = readMockFile(tool, 'mock_template_file', how.file);
      return 'error' in read ? read.error : rendered(tool, read.text, args);
    }
  }
}

const NOTES: Record<PackToolAnswer['kind'], string> = {
  static: "(A mock tool of the PromptPack: it answers with the pack's fixed result.)",
  template: "(A mock tool of the PromptPack: it answers from the pack's template of its arguments.)",
  'static-file': "(A mock tool of the PromptPack: it answers with the pack's fixed result.)",
  'template-file': "(A mock tool of the PromptPack: it answers from the pack's template of its arguments.)",
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
