import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transformSync } from '@swc/core';
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';

/**
 * The client README's examples are the files in packages/client/examples (type-checked by
 * `pnpm typecheck`); here each is checked to be in the README verbatim and run as a program
 * of its own against a cluster, the way a user would run it.
 */
const d = useDeployment();
const CLIENT = join(__dirname, '../../packages/client');
const EXAMPLES = join(CLIENT, 'examples');
const run = promisify(execFile);
let dir: string;
let user: TestUser;
let email: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-examples-'));
  user = await makeUser(d.current);
  email = (await user.client.api.users.current()).email!;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Compiles an example as a user's build would, then runs it with node. */
async function runExample(file: string, args: string[] = []) {
  const source = readFileSync(join(EXAMPLES, file), 'utf8');
  const { code } = transformSync(source, {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  const js = join(dir, file.replace(/\.ts$/, '.js'));
  writeFileSync(js, code);
  // Asynchronously: the cluster it talks to runs in this process.
  const { stdout } = await run(process.execPath, [js, ...args], {
    env: {
      PATH: process.env['PATH'],
      NODE_PATH: join(__dirname, '../node_modules'),
      SVC_API_HOST: d.current.url,
      SVC_API_TOKEN: user.token,
    },
    timeout: 30_000,
  });
  return stdout.trim().split('\n');
}

describe('the client README', () => {
  it('shows each example file verbatim', () => {
    const readme = readFileSync(join(CLIENT, 'README.md'), 'utf8');
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.ts'));
    expect(files.sort()).toEqual(['create-project.ts', 'errors.ts', 'list-all.ts']);
    for (const file of files) {
      const source = readFileSync(join(EXAMPLES, file), 'utf8').trimEnd();
      expect(readme).toContain(`<!-- example: ${file} -->\n\n\`\`\`ts\n${source}\n\`\`\``);
    }
  });

  it('create-project.ts creates a project as the token’s user', async () => {
    const [line] = await runExample('create-project.ts');
    expect(line).toMatch(
      new RegExp(`^${email} created home1-j7d0g-[0-9a-z]{15} \\(Genome runs\\)$`),
    );
    const uuid = line!.split(' ')[2]!;
    const project = await user.client.api.groups.get({ uuid });
    expect([project.group_class, project.description]).toEqual(['project', 'Sequencing']);
  });

  it('list-all.ts lists every matching collection', async () => {
    const make = (name: string, lab: string) =>
      user.client.api.collections.create({ attributes: { name, properties: { lab } } });
    for (const [name, lab] of [
      ['sample-2', 'east'],
      ['sample-1', 'east'],
      ['sample-3', 'west'],
      ['other', 'east'],
    ] as const) {
      await make(name, lab);
    }
    const empty = 'd41d8cd98f00b204e9800998ecf8427e+0';
    expect(await runExample('list-all.ts')).toEqual([`sample-1 ${empty}`, `sample-2 ${empty}`]);
  });

  it('errors.ts catches the ApiError of a missing object', async () => {
    expect(await runExample('errors.ts', ['home1-4zz18-000000000000000'])).toEqual([
      '404 Object not found',
    ]);
  });
});
