import { NO_ANSWER } from './ask-events.js';
import type { PackState } from './pack-schema.js';

/**
 * Terminal as PromptKit reads it: `terminal: true`, or a state with no events to leave by (a
 * version 1 pack's last state has no on_event at all). An ask state moves on its own events.
 */
export function isTerminalState(state: PackState): boolean {
  if (state.terminal === true) return true;
  return state.ask === undefined && Object.keys(state.on_event ?? {}).length === 0;
}

/**
 * A state that keeps the floor when the agent moves into it. `control` is inert on externally
 * driven states, and on ask states: there the person holds the floor.
 */
function keepsFloor(state: PackState): boolean {
  const orchestration = state.orchestration ?? 'internal';
  return state.ask === undefined && state.control === 'agent' && !isTerminalState(state) && (orchestration === 'internal' || orchestration === 'hybrid');
}

function targetsOf(states: Record<string, PackState>, name: string): string[] {
  return Object.values(states[name]?.on_event ?? {}).filter((target) => target in states);
}

/** Strongly connected components of the floor-keeping states (Tarjan), in declaration order. */
function agentComponents(states: Record<string, PackState>, agentStates: Set<string>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const visit = (name: string): void => {
    index.set(name, counter);
    low.set(name, counter);
    counter++;
    stack.push(name);
    onStack.add(name);
    for (const next of targetsOf(states, name).filter((target) => agentStates.has(target))) {
      if (!index.has(next)) {
        visit(next);
        low.set(name, Math.min(low.get(name) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(name, Math.min(low.get(name) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(name) === index.get(name)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== name);
      components.push(component);
    }
  };
  for (const name of agentStates) if (!index.has(name)) visit(name);
  const order = Object.keys(states);
  return components.map((component) => component.sort((a, b) => order.indexOf(a) - order.indexOf(b)));
}

function canReachExit(states: Record<string, PackState>, from: string[], agentStates: Set<string>): boolean {
  const seen = new Set(from);
  const queue = [...from];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const target of targetsOf(states, name)) {
      if (!agentStates.has(target)) return true;
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return false;
}

/**
 * Cycles made only of floor-keeping states that can never hand the turn back (no reachable user,
 * terminal or external state) and that no `max_visits` bounds: only engine.budget would stop them.
 */
export function unboundedAgentCycles(states: Record<string, PackState>): string[][] {
  const agentStates = new Set(Object.keys(states).filter((name) => keepsFloor(states[name])));
  return agentComponents(states, agentStates).filter((component) => {
    const isCycle = component.length > 1 || targetsOf(states, component[0]).includes(component[0]);
    if (!isCycle) return false;
    if (component.some((name) => states[name].max_visits !== undefined)) return false;
    return !canReachExit(states, component, agentStates);
  });
}

/**
 * Ask states whose NoAnswer leads only through ask states back to themselves, with no max_visits
 * on any of them: where nobody can answer (--print, serve, /away) each would be asked again and
 * again, so the runtime stops such a loop. Each loop once, in walking order.
 */
export function noAnswerLoops(states: Record<string, PackState>): string[][] {
  const loops: string[][] = [];
  const covered = new Set<string>();
  for (const start of Object.keys(states)) {
    const path: string[] = [];
    let current: string | undefined = start;
    while (current !== undefined && states[current]?.ask !== undefined && !path.includes(current)) {
      path.push(current);
      current = states[current].on_event?.[NO_ANSWER];
    }
    if (current === undefined || !path.includes(current)) continue;
    const loop = path.slice(path.indexOf(current));
    if (loop.some((name) => covered.has(name))) continue;
    loop.forEach((name) => covered.add(name));
    if (loop.every((name) => states[name].max_visits === undefined)) loops.push(loop);
  }
  return loops;
}
