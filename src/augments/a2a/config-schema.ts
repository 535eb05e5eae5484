import { z } from 'zod';

/** `a2a_<name>` must be a tool name every provider takes. */
const NAME_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

export const remoteAgentSchema = z.object({
  name: z.string().regex(NAME_PATTERN, 'use letters, digits, - and _ only, at most 40 characters (the tool is a2a_<name>)'),
  /** Where the agent is: its base URL (the card is at /.well-known/agent-card.json) or the card's own URL. */
  url: z.url({ error: 'expected an http(s) URL of the agent, such as http://127.0.0.1:8787' }),
  /** What the model reads about the agent; the card's description when absent. */
  description: z.string().trim().min(1).optional(),
  /** The name of a variable (.env or the environment) holding the bearer token the agent takes. */
  tokenEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected the name of a variable, such as DEMO_TOKEN')
    .optional(),
});

export const a2aConfigSchema = z.object({
  agents: z.array(remoteAgentSchema).min(1, 'list at least one agent: agents: [{name, url}]'),
});

export type RemoteAgentConfig = z.infer<typeof remoteAgentSchema>;
