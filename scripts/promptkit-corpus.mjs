#!/usr/bin/env node
// Loads every PromptKit pack and scenario under a folder with the built auggy (run `npm run build`
// first) and prints how many load, and why the others do not. It fetches nothing: point it at a
// copy of PromptKit's repository (or any folder of *.pack.json, *.pack.yaml and Scenario files).
//
//   node scripts/promptkit-corpus.mjs <folder> [--verbose] [--run]
//
// --run also runs the scenarios offline with `auggy test` on each Arena config's own mock
// responses (scripts/promptkit-arena.mjs) and prints how many pass, and how many of the
// persona's messages its self-play turns played (with --verbose: who played each persona).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [folder, ...flags] = process.argv.slice(2);
if (!folder || folder === '--help') {
  console.error('usage: node scripts/promptkit-corpus.mjs <folder> [--verbose] [--run]');
  process.exit(folder ? 0 : 2);
}
const verbose = flags.includes('--verbose');
const runThem = flags.includes('--run');
const { loadWorkflow } = await import(join(root, 'dist/augments/workflow/pack-model.js'));
const { loadScenario } = await import(join(root, 'dist/hosts/test/scenario/load-scenario.js'));

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) walk(path, out);
    else if (stat.isFile() && stat.size < 1024 * 1024) out.push(path);
  }
  return out;
}

const files = walk(folder);
const packs = files.filter((path) => /\.pack\.(json|ya?ml)$/.test(path));
const scenarios = files.filter((path) => /\.ya?ml$/.test(path) && /^kind:\s*Scenario\s*$/m.test(readFileSync(path, 'utf8')));

let packsLoaded = 0;
for (const path of packs) {
  const loaded = loadWorkflow(dirname(path), `./${basename(path)}`);
  if (loaded.ok) packsLoaded++;
  else console.log(`pack ${relative(folder, path)}: ${loaded.error}`);
}

let scenariosLoaded = 0;
const reasons = new Map();
for (const path of scenarios) {
  const loaded = loadScenario(path, relative(folder, path));
  if (loaded.scenario) {
    scenariosLoaded++;
    continue;
  }
  for (const d of loaded.diagnostics) {
    const reason = d.message.replace(/"[^"]*"/, '"…"').slice(0, 90);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    if (verbose) console.log(`scenario ${d.file}:${d.line ?? ''} ${d.message}`);
  }
}
for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${count} × ${reason}`);
console.log(`packs: ${packsLoaded} of ${packs.length} load`);
console.log(`scenarios: ${scenariosLoaded} of ${scenarios.length} load`);

if (runThem) {
  const { runArena } = await import('./promptkit-arena.mjs');
  const arenas = files
    .filter((path) => /\.ya?ml$/.test(path) && /^kind:\s*Arena\s*$/m.test(readFileSync(path, 'utf8')))
    // A config made for the mock provider speaks for a scenario before the config for real ones.
    .sort((a, b) => Number(/mock/i.test(basename(b))) - Number(/mock/i.test(basename(a))));
  const outcome = new Map();
  for (const [index, arena] of arenas.entries()) {
    for (const result of runArena(join(root, 'bin/auggy.js'), arena, index)) if (!outcome.has(result.path)) outcome.set(result.path, result);
  }
  const counts = { passed: 0, failed: 0, error: 0 };
  let withSkips = 0;
  for (const path of scenarios) {
    const result = outcome.get(path);
    if (!result) {
      if (verbose) console.log(`not run ${relative(folder, path)}: no Arena config lists it`);
      continue;
    }
    counts[result.status]++;
    if (result.status === 'passed' && result.skipped > 0) withSkips++;
    if (verbose && result.status !== 'passed') {
      const why = result.why ?? (result.failures ?? []).map((f) => (typeof f === 'string' ? f : JSON.stringify(f))).join(' | ');
      console.log(`${result.status} ${relative(folder, path)}: ${why.slice(0, 300)}`);
    }
  }
  const selfPlay = { scenarios: 0, passed: 0, messages: 0, notPlayed: 0 };
  for (const result of outcome.values()) {
    if (!result.personaMessages && !result.notPlayed?.length) continue;
    selfPlay.scenarios++;
    if (result.status === 'passed') selfPlay.passed++;
    selfPlay.messages += result.personaMessages;
    selfPlay.notPlayed += result.notPlayed.length;
    if (verbose) for (const why of result.notPlayed) console.log(`self-play not played ${relative(folder, result.path)}: ${why}`);
    if (verbose)
      for (const who of result.players) console.log(`self-play ${result.status} ${relative(folder, result.path)}: ${who} (${result.personaMessages} messages)`);
  }
  const notRun = scenarios.length - counts.passed - counts.failed - counts.error;
  console.log(
    `scenarios run offline: ${counts.passed} of ${scenarios.length} pass (${withSkips} of them with checks skipped), ${counts.failed} fail, ${counts.error} could not run, ${notRun} not listed by any Arena config`,
  );
  console.log(
    `self-play: ${selfPlay.scenarios} scenarios with self-play turns ran (${selfPlay.passed} pass), ${selfPlay.messages} persona messages played, ${selfPlay.notPlayed} self-play turns not played`,
  );
}
