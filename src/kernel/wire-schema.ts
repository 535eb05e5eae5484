import { z } from 'zod';

/**
 * The JSON Schema keywords every model server accepts in a tool's parameters. Local servers
 * (llama.cpp, vLLM, Ollama, LM Studio) compile a tool's schema into a sampling grammar, and each
 * has its own gaps among the rest: llama.cpp fails to build a grammar for some `maxLength`s,
 * Ollama drops what its tool structs do not know. So the wire carries only types and structure;
 * the limits are said in words, and the tool's zod schema enforces them when the call arrives.
 */
export const PORTABLE_KEYWORDS = ['type', 'properties', 'required', 'items', 'additionalProperties', 'anyOf', 'enum', 'description'] as const;

export type JsonSchema = { [keyword: string]: unknown };

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;
/** A ref inside a ref inside a ref: deeper than any tool input, so it is cut short there. */
const MAX_REF_DEPTH = 8;

const FORMAT_WORDS: Readonly<Record<string, string>> = {
  email: 'an email address',
  uri: 'a URL',
  url: 'a URL',
  uuid: 'a UUID',
  'date-time': 'an ISO 8601 date-time such as 2026-01-31T09:30:00Z',
  date: 'a date such as 2026-01-31',
  time: 'a time such as 09:30:00',
  duration: 'an ISO 8601 duration such as PT5M',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function range(min: number | undefined, max: number | undefined, one: string, many: string): string | undefined {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${plural(min, one, many)}` : `${min} to ${plural(max, one, many)}`;
  if (min !== undefined) return min === 1 && one === 'character' ? 'not empty' : `at least ${plural(min, one, many)}`;
  if (max !== undefined) return `at most ${plural(max, one, many)}`;
  return undefined;
}

function numberOf(schema: JsonSchema, keyword: string): number | undefined {
  const value = schema[keyword];
  // zod bounds every integer by the safe range; saying so to the model would only be noise.
  return typeof value === 'number' && Math.abs(value) !== SAFE_INTEGER_BOUND ? value : undefined;
}

function patternsOf(schema: JsonSchema): string[] {
  const own = typeof schema.pattern === 'string' ? [schema.pattern] : [];
  const nested = Array.isArray(schema.allOf) ? schema.allOf.filter(isObject).flatMap(patternsOf) : [];
  return [...own, ...nested];
}

/** The limits a schema sets that the wire no longer carries, in words. */
export function describeLimits(schema: JsonSchema): string[] {
  const words: string[] = [];
  const length = range(numberOf(schema, 'minLength'), numberOf(schema, 'maxLength'), 'character', 'characters');
  if (length) words.push(length);
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format) words.push(FORMAT_WORDS[format] ?? `in ${format} format`);
  // A format's own pattern says the same thing as the format, in a way nobody reads.
  if (!format) for (const pattern of patternsOf(schema)) words.push(`matching the regular expression ${pattern}`);
  const min = numberOf(schema, 'minimum');
  const max = numberOf(schema, 'maximum');
  if (min !== undefined && max !== undefined) words.push(`from ${min} to ${max}`);
  else if (min !== undefined) words.push(`at least ${min}`);
  else if (max !== undefined) words.push(`at most ${max}`);
  const above = numberOf(schema, 'exclusiveMinimum');
  const below = numberOf(schema, 'exclusiveMaximum');
  if (above !== undefined) words.push(`greater than ${above}`);
  if (below !== undefined) words.push(`less than ${below}`);
  const step = numberOf(schema, 'multipleOf');
  if (step !== undefined) words.push(`a multiple of ${step}`);
  const items = range(numberOf(schema, 'minItems'), numberOf(schema, 'maxItems'), 'item', 'items');
  if (items) words.push(items);
  if (schema.uniqueItems === true) words.push('no item twice');
  const entries = range(numberOf(schema, 'minProperties'), numberOf(schema, 'maxProperties'), 'entry', 'entries');
  if (entries) words.push(entries);
  if (schema.default !== undefined) words.push(`default ${JSON.stringify(schema.default)}`);
  return words;
}

function withLimits(description: unknown, limits: string[]): string | undefined {
  const text = typeof description === 'string' && description.trim() !== '' ? description.trim() : undefined;
  if (limits.length === 0) return text;
  const said = limits.join('; ');
  return text ? `${text} (${said})` : said.charAt(0).toUpperCase() + said.slice(1);
}

type Resolve = (ref: string) => JsonSchema | undefined;

/** `{type: T}` alternatives fold into one `type: [..]`, which every server reads; others stay anyOf. */
function foldAlternatives(options: JsonSchema[]): JsonSchema {
  const simple = options.every(
    (option) => typeof option.type === 'string' && Object.keys(option).every((key) => key === 'type' || key === 'items' || key === 'description'),
  );
  const types = options.map((option) => option.type as string);
  const arrays = options.filter((option) => option.type === 'array');
  if (!simple || new Set(types).size !== types.length || arrays.length > 1) return { anyOf: options };
  return arrays[0]?.items !== undefined ? { type: types, items: arrays[0].items } : { type: types };
}

function portable(schema: unknown, resolve: Resolve, seen: readonly string[]): JsonSchema {
  if (!isObject(schema)) return {};
  if (typeof schema.$ref === 'string') {
    const target = resolve(schema.$ref);
    // A schema that contains itself cannot be written out; past this point any value is allowed.
    if (!target || seen.includes(schema.$ref) || seen.length >= MAX_REF_DEPTH) return withDescription({}, schema.description);
    const { $ref: _ref, ...rest } = schema;
    return portable({ ...target, ...rest }, resolve, [...seen, schema.$ref]);
  }
  const out: JsonSchema = {};
  if (schema.type !== undefined) out.type = schema.type;
  if (schema.const !== undefined) out.enum = [schema.const];
  if (Array.isArray(schema.enum)) out.enum = schema.enum;
  if (isObject(schema.properties)) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, value]) => [name, portable(value, resolve, seen)]));
  }
  if (Array.isArray(schema.required) && schema.required.length > 0) out.required = schema.required;
  if (isObject(schema.additionalProperties)) {
    const value = portable(schema.additionalProperties, resolve, seen);
    out.additionalProperties = Object.keys(value).length === 0 ? true : value;
  } else if (typeof schema.additionalProperties === 'boolean') {
    out.additionalProperties = schema.additionalProperties;
  }
  if (Array.isArray(schema.prefixItems)) {
    // A tuple becomes a list of any of its members; its length is said in words.
    const members = schema.prefixItems.map((member) => portable(member, resolve, seen));
    out.items = members.length === 1 ? members[0] : foldAlternatives(members);
  } else if (isObject(schema.items)) {
    out.items = portable(schema.items, resolve, seen);
  }
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives) Object.assign(out, foldAlternatives(alternatives.map((option) => portable(option, resolve, seen))));
  if (Array.isArray(schema.allOf))
    mergeAll(
      out,
      schema.allOf.filter((part) => isObject(part) && hasStructure(part)).map((part) => portable(part, resolve, seen)),
    );
  return withDescription(out, withLimits(schema.description, describeLimits(schema)));
}

function withDescription(schema: JsonSchema, description: unknown): JsonSchema {
  if (typeof description === 'string' && description !== '') schema.description = description;
  return schema;
}

function hasStructure(schema: JsonSchema): boolean {
  return ['type', 'properties', 'items', 'anyOf', 'oneOf', 'enum', 'const', '$ref'].some((key) => schema[key] !== undefined);
}

/** An intersection (`allOf`) of object schemas is one object with every member's properties. */
function mergeAll(target: JsonSchema, parts: JsonSchema[]): void {
  for (const part of parts) {
    if (isObject(part.properties)) target.properties = { ...(isObject(target.properties) ? target.properties : {}), ...part.properties };
    if (Array.isArray(part.required)) target.required = [...new Set([...(Array.isArray(target.required) ? target.required : []), ...part.required])];
    for (const key of ['type', 'items', 'enum', 'anyOf'] as const) if (target[key] === undefined && part[key] !== undefined) target[key] = part[key];
  }
}

/** Any JSON Schema (a zod tool's, or one that came from elsewhere, such as an MCP server) in portable form. */
export function toPortableSchema(schema: JsonSchema): JsonSchema {
  const resolve: Resolve = (ref) => {
    if (ref === '#') return schema;
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const defs = match ? schema[match[1]] : undefined;
    const target = match && isObject(defs) ? defs[match[2]] : undefined;
    return isObject(target) ? target : undefined;
  };
  const out = portable(schema, resolve, []);
  // Every provider wants an object at the top of a tool's parameters.
  if (out.type === undefined) out.type = 'object';
  if (out.type === 'object' && out.properties === undefined) out.properties = {};
  return out;
}

/** The schema a provider is sent for a tool's zod input schema. */
export function wireSchema(inputSchema: z.ZodType): JsonSchema {
  return toPortableSchema(z.toJSONSchema(inputSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}
