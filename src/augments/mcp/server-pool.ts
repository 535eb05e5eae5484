import type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { CompleteFn } from '../../kernel/augment.js';
import type { EmitEvent } from '../../kernel/events.js';
import type { Closable } from '../../kernel/host-scope.js';
import type { PersonChannel } from '../../kernel/person.js';
import type { ServerConfig } from './config-schema.js';
import type { Lookup } from './interpolate.js';
import { ServerConnection } from './server-connection.js';
import type { CallClock } from './call-clock.js';

/** A tool call waiting on a server: whoever the server's questions (forms, sampling) go to. */
export interface CallSeat {
  server: string;
  toolName: string;
  person: PersonChannel;
  signal: AbortSignal;
  emit: EmitEvent;
  complete: CompleteFn;
  /** The call's timeout: held while the person answers what the server asked. */
  clock: CallClock;
  /** The model's call this seat serves: a form held open for a later run is named after it. */
  toolCallId: string;
  /**
   * Forms the server asked during this call, and whether one was held open for a later run
   * (serve's interrupts): then the call's result is not the answer, and the call runs again.
   */
  forms: { asked: number; held: boolean };
}

/** How the pool answers what servers ask mid-call; the seat is undefined when no call waits. */
export interface SeatRequests {
  elicit(server: ServerConfig, params: ElicitRequestParams, seat: CallSeat | undefined, signal: AbortSignal): Promise<ElicitResult>;
  sample(server: ServerConfig, params: CreateMessageRequestParams, seat: CallSeat | undefined, signal: AbortSignal): Promise<CreateMessageResult>;
}

export type PoolListener = (server: ServerConfig, note?: string) => void;

/** A conversation's hold on the pool's news; `begin`/`end` bracket its turns. */
export interface PoolSubscription {
  begin(): void;
  end(): void;
  close(): void;
}

/** Conversations listening at once: serve drops idle threads without telling the augments. */
const MAX_LISTENERS = 64;

/**
 * Every MCP server of one agent folder, one connection each for the whole process: serve's
 * threads share them. Questions a server asks mid-call go to a call waiting on that server
 * whose person is there, else to any waiting call; with nobody, they get no answer at once.
 */
export class ServerPool implements Closable {
  readonly connections: ServerConnection[];
  private readonly seats = new Set<CallSeat>();
  /** Oldest first; the last is the conversation that was active most recently. */
  private listeners: PoolListener[] = [];
  private readonly busy = new Set<PoolListener>();
  private readonly killOnExit = () => {
    // `exit` handlers run synchronously: a server still up when auggy stops is killed outright.
    for (const connection of this.connections) {
      const pid = connection.pid;
      if (pid !== undefined) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  };

  constructor(servers: readonly ServerConfig[], lookup: Lookup, agentDir: string, requests: SeatRequests) {
    this.connections = servers.map(
      (server) =>
        new ServerConnection(server, lookup, agentDir, {
          elicit: (config, params, signal) => requests.elicit(config, params, this.seatFor(config.name), signal),
          sample: (config, params, signal) => requests.sample(config, params, this.seatFor(config.name), signal),
          changed: (config, note) => this.tell(config, note),
        }),
    );
    process.on('exit', this.killOnExit);
  }

  private seatFor(server: string): CallSeat | undefined {
    const seats = [...this.seats];
    const mine = seats.filter((seat) => seat.server === server);
    return mine.find((seat) => seat.person.present()) ?? seats.find((seat) => seat.person.present()) ?? mine[0] ?? seats[0];
  }

  /**
   * News of a server goes to the conversations in a turn and to the one active last, so a
   * server that dies is one warning, not one per thread serve ever opened.
   */
  private tell(server: ServerConfig, note?: string): void {
    const latest = this.listeners.at(-1);
    for (const listener of [...this.listeners]) if (listener === latest || this.busy.has(listener)) listener(server, note);
  }

  subscribe(listener: PoolListener): PoolSubscription {
    const recent = () => {
      this.listeners = [...this.listeners.filter((l) => l !== listener), listener];
      // The oldest idle ones go; a conversation still in a turn keeps its place.
      while (this.listeners.length > MAX_LISTENERS) {
        const idle = this.listeners.findIndex((l) => !this.busy.has(l));
        if (idle < 0) break;
        this.listeners.splice(idle, 1);
      }
    };
    recent();
    return {
      begin: () => {
        recent();
        this.busy.add(listener);
      },
      end: () => this.busy.delete(listener),
      close: () => {
        this.busy.delete(listener);
        this.listeners = this.listeners.filter((l) => l !== listener);
      },
    };
  }

  connection(server: string): ServerConnection | undefined {
    return this.connections.find((connection) => connection.config.name === server);
  }

  /** Starts every server that is not running: the first turn, and each turn after one died. */
  async ensureAll(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.ensure()));
  }

  /** Waits for tool lists the servers announced as changed. */
  async settled(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.settled()));
  }

  /** Runs a call with its seat taken, so the server's questions during it reach its person. */
  async seated<T>(seat: CallSeat, work: () => Promise<T>): Promise<T> {
    this.seats.add(seat);
    try {
      return await work();
    } finally {
      this.seats.delete(seat);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
    process.off('exit', this.killOnExit);
  }
}
