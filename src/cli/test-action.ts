import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EXIT, UsageError } from '../hosts/exit-codes.js';
import type { TestOptionValues } from './test-options.js';
import { loadRunnableAgent } from '../hosts/open-conversation.js';
import { createModelCache } from '../model/model-cache.js';
import { parseModelRef } from '../model/model-spec.js';
import { loadSuite } from '../hosts/test/load-suite.js';
import { filterScenarios, runSuite, type SuiteListener, type SuiteReport } from '../hosts/test/run/run-suite.js';
import { ProgressLine } from '../hosts/test/report/progress.js';
import { scenarioLines, summaryLine, textReport } from '../hosts/test/report/text-report.js';
import { junitReport } from '../hosts/test/report/junit-report.js';
import { jsonReport } from '../hosts/test/report/json-report.js';

function report(suite: SuiteReport, total: number, reporter: TestOptionValues['reporter']): string {
  if (reporter === 'junit') return junitReport(suite);
  if (reporter === 'json') return jsonReport(suite);
  return textReport(suite, total);
}

/** The report's folder is made before anything runs, so a bad --output is known at once. */
function prepareOutput(output: string | undefined): string | undefined {
  if (output === undefined) return undefined;
  const path = resolve(output);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new UsageError(`--output ${output}: its folder cannot be made (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return path;
}

/** 128 + SIGTERM, as shells report a job stopped that way. */
const SIGTERM_EXIT = 143;

/**
 * Ctrl+C, or SIGTERM from a CI job that timed out, stops the run after the current turn: its
 * throwaway session is removed and what finished is reported. A second Ctrl+C does not wait.
 */
function stopOnSignals(controller: AbortController): { release(): void; terminated(): boolean } {
  let interrupts = 0;
  let terminated = false;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) controller.abort(new Error('interrupted'));
    else process.exit(EXIT.canceled);
  };
  const onSigterm = () => {
    terminated = true;
    controller.abort(new Error('terminated'));
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  return {
    release: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
    },
    terminated: () => terminated,
  };
}

/** `auggy test`: every scenario in a throwaway session, a line per result, the report, the exit code. */
export async function testCommand(dir: string, files: string[], options: TestOptionValues): Promise<number> {
  const loaded = loadSuite(dir, files);
  if (!loaded.ok) {
    for (const error of loaded.errors) process.stderr.write(`${error}\n`);
    process.stderr.write(`auggy: ${loaded.files} scenario file${loaded.files === 1 ? ' has' : 's have'} errors; nothing was run\n`);
    return EXIT.usage;
  }
  const scenarios = filterScenarios(loaded.scenarios, options.filter);
  if (scenarios.length === 0) {
    throw new UsageError(`no scenario's name contains "${options.filter}"; the scenarios are: ${loaded.scenarios.map((scenario) => scenario.name).join(', ')}`);
  }
  const outputPath = prepareOutput(options.output);
  if (options.personaModel !== undefined) {
    try {
      parseModelRef(options.personaModel, '--persona-model');
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  }

  const progress = process.stderr.isTTY
    ? new ProgressLine({ write: (text) => process.stderr.write(text), columns: () => process.stderr.columns ?? 80 })
    : undefined;
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    const write = () => process.stderr.write(`auggy: warning: ${message}\n`);
    if (progress) progress.around(write);
    else write();
  };
  const target = await loadRunnableAgent(loaded.agentDir, { model: options.model, baseURL: options.baseUrl }, warn);
  const models = createModelCache();
  const built = await models(target.modelSpec);
  if (!built.ok) throw new UsageError(`the model cannot be used, so nothing was run: ${built.error}`);

  // Text lines go to stdout unless a machine report takes stdout for itself.
  const textToStdout = options.reporter === 'text' || outputPath !== undefined;
  const style = { colour: process.stdout.isTTY === true && !process.env.NO_COLOR };
  const listener: SuiteListener = {
    scenarioStarted: (...args) => progress?.scenarioStarted(...args),
    turnStarted: (turn) => progress?.turnStarted(turn),
    scenarioFinished: (finished) => {
      progress?.scenarioFinished();
      if (textToStdout) process.stdout.write(`${scenarioLines(finished, style).join('\n')}\n`);
    },
  };

  const controller = new AbortController();
  const interrupts = stopOnSignals(controller);
  let suite: SuiteReport;
  try {
    suite = await runSuite(target.agent.yaml.name, scenarios, {
      target,
      models,
      signal: controller.signal,
      warn,
      repeat: options.repeat,
      minPassRate: options.minPassRate,
      listener,
      ...(options.judgeModel !== undefined ? { judgeModel: options.judgeModel } : {}),
      selfPlay: { roles: loaded.selfPlayRoles, ...(options.personaModel !== undefined ? { personaModel: options.personaModel } : {}) },
    });
  } finally {
    interrupts.release();
    progress?.stop();
  }

  if (textToStdout) process.stdout.write(`${summaryLine(suite, scenarios.length, style)}\n`);
  const written = report(suite, scenarios.length, options.reporter);
  if (outputPath !== undefined) {
    try {
      writeFileSync(outputPath, written);
    } catch (error) {
      throw new UsageError(`the report could not be written to ${options.output} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  } else if (options.reporter !== 'text') process.stdout.write(written);

  if (suite.canceled) {
    process.stderr.write('auggy: canceled; the scenarios not finished are not reported\n');
    return interrupts.terminated() ? SIGTERM_EXIT : EXIT.canceled;
  }
  return suite.scenarios.every((finished) => finished.passed) ? EXIT.ok : EXIT.failed;
}
