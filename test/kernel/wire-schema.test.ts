import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadAgent } from '../../src/agent/load-agent.js';
import { Conversation } from '../../src/kernel/conversation.js';
import { NOBODY } from '../../src/kernel/person.js';
import { defineTool, type KernelTool, type ToolContext } from '../../src/kernel/tool.js';
import { PORTABLE_KEYWORDS, toPortableSchema, wireSchema, type JsonSchema } from '../../src/kernel/wire-schema.js';
import { resolveModelSpec } from '../../src/model/model-spec.js';
import { openSession } from '../../src/session/session.js';
import { copyExample } from '../helpers/agent-fixture.js';
import { BUILTIN_AUGMENTS } from '../../src/augments/registry.js';

const PORTABLE: ReadonlySet<string> = new Set(PORTABLE_KEYWORDS);

/** Every keyword used anywhere in a schema that is not in the portable set, with where it was. */
function unportable(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (!PORTABLE.has(key)) found.push(`${path}.${key}`);
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const [name, property] of Object.entries(value)) found.push(...unportable(property, `${path}.properties.${name}`));
    }
    if (key === 'items' || key === 'additionalProperties') found.push(...unportable(value, `${path}.${key}`));
    if (key === 'anyOf' && Array.isArray(value)) value.forEach((option, i) => found.push(...unportable(option, `${path}.anyOf[${i}]`)));
  }
  return found;
}

const ctx: ToolContext = { toolCallId: 'call_1', signal: new AbortController().signal, emit: () => undefined, person: NOBODY };

/** The tools every built-in augment offers, from the bundled examples that enable them all. */
async function builtInTools(): Promise<KernelTool[]> {
  const tools: KernelTool[] = [];
  for (const example of ['demo', 'support']) {
    const { agent } = await loadAgent(copyExample(example), BUILTIN_AUGMENTS);
    if (!agent) throw new Error(`examples/${example} did not load`);
    const session = await openSession({ agentDir: agent.dir, agentName: agent.yaml.name, agentId: agent.yaml.id });
    const conversation = await Conversation.open({
      augmentTypes: BUILTIN_AUGMENTS,
      agent,
      modelSpec: resolveModelSpec(agent, {}),
      session,
      warn: () => undefined,
    });
    tools.push(...conversation.augments.flatMap((augment) => augment.tools?.() ?? []));
  }
  return tools;
}

