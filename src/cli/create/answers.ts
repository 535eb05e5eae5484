import { PROVIDERS, type ProviderId } from '../../agent/schema.js';
import { DEFAULT_BASE_URLS, DEFAULT_MODELS, DEFAULT_PROVIDER, PROVIDER_SUMMARIES } from '../../agent/provider-defaults.js';
import { didYouMean } from '../../agent/suggest.js';
import { BUILTIN_AUGMENTS, findAugmentFactory } from '../../augments/registry.js';
import { UsageError } from '../../hosts/exit-codes.js';
import { askChoice, askText, type Prompter } from '../prompts.js';
import { defaultDisplayName } from './agent-name.js';

/** `auggy create` flags as commander hands them over. */
export interface CreateFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  displayName?: string;
  purpose?: string;
  creator?: string;
  augment?: string[];
  yes?: boolean;
  dir?: string;
}

/** Everything a new agent folder is rendered from. */
export interface CreateAnswers {
  name: string;
  displayName: string;
  purpose: string;
  /** Who made the agent: `creator.displayName`, as other auggy releases write it. */
  creator: string;
  provider: ProviderId;
  model: string;
  baseURL?: string;
  /** Augment types in agent.yaml order; turnControl first. */
  augments: string[];
}

/** The flags after checking, before anything is asked. */
export interface CheckedFlags {
  provider?: ProviderId;
  model?: string;
  baseURL?: string;
  displayName?: string;
  purpose?: string;
  creator?: string;
  augments: string[];
}

/** What other auggy releases write when nobody named the creator. */
export const DEFAULT_CREATOR = 'the creator';

export const DEFAULT_PURPOSE = 'Help the person with what they ask, and ask when something only they can answer blocks the work.';

/** The default augment every new agent gets. */
const BASE_AUGMENT = 'turnControl';

function oneLine(text: string | undefined): string | undefined {
  const collapsed = text?.replace(/\s+/g, ' ').trim();
  return collapsed === '' ? undefined : collapsed;
}

export function baseURLProblem(value: string): string | undefined {
  const valid = URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
  return valid ? undefined : `"${value}" is not an http(s) URL; write it in full, like http://127.0.0.1:11434/v1`;
}

/** Checks the flags that name things auggy knows, so a typo is refused before anything is asked. */
export function checkFlags(flags: CreateFlags): CheckedFlags {
  let provider: ProviderId | undefined;
  if (flags.provider !== undefined) {
    if (!(PROVIDERS as readonly string[]).includes(flags.provider)) {
      throw new UsageError(`--provider "${flags.provider}" is not one of ${PROVIDERS.join(', ')}${didYouMean(flags.provider, PROVIDERS)}`);
    }
    provider = flags.provider as ProviderId;
  }
  if (flags.model !== undefined && flags.model.trim() === '') throw new UsageError('--model is empty; give a model name, like --model gpt-5.4-mini');
  if (flags.baseUrl !== undefined) {
    const problem = baseURLProblem(flags.baseUrl);
    if (problem) throw new UsageError(`--base-url ${problem}`);
    if (provider === 'scripted') throw new UsageError('--base-url does not apply to the scripted provider: it runs offline from script.yaml');
  }
  const augments = [BASE_AUGMENT];
  for (const id of flags.augment ?? []) {
    if (!findAugmentFactory(id)) {
      const known = BUILTIN_AUGMENTS.map((factory) => factory.type);
      throw new UsageError(`--augment "${id}" is not a built-in augment${didYouMean(id, known)} (available: ${known.join(', ')})`);
    }
    if (!augments.includes(id)) augments.push(id);
  }
  return {
    provider,
    model: flags.model?.trim(),
    baseURL: flags.baseUrl,
    displayName: oneLine(flags.displayName),
    purpose: oneLine(flags.purpose),
    creator: oneLine(flags.creator),
    augments,
  };
}

/** Fills what the flags left open: from the prompter when there is one, from the defaults when not. */
export async function completeAnswers(name: string, flags: CheckedFlags, prompter?: Prompter): Promise<CreateAnswers> {
  const provider =
    flags.provider ??
    (prompter
      ? await askChoice(
          prompter,
          'Provider',
          PROVIDERS.map((value) => ({ value, summary: PROVIDER_SUMMARIES[value] })),
          DEFAULT_PROVIDER,
        )
      : DEFAULT_PROVIDER);
  const model = flags.model ?? (prompter ? await askText(prompter, 'Model', DEFAULT_MODELS[provider]) : DEFAULT_MODELS[provider]);
  const defaultBaseURL = DEFAULT_BASE_URLS[provider];
  let baseURL = flags.baseURL;
  if (baseURL === undefined && defaultBaseURL !== undefined) {
    baseURL = prompter ? await askText(prompter, 'Server URL', defaultBaseURL, baseURLProblem) : defaultBaseURL;
  }
  const displayFallback = defaultDisplayName(name);
  const displayName = flags.displayName ?? (prompter ? oneLine(await askText(prompter, 'Display name', displayFallback)) : undefined) ?? displayFallback;
  const purpose = flags.purpose ?? (prompter ? oneLine(await askText(prompter, 'Purpose', DEFAULT_PURPOSE)) : undefined) ?? DEFAULT_PURPOSE;
  const creator = flags.creator ?? (prompter ? oneLine(await askText(prompter, 'Creator', DEFAULT_CREATOR)) : undefined) ?? DEFAULT_CREATOR;
  return { name, displayName, purpose, creator, provider, model, baseURL, augments: flags.augments };
}
