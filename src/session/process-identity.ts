import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** What a lock records about the process holding it, so a later one can tell whether it still runs. */
export interface ProcessIdentity {
  pid: number;
  /** Milliseconds since the epoch when the process started: a pid reused later has another. */
  startedAt: number;
  host: string;
  /**
   * Where the kernel says so (Linux /proc): the start in clock ticks since boot and the boot's
   * id. Unlike wall-clock times these do not move when the clock is set, so they are compared exactly.
   */
  startTicks?: number;
  bootId?: string;
}

/** Without /proc, start times come from wall clocks, which drift a little: this close counts as the same. */
const SAME_START_TOLERANCE_MS = 5000;

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A process's start in clock ticks since boot, from /proc; undefined without /proc or without the process. */
function startTicksOf(pid: number): number | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces; field 22, the start time, comes after it.
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  return Number.isFinite(ticks) ? ticks : undefined;
}

function bootId(): string | undefined {
  return readText('/proc/sys/kernel/random/boot_id')?.trim();
}

export function currentProcess(): ProcessIdentity {
  return {
    pid: process.pid,
    startedAt: Math.round(Date.now() - process.uptime() * 1000),
    host: hostname(),
    startTicks: startTicksOf(process.pid),
    bootId: bootId(),
  };
}

/** Whether a process with this pid exists (EPERM: it does, but belongs to another user). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process a lock names is still running. A lock from another machine (a shared
 * folder) cannot be checked from here, so it counts as running.
 */
export function isStillRunning(holder: ProcessIdentity, self: ProcessIdentity = currentProcess()): boolean {
  if (holder.host !== self.host) return true;
  const kernelKnows = holder.startTicks !== undefined && holder.bootId !== undefined && self.bootId !== undefined;
  // A lock from before the last reboot names a process that cannot be running now.
  if (kernelKnows && holder.bootId !== self.bootId) return false;
  if (holder.pid === self.pid) {
    // Our own pid with another start is an earlier process that had the same pid (a restarted container).
    return kernelKnows ? holder.startTicks === self.startTicks : Math.abs(holder.startedAt - self.startedAt) <= SAME_START_TOLERANCE_MS;
  }
  if (!pidExists(holder.pid)) return false;
  if (!kernelKnows) return true;
  const ticks = startTicksOf(holder.pid);
  return ticks === undefined || ticks === holder.startTicks;
}
