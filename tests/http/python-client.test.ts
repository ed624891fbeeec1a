import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { useDeployment } from '../harness/deployment';
import { md5, volumeDirs, withVolumes } from '../harness/storage';
import { describeWith, PYTHON } from '../harness/system';
import { makeUser } from '../harness/users';

// An unmodified discovery-driven client in Python (Debian's python3-googleapi) finds the block
// service, writes blocks, saves a collection, reads every block and a file back.
const SCRIPT = join(__dirname, '..', 'clients', 'keep_client.py');
const dirs = volumeDirs(1);
const d = useDeployment(withVolumes(dirs));

describeWith('python3-googleapi', 'a Python client built from the discovery document', () => {
  it('writes and reads blocks and files as existing cluster clients do', async () => {
    const u = await makeUser(d.current);
    const { stdout } = await promisify(execFile)(PYTHON, [SCRIPT, d.current.url, u.token], {
      timeout: 60_000,
    });
    const found = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(found.service_type).toBe('proxy');
    expect(found.locators).toEqual([
      expect.stringMatching(new RegExp(`^${md5('first block')}\\+11\\+A[0-9a-f]{40}@[0-9a-f]{8}$`)),
      expect.stringMatching(new RegExp(`^${md5('second block data')}\\+17\\+A`)),
    ]);
    expect(found.signed).toBe(true);
    expect(found.read_back).toEqual(found.expected.map((h: string) => [200, h]));
    expect(found.file).toEqual([200, 'second block data']);
  }, 90_000);
});
