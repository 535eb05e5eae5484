// The benches' copies of the demo agent: without any `.auggy` a local run left in the checkout,
// so every figure starts from the folder a fresh clone has.
import { cpSync } from 'node:fs';
import { basename } from 'node:path';

export function copyAgentFolder(from, to) {
  cpSync(from, to, { recursive: true, filter: (source) => basename(source) !== '.auggy' });
}
