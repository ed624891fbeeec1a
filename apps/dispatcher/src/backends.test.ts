import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBackend } from './local';
import { niceOf, SlurmBackend } from './slurm';

/** execution.md §2.2: placement on the local backend and the sbatch arguments. */
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'svc-backend-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const r = (vcpus: number, ram: number) => ({ uuid: 'x', recordTokenUuid: 't', vcpus, ram });

describe('local placement', () => {
  it('places a container only where the sums stay within MaxVCPUs and MaxRAM', () => {
    const b = new LocalBackend(dir, 4, 1000 * MiB, '/nonexistent');
    expect(b.fitsNow(2, 500 * MiB, [r(2, 400 * MiB)])).toBe(true);
    expect(b.fitsNow(3, 100 * MiB, [r(2, 400 * MiB)])).toBe(false);
    expect(b.fitsNow(1, 700 * MiB, [r(2, 400 * MiB)])).toBe(false);
  });

  it('a runner whose command has exited holds no slot', () => {
    const b = new LocalBackend(dir, 2, 1000 * MiB, '/nonexistent');
    const finishing = { ...r(2, 900 * MiB), commandEnded: true };
    expect(b.fitsNow(2, 900 * MiB, [finishing])).toBe(true);
    expect(b.fitsNow(1, 0, [finishing, r(2, 0)])).toBe(false);
  });

  it('a restarted dispatcher knows which runners finish a container whose command exited', async () => {
    // two "runners" alive (this process), as a previous dispatcher left them
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    mkdirSync(join(dir, 'runners'), { recursive: true });
    for (const uuid of ['zzzzz-dz642-00000000000000a', 'zzzzz-dz642-00000000000000b']) {
      const state = { ...r(1, MiB), uuid, pid: process.pid, started };
      writeFileSync(join(dir, 'runners', `${uuid}.json`), JSON.stringify(state));
    }
    writeFileSync(join(dir, 'runners', 'zzzzz-dz642-00000000000000a.ended'), '');
    const b = new LocalBackend(dir, 2, 1000 * MiB, '/nonexistent');
    const runners = await b.list();
    expect(runners.get('zzzzz-dz642-00000000000000a')?.commandEnded).toBe(true);
    expect(runners.get('zzzzz-dz642-00000000000000b')?.commandEnded).toBe(false);
    expect(b.fitsNow(1, 0, [...runners.values()])).toBe(true);
    expect(b.fitsNow(2, 0, [...runners.values()])).toBe(false);
    expect(
      b
        .known()
        .map((k) => k.uuid)
        .sort(),
    ).toEqual([...runners.keys()].sort());
  });

  it('one that can never fit gets the capacity message', () => {
    const b = new LocalBackend(dir, 4, 1000, '/nonexistent');
    expect(b.neverFits(4, 1000)).toBeNull();
    expect(b.neverFits(5, 10)).toBe(
      'container requires 5 VCPUs and 10 bytes of RAM; the largest this cluster can run is 4 VCPUs and 1000 bytes',
    );
  });
});

describe('sbatch arguments', () => {
  it('cpus, mem with the reserve, partitions, time, job name, nice, then SbatchArguments', () => {
    const b = new SlurmBackend({
      stateDir: dir,
      sbatchArguments: ['--account=lab'],
      reserveExtraRAM: 256 * MiB,
    });
    const priority = 500n * 2n ** 50n - 1700000000000n;
    expect(
      b.sbatchArgs(
        { uuid: 'home1-dz642-000000000000001', recordTokenUuid: 't', vcpus: 2, ram: 100 * MiB + 1 },
        priority,
        {
          maxRunTime: 61,
          partitions: ['a', 'b'],
        },
      ),
    ).toEqual([
      '--cpus-per-task=2',
      '--mem=357M',
      '--partition=a,b',
      '--time=2',
      '--job-name=home1-dz642-000000000000001',
      '--nice=501',
      '--account=lab',
    ]);
    expect(niceOf(1000n * 2n ** 50n)).toBe(0);
    expect(b.sbatchArgs(r(1, MiB), 2n ** 50n, { maxRunTime: 0, partitions: [] })).toEqual([
      '--cpus-per-task=1',
      '--mem=257M',
      '--job-name=x',
      '--nice=999',
      '--account=lab',
    ]);
  });
});
