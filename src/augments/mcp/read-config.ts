import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { readAgentFile } from '../../agent/read-agent-file.js';
import type { Diagnostic, Severity } from '../../agent/types.js';
import { formatFieldPath, locateField, parseYamlSource, type FieldPath, type YamlSource } from '../../agent/yaml-source.js';
import {
  KNOWN_KEYS,
  MCP_CONFIG_FILE,
  globalPolicySchema,
  OTHER_RELEASE_POLICY_KEYS,
  SERVER_NAME,
  remoteServerSchema,
  serverPolicySchema,
  stdioServerSchema,
  transportOf,
  type ServerConfig,
  type ServerPolicy,
} from './config-schema.js';
import { interpolate, interpolatedFields, type Lookup } from './interpolate.js';

export interface ConfigRead {
  /** The servers that can be started; a broken entry is left out (and reported). */
  servers: ServerConfig[];
  diagnostics: Diagnostic[];
  /** False when there is no .mcp.json at all. */
  found: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Line and column of a character offset, 1-based. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function jsonError(text: string, error: unknown): Diagnostic {
  const message = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(message);
  const position = at ? positionOf(text, Number(at[1])) : {};
  const commented = /^\s*(\/\/|\/\*|#)/m.test(text);
  const hint = commented ? 'JSON has no comments: write notes as a "$comment" key instead' : 'fix the JSON (a missing comma or quote, or a trailing comma)';
  return {
    severity: 'error',
    file: MCP_CONFIG_FILE,
    ...position,
    message: `is not valid JSON (${message.replace(/ in JSON at position \d+.*$/, '')}); ${hint}`,
  };
}

class Findings {
  readonly list: Diagnostic[] = [];
  constructor(private readonly source: YamlSource | undefined) {}

  add(severity: Severity, path: FieldPath, message: string): void {
    const position = this.source ? locateField(this.source, path) : undefined;
    this.list.push({
      severity,
      file: MCP_CONFIG_FILE,
      line: position?.line,
      column: position?.column,
      field: path.length > 0 ? formatFieldPath(path) : undefined,
      message,
    });
  }

  unknownKeys(value: Record<string, unknown>, known: readonly string[], path: FieldPath, otherRelease: readonly string[] = []): void {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      if (otherRelease.includes(key)) this.add('warning', [...path, key], `is a setting of other auggy releases and does nothing here; it is ignored`);
      else this.add('warning', [...path, key], `is not a key auggy knows here (${known.filter((k) => k !== '$comment').join(', ')}); it is ignored`);
    }
  }

  zodIssues(error: z.ZodError, path: FieldPath): void {
    for (const issue of error.issues) this.add('error', [...path, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], issue.message);
  }
}

function readPolicy(raw: unknown, path: FieldPath, findings: Findings): ServerPolicy {
  if (raw === undefined) return {};
  if (!isRecord(raw)) {
    findings.add('error', path, 'must be an object of settings (allowedTools, blockedTools, confirmTools, timeoutSeconds, allowSampling)');
    return {};
  }
  findings.unknownKeys(raw, KNOWN_KEYS.policy, path, OTHER_RELEASE_POLICY_KEYS);
  const known = Object.fromEntries(Object.entries(raw).filter(([key]) => (KNOWN_KEYS.policy as readonly string[]).includes(key)));
  const checked = serverPolicySchema.safeParse(known);
  if (!checked.success) {
    findings.zodIssues(checked.error, path);
    return {};
  }
  return checked.data;
}

function readServer(
  name: string,
  raw: unknown,
  policy: ServerPolicy,
  defaults: ServerPolicy,
  findings: Findings,
  lookup: Lookup | undefined,
): ServerConfig | undefined {
  const path = ['mcpServers', name];
  if (!SERVER_NAME.test(name)) {
    findings.add(
      'error',
      path,
      `server name "${name}" must start with a letter or digit and hold only letters, digits, - and _ (it becomes part of the tool names)`,
    );
    return undefined;
  }
  if (!isRecord(raw)) {
    findings.add('error', path, 'must be an object: {"command": ..., "args": [...]} for stdio, or {"type": "streamable-http", "url": ...}');
    return undefined;
  }
  const transport = transportOf(raw);
  if (transport === 'unknown') {
    const type = raw.type ?? raw.transport;
    findings.add(
      'error',
      typeof type === 'string' ? [...path, raw.type !== undefined ? 'type' : 'transport'] : path,
      typeof type === 'string'
        ? `type "${type}" is not one of stdio, streamable-http, http, sse`
        : 'has neither a command (a stdio server) nor a url (a remote server); add one',
    );
    return undefined;
  }
  findings.unknownKeys(raw, transport === 'stdio' ? KNOWN_KEYS.stdio : KNOWN_KEYS.remote, path);
  // The server's own `auggy` block (real auggy allows it) is merged under the top-level one.
  const merged = { ...defaults, ...readPolicy(raw.auggy, [...path, 'auggy'], findings), ...policy };

  let failed = false;
  if (lookup) {
    for (const [field, text] of interpolatedFields(raw)) {
      for (const missing of interpolate(text, lookup).missing) {
        findings.add(
          'error',
          [
            ...path,
            ...field
              .split(/\.|\[|\]/)
              .filter(Boolean)
              .map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
          ],
          `\${${missing}} is not set; set ${missing} in the environment or in the agent's .env`,
        );
        failed = true;
      }
    }
  }
  const picked = Object.fromEntries(Object.entries(raw).filter(([key]) => key !== 'auggy' && key !== 'transport'));
  if (transport === 'stdio') {
    const checked = stdioServerSchema.safeParse({ ...picked, type: 'stdio' });
    if (!checked.success) {
      findings.zodIssues(checked.error, path);
      return undefined;
    }
    return failed ? undefined : { name, transport, stdio: checked.data, policy: merged };
  }
  // A url made of variables is checked for shape once they are filled, when the server starts.
  const templated = typeof raw.url === 'string' && raw.url.includes('${');
  const checked = remoteServerSchema.safeParse({ ...picked, type: transport, url: templated ? 'http://variables.invalid' : raw.url });
  if (!checked.success) {
    findings.zodIssues(checked.error, path);
    return undefined;
  }
  return failed ? undefined : { name, transport, remote: { ...checked.data, url: String(raw.url) }, policy: merged };
}

/**
 * Reads and checks `.mcp.json` at the agent root. With `lookup`, every `${VAR}` must have a
 * value: a server missing one is reported and left out.
 */
export function readMcpConfig(agentDir: string, lookup?: Lookup): ConfigRead {
  const path = join(agentDir, MCP_CONFIG_FILE);
  if (!existsSync(path)) return { servers: [], diagnostics: [], found: false };
  // Read like every file the folder names: inside the folder after links, a small regular file.
  const file = readAgentFile(agentDir, MCP_CONFIG_FILE);
  if (!file.ok) return { servers: [], diagnostics: [{ severity: 'error', file: MCP_CONFIG_FILE, message: file.message }], found: true };
  const text = file.text;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { servers: [], diagnostics: [jsonError(text, error)], found: true };
  }
  const findings = new Findings(parseYamlSource(text, MCP_CONFIG_FILE).source);
  if (!isRecord(data)) {
    findings.add('error', [], 'must be a JSON object with an "mcpServers" object in it');
    return { servers: [], diagnostics: findings.list, found: true };
  }
  findings.unknownKeys(data, KNOWN_KEYS.root, []);
  const servers = data.mcpServers;
  if (!isRecord(servers)) {
    findings.add(
      'error',
      servers === undefined ? [] : ['mcpServers'],
      'needs "mcpServers": an object with one entry per server, such as {"files": {"command": "npx", "args": [...]}}',
    );
    return { servers: [], diagnostics: findings.list, found: true };
  }
  const policies: Record<string, ServerPolicy> = {};
  /** Settings under `auggy` itself, which every server takes unless its own say otherwise. */
  let defaults: ServerPolicy = {};
  const auggy = data.auggy;
  if (auggy !== undefined) {
    if (!isRecord(auggy)) findings.add('error', ['auggy'], 'must be an object, such as {"servers": {"ops": {"confirmTools": ["deploy"]}}}');
    else {
      findings.unknownKeys(auggy, KNOWN_KEYS.auggy, ['auggy']);
      const global = globalPolicySchema.safeParse({ connectTimeoutSeconds: auggy.connectTimeoutSeconds });
      if (global.success) defaults = global.data.connectTimeoutSeconds === undefined ? {} : global.data;
      else findings.zodIssues(global.error, ['auggy']);
      if (auggy.servers !== undefined && !isRecord(auggy.servers))
        findings.add('error', ['auggy', 'servers'], 'must be an object with one entry per server name');
      else if (isRecord(auggy.servers)) {
        for (const [name, raw] of Object.entries(auggy.servers)) {
          if (!(name in servers))
            findings.add(
              'warning',
              ['auggy', 'servers', name],
              `names no server in mcpServers (${Object.keys(servers).join(', ') || 'none'}); its settings do nothing`,
            );
          policies[name] = readPolicy(raw, ['auggy', 'servers', name], findings);
        }
      }
    }
  }
  const read: ServerConfig[] = [];
  for (const [name, raw] of Object.entries(servers)) {
    const server = readServer(name, raw, policies[name] ?? {}, defaults, findings, lookup);
    if (server) read.push(server);
  }
  return { servers: read, diagnostics: findings.list, found: true };
}
