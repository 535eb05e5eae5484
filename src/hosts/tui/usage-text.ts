import { costText } from '../../model/model-prices.js';

/** The session's tokens, and their cost in US dollars where every turn's model had a known price. */
export interface SessionUsage {
  inputTokens: number;
  outputTokens: number;
  cost?: number;
}

/** The status line's cost beside the tokens (`$0.0123`); nothing before anything was spent, or when a price is unknown. */
export function spentText(usage: SessionUsage): string | undefined {
  if (usage.cost === undefined || (usage.inputTokens === 0 && usage.outputTokens === 0)) return undefined;
  return costText(usage.cost);
}

/** `/session`'s line on what the session spent, and where a missing price would come from. */
export function sessionCostLine(usage: SessionUsage, model: string): string {
  const tokens = `${usage.inputTokens} in · ${usage.outputTokens} out tokens`;
  if (usage.cost !== undefined) return `cost    ${costText(usage.cost)} (${tokens}; an estimate from list prices)`;
  return `tokens  ${tokens} (no price known for ${model} or a model used before it; set engine.pricing in agent.yaml)`;
}

/** Adds a turn's use to the session's: the cost stays known only while every turn's is. */
export function addedUsage(total: SessionUsage, turn: SessionUsage | undefined): SessionUsage {
  if (!turn) return total;
  const cost = total.cost !== undefined && turn.cost !== undefined ? total.cost + turn.cost : undefined;
  return { inputTokens: total.inputTokens + turn.inputTokens, outputTokens: total.outputTokens + turn.outputTokens, ...(cost !== undefined ? { cost } : {}) };
}
