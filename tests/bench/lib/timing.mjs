// Sequential latency measurement: warm-up, then several rounds over every scenario (so that a
// burst of load from other processes hits all scenarios alike), percentiles over all samples,
// and the spread of the per-round medians as a noise indicator.
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fmtMs, load1 } from './common.mjs';

export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    min: s[0] ?? null,
    max: s[s.length - 1] ?? null,
    mean,
  };
}

const HAS_PROC = existsSync('/proc/stat');
/** The machine's CPU time in clock ticks since boot (/proc/stat), busy and in all; null off Linux. */
export function cpuTimes() {
  if (!HAS_PROC) return null;
  const f = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f;
  return {
    busy: user + nice + system + irq + softirq + steal,
    total: user + nice + system + idle + iowait + irq + softirq + steal,
  };
}
/** Share of the machine's CPU time that was busy between two cpuTimes() (0..1). */
const busyShare = (a, b) =>
  a && b && b.total > a.total ? (b.busy - a.busy) / (b.total - a.total) : null;

/**
 * Runs `scenarios` ({id, run(i) → ms | {key: ms}, perRound?, warmup?}) for `warmup` iterations
 * each, then `rounds` rounds of `perRound` iterations of each (a scenario may ask for fewer; with
 * `budgetMs`, a scenario gets at most about that much time over all rounds, and at least 5
 * samples per round). Returns, per metric id (`id` or `id.key`), the stats
 * over all samples plus `roundP50s`, and the load seen (1-minute load average at start/end,
 * machine CPU busy share during each round; the machine has `cpus().length` CPUs).
 */
export async function measure(scenarios, { warmup, rounds, perRound, log, budgetMs = null }) {
  for (const s of scenarios) {
    for (let i = 0; i < (s.warmup ?? warmup); i++) await s.run(-1 - i);
  }
  const samples = new Map();
  const perRoundSamples = new Map();
  const load = {
    cpus: cpus().length,
    loadavgStart: loadavg().map((x) => Number(x.toFixed(2))),
    rounds: [],
  };
  for (let round = 0; round < rounds; round++) {
    const t0 = cpuTimes();
    const l0 = load1();
    for (const s of scenarios) {
      const n = s.perRound ?? perRound;
      const started = performance.now();
      for (let i = 0; i < n; i++) {
        // A slow scenario stops early once over its time budget for the round (at least 5 samples).
        if (budgetMs && i >= 5 && performance.now() - started > budgetMs / rounds) break;
        const out = await s.run(round * n + i);
        const entries =
          typeof out === 'number'
            ? [[s.id, out]]
            : Object.entries(out).map(([k, v]) => [`${s.id}.${k}`, v]);
        for (const [id, ms] of entries) {
          if (!samples.has(id)) samples.set(id, []);
          samples.get(id).push(ms);
          const key = `${id}#${round}`;
          if (!perRoundSamples.has(key)) perRoundSamples.set(key, []);
          perRoundSamples.get(key).push(ms);
        }
      }
    }
    const busy = busyShare(t0, cpuTimes());
    load.rounds.push({
      load1Start: l0,
      load1End: load1(),
      cpuBusy: busy === null ? null : Number(busy.toFixed(2)),
    });
    log?.(
      `round ${round + 1}/${rounds}: load ${l0} → ${load1()}, machine CPU busy ${busy === null ? '?' : Math.round(busy * 100) + '%'}`,
    );
  }
  load.loadavgEnd = loadavg().map((x) => Number(x.toFixed(2)));
  const results = {};
  for (const [id, all] of samples) {
    const roundP50s = [];
    for (let round = 0; round < rounds; round++) {
      const r = perRoundSamples.get(`${id}#${round}`);
      if (r) roundP50s.push(Number(stats(r).p50.toFixed(3)));
    }
    results[id] = { ...stats(all), roundP50s };
  }
  return { results, load };
}

/** `1.23 / 1.40 / 2.10` style summary of per-round medians. */
export const roundsText = (r) => r.roundP50s.map(fmtMs).join(' / ');
