import type { Client, ClientConfig, Notification } from 'pg';

/** A state file of a session changed, written by the handle with `token`. */
export interface StateChange {
  agentKey: string;
  sessionId: string;
  name: string;
  token: string;
}

export interface StateFeedOptions {
  connect(config: ClientConfig): Client;
  config: ClientConfig;
  channel: string;
  onChange(change: StateChange): void;
  /** The feed was down and is back: changes made meanwhile were not heard, so read everything again. */
  onResumed(): void;
  log(message: string): void;
}

function parseChange(notification: Notification): StateChange | undefined {
  try {
    const value = JSON.parse(notification.payload ?? '') as { a?: unknown; s?: unknown; n?: unknown; h?: unknown };
    if (typeof value.a !== 'string' || typeof value.s !== 'string' || typeof value.n !== 'string' || typeof value.h !== 'string') return undefined;
    return { agentKey: value.a, sessionId: value.s, name: value.n, token: value.h };
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL LISTEN on one connection of its own: how a replica hears that another one changed a
 * state file (a board line written by a client whose request landed elsewhere). The connection
 * is opened again after it drops, and what may have been missed meanwhile is read afresh.
 */
export class StateFeed {
  private client: Client | undefined;
  private starting: Promise<void> | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: StateFeedOptions) {}

  /** Starts listening, once; later calls wait for the same start. */
  start(): Promise<void> {
    this.starting ??= this.connect(false);
    return this.starting;
  }

  private async connect(resumed: boolean): Promise<void> {
    const client = this.options.connect(this.options.config);
    client.on('notification', (notification) => {
      const change = parseChange(notification);
      if (change) this.options.onChange(change);
    });
    client.on('error', () => this.dropped(client));
    client.on('end', () => this.dropped(client));
    await client.connect();
    await client.query(`LISTEN ${this.options.channel}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    if (resumed) this.options.onResumed();
  }

  private dropped(client: Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.options.log('the session store connection for board changes dropped; reconnecting');
    const again = () => {
      this.retry = undefined;
      if (this.closed) return;
      this.connect(true).catch(() => {
        this.retry = setTimeout(again, 1000);
        this.retry.unref();
      });
    };
    this.retry = setTimeout(again, 200);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
