import { execa, type ResultPromise } from 'execa';
import { AUGGY_BIN } from './agent-fixture.js';
import { startChatServer, type ChatServer } from './chat-server.js';

/** No provider keys, model overrides or tokens leak in from the developer's shell. */
export const SERVE_ENV = {
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  AUGGY_MODEL: '',
  AUGGY_BASE_URL: '',
  AUGGY_API_KEY: '',
  AUGGY_TOKEN: '',
  NO_COLOR: '1',
};

export interface ServeProcess {
  /** `http://127.0.0.1:PORT`, as the server printed it. */
  url: string;
  pid: number;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the first stderr line matching `pattern`, now or later. */
  waitForStderr(pattern: RegExp): Promise<string>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | undefined>;
  signal(name: NodeJS.Signals): void;
}

type Subprocess = ResultPromise<{ buffer: false; reject: false }>;

/**
 * Spawns `auggy serve <dir> --port 0 ...args` and resolves once it prints the URL it listens
 * on. Rejects with its stderr when it exits before that (a refusal at start).
 */
export async function startServe(dir: string, args: string[] = [], env: Record<string, string> = {}): Promise<ServeProcess> {
  const subprocess: Subprocess = execa(process.execPath, [AUGGY_BIN, 'serve', dir, '--port', '0', ...args], {
    buffer: false,
    reject: false,
    env: { ...SERVE_ENV, ...env },
    extendEnv: true,
  });
  let stdout = '';
  let stderr = '';
  let stderrWaiters: { pattern: RegExp; resolve(line: string): void }[] = [];
  const checkWaiters = () => {
    const lines = stderr.split('\n');
    stderrWaiters = stderrWaiters.filter((waiter) => {
      const line = lines.find((l) => waiter.pattern.test(l));
      if (line !== undefined) waiter.resolve(line);
      return line === undefined;
    });
  };
  subprocess.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    checkWaiters();
  });
  const exited = subprocess.then((result) => result.exitCode);
  const url = await new Promise<string>((resolve, reject) => {
    subprocess.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`auggy serve exited ${code} before listening: ${stderr.trim()}`)));
  });
  return {
    url,
    pid: subprocess.pid ?? -1,
    stderr: () => stderr,
    waitForStderr: (pattern) =>
      new Promise((resolve) => {
        stderrWaiters.push({ pattern, resolve });
        checkWaiters();
      }),
    exited,
    signal: (name) => {
      subprocess.kill(name);
    },
  };
}

/** Runs `auggy serve` expecting it to refuse at start; resolves with its exit code and stderr. */
export async function serveRefusal(args: string[], env: Record<string, string> = {}): Promise<{ exitCode?: number; stdout: string; stderr: string }> {
  const result = await execa(process.execPath, [AUGGY_BIN, 'serve', ...args], { reject: false, env: { ...SERVE_ENV, ...env }, extendEnv: true });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

type Replies = Parameters<typeof startChatServer>[0];

/**
 * The servers one test started: `auggy serve` with its model pointed at a loopback Chat
 * Completions server. Call `stop()` in afterEach so a failed test leaves nothing running.
 */
export class ServeScope {
  private chat: ChatServer | undefined;
  private serve: ServeProcess | undefined;

  async start(dir: string, replies: Replies, args: string[] = []): Promise<{ chat: ChatServer; serve: ServeProcess }> {
    const chat = await startChatServer(replies);
    this.chat = chat;
    const serve = await startServe(dir, ['--model', 'openai-compatible:test', '--base-url', chat.url, ...args]);
    this.serve = serve;
    return { chat, serve };
  }

  /** For servers started without a chat server (scripted agents). */
  adopt(serve: ServeProcess): ServeProcess {
    this.serve = serve;
    return serve;
  }

  async stop(): Promise<void> {
    this.serve?.signal('SIGKILL');
    await this.serve?.exited;
    await this.chat?.close();
    this.serve = undefined;
    this.chat = undefined;
  }
}
