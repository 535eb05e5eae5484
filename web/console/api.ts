/** The server's refusal of a request the Console made: its status and its one sentence. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ThreadSummary {
  threadId: string;
  updatedAt: string;
  firstMessage: string;
  ended: string;
  question?: string;
}

export interface Interrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  expiresAt?: string;
}

/** The context meter: tokens the model's window holds, of its stated limit. */
export interface ContextReading {
  used: number;
  limit?: number;
  measured: boolean;
}

/** GET /agent/thread: a thread as the page draws it after a reload. */
export interface ThreadDetail {
  threadId: string;
  events: { type: string; [key: string]: unknown }[];
  state: Record<string, unknown>;
  indicators: string[];
  context?: ContextReading;
  interrupts: Interrupt[];
  running: boolean;
}

export interface AdminSection {
  id: string;
  type: string;
  tools?: string[];
  behavior?: string;
  rows?: { label: string; value: string }[];
}

export interface AdminReport {
  agent: { name: string; displayName: string; model: string; dir: string };
  systemPrompt: { characters: number };
  augments: AdminSection[];
}

/** The bearer token lives for the tab: asked once, kept across reloads, gone with the tab. */
const TOKEN_KEY = 'auggy.token';

export function savedToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function saveToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function authHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new ApiError(response.status, body.error ?? `the server answered ${response.status}`);
  return body as T;
}

/** The server's JSON routes, each request carrying the token when there is one. */
export class ConsoleApi {
  constructor(readonly token: string | undefined) {}

  async get<T>(path: string): Promise<T> {
    return answer<T>(await fetch(path, { headers: { accept: 'application/json', ...authHeaders(this.token) } }));
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...authHeaders(this.token) },
      body: JSON.stringify(body),
    });
    return answer<T>(response);
  }

  threads(): Promise<{ threads: ThreadSummary[] }> {
    return this.get('/agent/threads');
  }

  thread(threadId: string): Promise<ThreadDetail> {
    return this.get(`/agent/thread?threadId=${encodeURIComponent(threadId)}`);
  }

  /** An image a user message of the thread carried (GET /agent/attachment), as the bytes the server checked. */
  async attachment(threadId: string, id: string): Promise<Blob> {
    const response = await fetch(`/agent/attachment?threadId=${encodeURIComponent(threadId)}&id=${encodeURIComponent(id)}`, {
      headers: authHeaders(this.token),
    });
    if (!response.ok) throw new ApiError(response.status, `the server answered ${response.status}`);
    return response.blob();
  }

  admin(): Promise<AdminReport> {
    return this.get('/admin');
  }

  command(threadId: string, command: string): Promise<{ lines: string[]; isError: boolean; state: Record<string, unknown>; context?: ContextReading }> {
    return this.post('/agent/command', { threadId, command });
  }

  writeBoard(threadId: string, line: string, text: string): Promise<{ board: Record<string, unknown> }> {
    return this.post('/agent/board', { threadId, lines: { [line]: text } });
  }
}
