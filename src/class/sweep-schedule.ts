/**
 * Which run a sweep worker takes next.
 *
 * Why not first come, first served: each worker thread keeps its own pool of
 * server processes (src/lab/server-pool.ts), keyed by the server a run
 * starts. Handed out in plan order, the runs of one server land on every
 * worker, and each worker starts that server for itself. Handed out by
 * server, each server is started by one worker and lent there from run to
 * run; `npm run bench` prints the sweep's process count.
 *
 * The order changes no figure: runs are deterministic by seed, whichever
 * worker makes them and when (src/class/sweep-worker.ts).
 */

/** A run as the scheduler sees it: its id, and the server it may share (undefined: it starts its own process). */
export interface Schedulable {
  id: number;
  sharedServer: string | undefined;
}

/** What one worker has done so far: the servers its pool holds or is using, the last used first. */
export interface WorkerState {
  servers: string[];
  /** Servers lent to a run in flight on this worker: taking another run of one would start a second process. */
  busy: Map<string, number>;
}

export function newWorkerState(): WorkerState {
  return { servers: [], busy: new Map() };
}

export class Schedule<T extends Schedulable> {
  private readonly pending: T[];
  private readonly byId: Map<number, T>;
  /** The worker whose pool a server belongs to. */
  private readonly owner = new Map<string, WorkerState>();

  constructor(tasks: T[]) {
    this.pending = [...tasks];
    this.byId = new Map(tasks.map((t) => [t.id, t]));
  }

  get left(): number {
    return this.pending.length;
  }

  /**
   * The next run for `worker`, in this order of preference:
   * 1. a run of a server the worker holds idle (the last used first): a process is lent, none started;
   * 2. a run with a process of its own (requests that change the server): it starts one wherever it runs;
   * 3. a run of a server no worker holds yet: this worker starts it, and keeps its runs;
   * 4. any run left, another worker's server included: near the end no worker waits for another.
   */
  take(worker: WorkerState): T | undefined {
    const index = firstFound([
      ...worker.servers.filter((s) => !worker.busy.has(s)).map((idle) => () => this.pending.findIndex((t) => t.sharedServer === idle)),
      () => this.pending.findIndex((t) => t.sharedServer === undefined),
      () => this.pending.findIndex((t) => !this.owner.has(t.sharedServer!)),
      () => (this.pending.length > 0 ? 0 : -1),
    ]);
    if (index < 0) return undefined;
    const [task] = this.pending.splice(index, 1) as [T];
    const server = task.sharedServer;
    if (server !== undefined) {
      if (!this.owner.has(server)) this.owner.set(server, worker);
      worker.servers = [server, ...worker.servers.filter((s) => s !== server)];
      worker.busy.set(server, (worker.busy.get(server) ?? 0) + 1);
    }
    return task;
  }

  /** The run is done: its server is idle again on that worker. */
  done(worker: WorkerState, id: number): void {
    const server = this.byId.get(id)?.sharedServer;
    if (server === undefined) return;
    const inFlight = (worker.busy.get(server) ?? 1) - 1;
    if (inFlight > 0) worker.busy.set(server, inFlight);
    else worker.busy.delete(server);
  }
}

/** The first index that one of the searches, tried in order, finds (-1: none). */
function firstFound(searches: (() => number)[]): number {
  for (const search of searches) {
    const index = search();
    if (index >= 0) return index;
  }
  return -1;
}
