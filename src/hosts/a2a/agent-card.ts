import { AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION, duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { AugmentType, LoadedAgent } from '../../agent/types.js';
import { IMAGE_MEDIA_TYPES } from '../../kernel/image-input.js';

/** The name the card gives the bearer scheme, when the server takes a token. */
export const BEARER_SCHEME = 'bearer';

export interface CardOptions {
  /** The JSON-RPC endpoint, as the caller reached this server. */
  endpoint: string;
  /** True when AUGGY_TOKEN (or --token) is set: callers must send it as a bearer token. */
  bearer: boolean;
  /** The version to show when agent.yaml names none: auggy's own. */
  fallbackVersion: string;
  augmentTypes: readonly AugmentType[];
}

function skill(id: string, name: string, description: string, tags: string[]): AgentSkill {
  return { id, name, description, tags, examples: [], inputModes: [], outputModes: [], securityRequirements: [] };
}

/** The folder's skills, then each enabled augment that has no skill of its own, with its tools. */
function skillsOf(agent: LoadedAgent, augmentTypes: readonly AugmentType[]): AgentSkill[] {
  const fromFolder = agent.skills.map((item) => skill(item.id, item.name, item.description, ['skill']));
  const named = new Set(agent.skills.map((item) => item.id));
  const fromAugments = agent.augments.flatMap((augment) => {
    if (named.has(augment.id) || named.has(augment.type)) return [];
    const type = augmentTypes.find((candidate) => candidate.type === augment.type);
    const tools = type?.describe(agent, augment.config).tools ?? [];
    const description = tools.length > 0 ? `The ${augment.type} augment; its tools: ${tools.join(', ')}.` : `The ${augment.type} augment.`;
    return [skill(augment.id, augment.type, description, ['augment'])];
  });
  return [...fromFolder, ...fromAugments];
}

/** The A2A v1.0 Agent Card of the folder's agent, in the SDK's form (`AgentCard.toJSON` gives the wire's). */
export function agentCard(agent: LoadedAgent, options: CardOptions): AgentCard {
  const declared = (agent.yaml as Record<string, unknown>).version;
  const version = typeof declared === 'string' || typeof declared === 'number' ? String(declared) : options.fallbackVersion;
  const purpose = agent.yaml.purpose?.trim();
  return {
    name: agent.displayName,
    description: purpose && purpose !== '' ? purpose : `The auggy agent ${agent.yaml.name}.`,
    // The same endpoint serves v0.3 callers through the SDK's compat layer, so the card lists it for 0.3 too.
    supportedInterfaces: duplicateInterfacesForLegacy([{ url: options.endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }], ['JSONRPC']),
    provider: undefined,
    version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: options.bearer
      ? {
          [BEARER_SCHEME]: {
            scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'the server token (AUGGY_TOKEN)', scheme: 'Bearer', bearerFormat: '' } },
          },
        }
      : {},
    securityRequirements: options.bearer ? [{ schemes: { [BEARER_SCHEME]: { list: [] } } }] : [],
    // Images come as file parts (raw bytes or a data URL), unless the folder says its model takes none.
    defaultInputModes: agent.engine.vision === false ? ['text'] : ['text', ...IMAGE_MEDIA_TYPES],
    defaultOutputModes: ['text'],
    skills: skillsOf(agent, options.augmentTypes),
    signatures: [],
  };
}

/**
 * The card as it goes on the wire. A caller that names no A2A version (v0.3 clients send no
 * A2A-Version header; v1.0 ones always do) also finds v0.3's top-level endpoint fields, which v1.0
 * readers ignore: the SDK translates a whole card to v0.3 only inside its Express router.
 */
export function agentCardJson(card: AgentCard, requestedVersion: string | undefined): unknown {
  const wire = AgentCard.toJSON(card) as Record<string, unknown>;
  const legacy = requestedVersion === undefined || requestedVersion.trim() === '' || requestedVersion.trim().startsWith('0.');
  if (!legacy) return wire;
  const [endpoint] = card.supportedInterfaces;
  return { ...wire, url: endpoint?.url, preferredTransport: 'JSONRPC', protocolVersion: A2A_LEGACY_PROTOCOL_VERSION };
}
