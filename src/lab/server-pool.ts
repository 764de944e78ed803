/**
 * Server processes lent from one run to the next, for the runs whose
 * requests change nothing on the server (conjugations: the conjugate tool
 * keeps no state, src/minimcp/tools/conjugate.ts).
 *
 * Why: a server process costs about as much CPU to start as a whole run of
 * a hundred calls costs to answer (`npm run bench`, "cold start"), and a lab
 * with five seeds, or the class sweep with every client profile, starts the
 * same server build over and over. A host does the same with one process:
 * it starts a server once per session and sends it every request of the
 * session (MCP 2025-06-18, Transports and Lifecycle; docs/sources.md, "The
 * MCP specification and JSON-RPC"). What a run measures does not change: every answer of a server
 * that keeps no state is the same on a fresh process and on one that has
 * answered before, and a test holds the sweep to that (test/sweep.test.ts,
 * "a server per run").
 *
 * A server is lent again only when its last run saw nothing but answers
 * (`ServerConnection.reusable`): after a timeout, an exit, a restart or a
 * line of garbage the next run gets a fresh process. Requests that change
 * the server (profile edits, lessons) never come here: each such run has a
 * process of its own, as before.
 */
import { ServerConnection, type ServerCommand } from './connection.js';

/** Whether runs of a workload may share a server process: conjugations only, as the conjugate tool keeps no state. */
export function sharesServer(workload: string): boolean {
  return workload === 'conjugate';
}

/** Idle processes kept at most, the least recently used stopped first: each holds some 40 MB. */
const MAX_IDLE = 12;

export class ServerPool {
  private readonly idle = new Map<string, ServerConnection[]>();
  /** Idle processes, least recently given back first. */
  private readonly idleOrder: ServerConnection[] = [];
  private readonly lent = new Set<ServerConnection>();
  private readonly keys = new Map<ServerConnection, string>();
  /** Processes started, and runs served by a process started for an earlier run: for the timing lines. */
  started = 0;
  reused = 0;

  /** A server for one run: an idle one started with the same command and timeout, or a new one. */
  take(command: ServerCommand, timeoutMs: number): ServerConnection {
    const key = JSON.stringify([command.command, command.args, timeoutMs]);
    const connection = this.idle.get(key)?.pop();
    if (connection) {
      this.idleOrder.splice(this.idleOrder.indexOf(connection), 1);
      this.reused++;
      connection.beginRun();
    } else {
      this.started++;
    }
    const lent = connection ?? new ServerConnection(command, timeoutMs);
    this.keys.set(lent, key);
    this.lent.add(lent);
    return lent;
  }

  /** The run is done with it: kept for the next run when it is fit to serve one, else closed. */
  async give(connection: ServerConnection): Promise<void> {
    const key = this.keys.get(connection);
    this.lent.delete(connection);
    // The traces of the run's last calls (the error probe's) are read before another run begins.
    await connection.settledStderr();
    if (key === undefined || !connection.reusable) {
      this.keys.delete(connection);
      await connection.close();
      return;
    }
    const list = this.idle.get(key) ?? [];
    list.push(connection);
    this.idle.set(key, list);
    this.idleOrder.push(connection);
    while (this.idleOrder.length > MAX_IDLE) {
      const oldest = this.idleOrder.shift()!;
      const of = this.idle.get(this.keys.get(oldest)!)!;
      of.splice(of.indexOf(oldest), 1);
      this.keys.delete(oldest);
      await oldest.close();
    }
  }

  /** Every process this pool started, idle or still lent, stopped. */
  async close(): Promise<void> {
    const all = [...this.lent, ...[...this.idle.values()].flat()];
    this.idle.clear();
    this.idleOrder.length = 0;
    this.lent.clear();
    this.keys.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
