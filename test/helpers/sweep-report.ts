/**
 * A sweep report made without running anything, for the page tests: the
 * sweep's own plan (every lab row x every client profile x every server
 * build, as `npm run class -- sweep` lays them out) with figures drawn from
 * a seeded generator. The real sweep takes minutes of CPU; its page's layout
 * depends on the rows, the columns and the widths of the figures, which this
 * has at their worst: 100% and 0%, a host that refuses the tool list, a fix
 * that falls short, retries in the hundreds.
 */
import { cellVerdict, planSweep, SWEEP_FORMAT, SWEEP_FORMAT_VERSION, type SweepCell, type SweepReport, type SweepRun } from '../../src/class/sweep.js';

/** A small seeded generator (mulberry32): the same report every time. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const CALLS = 100;

function run(variant: string, ok: number, extra: { retries?: number; silentWrong?: number; cleared?: number; mutations?: number; refused?: boolean }): SweepRun {
  const rest = CALLS - ok;
  const finalOutcomes: Record<string, number> = extra.refused ? { 'client-rejected': CALLS } : { ...(ok > 0 ? { ok } : {}), ...(rest > 0 ? { isError: Math.ceil(rest / 2), 'rpc:-32603': Math.floor(rest / 2) } : {}) };
  const retries = extra.retries ?? 0;
  return {
    variant,
    outcomes: finalOutcomes,
    finalOutcomes,
    attempts: finalOutcomes,
    retries: { total: retries, perCall: retries / CALLS, perFailingCall: rest === 0 ? 0 : retries / rest, distribution: { '0': CALLS }, cap: 9 },
    accuracy: { correct: extra.refused ? 0 : Math.round((ok / CALLS) * 30), total: 30 },
    silentWrong: extra.silentWrong ?? 0,
    missingArguments: { calls: 0, share: 0 },
    fieldsCleared: extra.cleared ?? 0,
    mutationsThroughReadOnly: extra.mutations ?? 0,
    errorProbe: { named: 1, total: 1 },
    latencyMs: { p50: 1, p95: 2 },
    host: extra.refused ? { accepted: false, rejection: 'Invalid JSON payload received. Unknown name "additionalProperties" at \'tools[0]\': Cannot find field.' } : { accepted: true },
    serverNotes: [],
  };
}

/** Every lab row x every client profile x every server build, with made-up figures. */
export function sweepFixture(seed = 7): SweepReport {
  const plan = planSweep({ seed: 1, calls: CALLS, jobs: 1 });
  const random = generator(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const cells: SweepCell[] = plan.cells.map((c, i) => {
    const baseOk = i % 11 === 0 ? 100 : int(84, 99);
    const baseline = run('baseline', baseOk, { retries: int(0, 12), silentWrong: i % 13 === 0 ? 2 : 0 });
    const pick = random();
    const variant =
      pick < 0.25
        ? { ...baseline, variant: c.lab.id }
        : pick < 0.35
          ? run(c.lab.id, 0, { refused: true })
          : run(c.lab.id, int(0, baseOk), { retries: int(0, 260), silentWrong: int(0, 30), cleared: c.lab.workload === 'profile' ? int(0, 40) : 0, mutations: c.lab.readOnly ? int(0, 100) : 0 });
    // Mostly back to the baseline; now and then better, or short of it.
    const fix = i % 17 === 5 ? run(`${c.lab.id}+solution`, Math.max(0, baseOk - 9), { retries: 40 }) : i % 9 === 2 ? run(`${c.lab.id}+solution`, 100, { retries: 3 }) : { ...baseline, variant: `${c.lab.id}+solution` };
    const runs = { baseline, variant, solution: fix };
    return { lab: c.lab.id, workload: c.lab.workload, readOnly: c.lab.readOnly, client: c.client, server: c.server, runs, verdict: cellVerdict(runs) };
  });
  return {
    format: SWEEP_FORMAT,
    version: SWEEP_FORMAT_VERSION,
    settings: { seed: 1, calls: CALLS, temperature: 0.7 },
    labs: plan.labs,
    clients: plan.clients.map((p) => ({ id: p.id, title: p.title, asOf: p.asOf })),
    servers: plan.servers,
    cells,
  };
}