describe('the wire schema a provider sees for a tool', () => {
  it('every built-in tool uses only the portable keywords', async () => {
    const tools = await builtInTools();
    expect(new Set(tools.map((tool) => tool.name))).toEqual(
      new Set(['request_input', 'set_user_ask', 'clear_user_ask', 'ask_user', 'board_read', 'board_write', 'workflow__transition']),
    );
    for (const tool of tools) expect({ tool: tool.name, unportable: unportable(wireSchema(tool.inputSchema)) }).toEqual({ tool: tool.name, unportable: [] });
  });

  it("request_input's 2000-character bound is said in words, not sent, and still refuses a longer prompt", async () => {
    const tools = await builtInTools();
    const requestInput = tools.find((tool) => tool.name === 'request_input')!;
    const schema = wireSchema(requestInput.inputSchema);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'The one question the user sees, specific and answerable. (1 to 2000 characters)' },
        reason: { type: 'string', description: 'Why you need to ask; kept for tracing, never shown to the user.' },
      },
      required: ['prompt'],
    });
    const refused = await requestInput.run({ prompt: 'x'.repeat(2001) }, ctx);
    expect(refused).toMatchObject({ isError: true, content: expect.stringMatching(/at most 2000 characters[^]*Call it again/) });
    expect((await requestInput.run({ prompt: 'x'.repeat(2000) }, ctx)).isError).toBeUndefined();
  });

  const everyConstraint = z.object({
    name: z
      .string()
      .min(2)
      .max(40)
      .regex(/^[a-z]+$/)
      .describe('A name.'),
    exact: z.string().length(3),
    email: z.email(),
    link: z.url(),
    id: z.uuid(),
    when: z.iso.datetime(),
    day: z.iso.date(),
    count: z.int().min(1).max(10),
    ratio: z.number().gt(0).lt(1).multipleOf(0.25),
    tags: z.array(z.string().min(1)).min(1).max(5),
    pair: z.tuple([z.string(), z.number()]),
    level: z.enum(['low', 'high']).default('low'),
    kind: z.literal('fixed'),
    either: z.union([z.string(), z.number(), z.array(z.string())]),
    shape: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
    maybe: z.string().nullable().optional(),
    extra: z.record(z.string(), z.unknown()),
    both: z.intersection(z.object({ x: z.string() }), z.object({ y: z.number() })),
  });

  it('a tool using every zod constraint: nothing unportable on the wire, each limit in its description', () => {
    const schema = wireSchema(everyConstraint);
    expect(unportable(schema)).toEqual([]);
    const properties = schema.properties as Record<string, JsonSchema>;
    expect(properties.name.description).toBe('A name. (2 to 40 characters; matching the regular expression ^[a-z]+$)');
    expect(properties.exact.description).toBe('Exactly 3 characters');
    expect(properties.email.description).toBe('An email address');
    expect(properties.link.description).toBe('A URL');
    expect(properties.id.description).toBe('A UUID');
    expect(properties.when.description).toMatch(/^An ISO 8601 date-time/);
    expect(properties.day.description).toMatch(/^A date such as/);
    expect(properties.count).toEqual({ type: 'integer', description: 'From 1 to 10' });
    expect(properties.ratio.description).toBe('Greater than 0; less than 1; a multiple of 0.25');
    expect(properties.tags).toEqual({ type: 'array', items: { type: 'string', description: 'Not empty' }, description: '1 to 5 items' });
    expect(properties.pair).toMatchObject({ type: 'array', items: { type: ['string', 'number'] }, description: 'Exactly 2 items' });
    expect(properties.level).toEqual({ type: 'string', enum: ['low', 'high'], description: 'Default "low"' });
    expect(properties.kind).toEqual({ type: 'string', enum: ['fixed'] });
    expect(properties.either).toEqual({ type: ['string', 'number', 'array'], items: { type: 'string' } });
    expect(properties.shape.anyOf).toHaveLength(2);
    expect(properties.maybe).toEqual({ type: ['string', 'null'] });
    expect(properties.extra).toEqual({ type: 'object', additionalProperties: true });
    expect(properties.both).toMatchObject({ properties: { x: { type: 'string' }, y: { type: 'number' } }, required: ['x', 'y'] });
  });

  it('the zod schema still refuses what the wire no longer says', async () => {
    const tool = defineTool({ name: 'strict', description: 'Every constraint.', inputSchema: everyConstraint, execute: () => ({ content: 'ran' }) });
    const good = {
      name: 'abc',
      exact: 'abc',
      email: 'a@example.com',
      link: 'https://example.com',
      id: '6f1c2d9e-0000-4000-8000-000000000000',
      when: '2026-01-31T09:30:00Z',
      day: '2026-01-31',
      count: 3,
      ratio: 0.5,
      tags: ['t'],
      pair: ['a', 1],
      kind: 'fixed',
      either: 'x',
      shape: { a: 'x' },
      extra: {},
      both: { x: 'x', y: 1 },
    };
    expect(await tool.run(good, ctx)).toEqual({ content: 'ran' });
    for (const bad of [{ name: 'A' }, { exact: 'abcd' }, { email: 'nope' }, { count: 11 }, { ratio: 0.3 }, { tags: [] }, { when: 'yesterday' }]) {
      const result = await tool.run({ ...good, ...bad }, ctx);
      expect(result).toMatchObject({
        isError: true,
        content: expect.stringMatching(/^Invalid arguments for strict: .*Call it again with corrected arguments\.$/s),
      });
    }
  });

  it('a JSON Schema from elsewhere (an MCP server) is made portable too, refs inlined and cycles cut', () => {
    const schema = toPortableSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: 'Args',
      properties: { node: { $ref: '#/$defs/node' }, path: { type: 'string', format: 'uri', minLength: 1 } },
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' }, label: { type: 'string', maxLength: 2000 } } } },
    });
    expect(unportable(schema)).toEqual([]);
    expect(schema).toMatchObject({
      properties: {
        node: { type: 'object', properties: { child: {}, label: { type: 'string', description: 'At most 2000 characters' } } },
        path: { type: 'string', description: 'Not empty; a URL' },
      },
    });
  });
});
