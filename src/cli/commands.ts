import type { Command } from 'commander';
import type { SetExitCode } from './set-exit-code.js';
import { registerCreate } from './create.js';
import { registerValidate } from './validate.js';
import { registerRun } from './run.js';
import { registerAdmin } from './admin.js';
import { registerServe } from './serve.js';
import { registerMcp } from './mcp.js';
import { registerSessions } from './sessions.js';
import { registerTest } from './test.js';
import { registerAcp } from './acp.js';
import { registerDoctor } from './doctor.js';

/**
 * Every command registers its options and help here; the work itself is imported lazily
 * inside each action so `auggy --version` never loads Ink, React or the model providers.
 */
export function registerCommands(program: Command, setExitCode: SetExitCode): void {
  registerCreate(program, setExitCode);
  registerRun(program, setExitCode);
  registerValidate(program, setExitCode);
  registerAdmin(program, setExitCode);
  registerServe(program, setExitCode);
  registerSessions(program, setExitCode);
  registerMcp(program, setExitCode);
  registerTest(program, setExitCode);
  registerAcp(program, setExitCode);
  registerDoctor(program, setExitCode);
}
