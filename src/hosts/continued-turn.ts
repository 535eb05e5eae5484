/**
 * What stands, in every host, where the person's words would be for a turn an augment started
 * (a goal's next turn): `by` is the augment that keeps the floor.
 */
export function continuedLine(by: string): string {
  return `↻ ${by}: the agent keeps the floor for the next turn`;
}
