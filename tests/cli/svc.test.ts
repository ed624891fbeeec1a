import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';
import { runSvc, SVC_BIN } from './run-svc';

/** The `svc` command, built, run as a child process against a cluster. */
jest.setTimeout(30_000);
const d = useDeployment();
let home: string;
let user: TestUser;
let env: Record<string, string>;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  user = await makeUser(d.current, { username: `cli${Date.now()}` });
  env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    SVC_API_HOST: d.current.url,
    SVC_API_TOKEN: user.token,
  };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const svc = (args: string[], input?: string, extra: Record<string, string | undefined> = {}) =>
  runSvc(args, { ...env, ...extra }, input);
const json = async (args: string[], input?: string) => {
  const r = await svc([...args, '--json'], input);
  expect([r.code, r.stderr]).toEqual([0, '']);
  return JSON.parse(r.stdout);
};

describe('svc whoami, create, get, update, delete', () => {
  it('whoami shows the token’s user as a table, or JSON', async () => {
    const r = await svc(['whoami']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^host +${d.current.url}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^uuid +${user.uuid}$`, 'm'));
    expect((await json(['whoami'])).uuid).toBe(user.uuid);
  });

  it('creates from a file or standard input, gets, updates and deletes', async () => {
    const file = join(home, 'project.json');
    writeFileSync(file, JSON.stringify({ name: 'cli project', group_class: 'project' }));
    const project = await json(['create', 'groups', '-f', file]);
    expect([project.name, project.owner_uuid]).toEqual(['cli project', user.uuid]);
    const wrapped = JSON.stringify({ collection: { name: 'cli coll', owner_uuid: project.uuid } });
    const coll = await json(['create', 'collection', '-f', '-'], wrapped);
    expect(coll.uuid).toMatch(/^home1-4zz18-/);
    const shown = await svc(['get', coll.uuid]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^name +cli coll$/m);
    expect(shown.stdout).toMatch(new RegExp(`^owner_uuid +${project.uuid}$`, 'm'));
    expect(await json(['get', coll.uuid, '--select', 'uuid,name'])).toEqual({
      kind: 'svc#collection',
      uuid: coll.uuid,
      name: 'cli coll',
    });
    const changed = await json(['update', coll.uuid, '-f', '-'], '{"description": "checked"}');
    expect([changed.description, changed.name]).toEqual(['checked', 'cli coll']);
    const deleted = await svc(['delete', coll.uuid]);
    expect([deleted.code, deleted.stdout]).toEqual([0, `trashed ${coll.uuid}\n`]);
    const again = await svc(['get', coll.uuid]);
    expect([again.code, again.stderr]).toEqual([
      3,
      expect.stringMatching(/^svc: 404: Object not found \(request req-/),
    ]);
  });
});

describe('svc list', () => {
  let project: string;
  beforeAll(async () => {
    project = (
      await user.client.api.groups.create({
        attributes: { name: 'list here', group_class: 'project' },
      })
    ).uuid;
    for (const [name, replication] of [
      ['alpha', 1],
      ['beta', 2],
      ['gamma', 3],
      ['delta', 2],
      ['epsilon', null],
    ] as const) {
      await user.client.api.collections.create({
        attributes: { name, owner_uuid: project, replication_desired: replication },
      });
    }
  });

  it('filters with the simple syntax, orders, selects, and prints a table', async () => {
    const r = await svc([
      'list',
      'collections',
      '--filter',
      `owner_uuid = ${project}`,
      '--filter',
      'name like %a',
      '--order',
      'name desc',
      '--select',
      'name,replication_desired',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').map((l) => l.trimEnd())).toEqual([
      'name   replication_desired',
      'gamma  3',
      'delta  2',
      'beta   2',
      'alpha  1',
      '',
    ]);
  });

  it('takes in-lists, numbers, null and raw JSON conditions; --json gives the items', async () => {
    const names = async (...filters: string[]) =>
      (
        await json([
          'list',
          'collections',
          '-f',
          `owner_uuid = ${project}`,
          ...filters.flatMap((f) => ['-f', f]),
          '-o',
          'name',
          '-s',
          'name',
        ])
      ).map((c: { name: string }) => c.name);
    expect(await names('name in beta,delta')).toEqual(['beta', 'delta']);
    expect(await names('replication_desired >= 2')).toEqual(['beta', 'delta', 'gamma']);
    expect(await names('replication_desired = null')).toEqual(['epsilon']);
    expect(await names('["name","ilike","AL%"]')).toEqual(['alpha']);
    expect(await names('[["name","!=","alpha"],["name","<","delta"]]')).toEqual(['beta']);
  });

  it('pages through everything with --all, and says when a page is not all', async () => {
    const base = ['list', 'collections', '-f', `owner_uuid = ${project}`, '--limit', '2'];
    const one = await svc(base);
    expect(one.stdout.trim().split('\n')).toHaveLength(3);
    expect(one.stderr).toBe('2 of 5 shown; --all lists every one\n');
    const all = await json([...base, '--all', '-s', 'uuid']);
    expect(all).toHaveLength(5);
    expect(new Set(all.map((c: { uuid: string }) => c.uuid)).size).toBe(5);
  });
});

describe('svc share', () => {
  it('makes one permission link and changes its level in place', async () => {
    const other = await makeUser(d.current);
    const project = (
      await user.client.api.groups.create({
        attributes: { name: 'to share', group_class: 'project' },
      })
    ).uuid;
    const first = await json(['share', project, '--with', other.uuid, '--level', 'write']);
    expect(first).toMatchObject({
      link_class: 'permission',
      name: 'can_write',
      head_uuid: project,
      tail_uuid: other.uuid,
    });
    expect((await other.client.api.groups.get({ uuid: project })).can_write).toBe(true);
    const again = await svc(['share', project, '--with', other.uuid, '--level', 'read']);
    expect([again.code, again.stdout]).toEqual([
      0,
      `${other.uuid} can_read ${project} (link ${first.uuid})\n`,
    ]);
    expect((await other.client.api.groups.get({ uuid: project })).can_write).toBe(false);
    const bad = await svc(['share', project, '--with', project.replace('j7d0g', '4zz18')]);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringContaining('is not a user or group uuid'),
    ]);
    const level = await svc(['share', project, '--with', other.uuid, '--level', 'own']);
    expect([level.code, level.stderr]).toEqual([
      2,
      expect.stringContaining('Allowed choices are read, write, manage'),
    ]);
  });
});

describe('bad input and failures: clear messages, exit codes scripts can rely on', () => {
  it.each([
    [['list', 'widgets'], 2, "svc: unknown type 'widgets'; types: users, groups, collections"],
    [
      ['list', 'collections', '-f', 'name likes x'],
      2,
      "svc: bad filter 'name likes x': expected '<attribute> <operator> <value>'",
    ],
    [
      ['list', 'collections', '-f', 'nmae = x'],
      2,
      "svc: bad filter 'nmae = x': collections have no attribute 'nmae'",
    ],
    [
      ['list', 'collections', '-f', '["name","=",'],
      2,
      'svc: bad filter \'["name","=",\': not valid JSON',
    ],
    [
      ['list', 'collections', '-f', 'replication_desired < abc'],
      2,
      "svc: 422: Invalid operand 'abc' for integer attribute 'replication_desired'",
    ],
    [
      ['list', 'collections', '-s', 'nmae'],
      2,
      "svc: unknown attribute 'nmae' in --select for collections",
    ],
    [
      ['list', 'collections', '--limit', 'ten'],
      2,
      "svc: --limit must be a whole number, not 'ten'",
    ],
    [
      ['list', 'collections', '-p', 'recursive=true'],
      2,
      "svc: unknown parameter 'recursive' for listing collections",
    ],
    [['get', 'not-a-uuid'], 2, "svc: 'not-a-uuid' is not the uuid of an object of a known type"],
    [['get', 'home1-4zz18-000000000000000'], 3, 'svc: 404: Object not found'],
    [
      ['create', 'groups', '-f', '/nonexistent.json'],
      2,
      'svc: cannot read /nonexistent.json: ENOENT',
    ],
    [['list', 'collections', '--bogus'], 2, "error: unknown option '--bogus'"],
    [['frobnicate'], 2, "error: unknown command 'frobnicate'"],
  ])('svc %j exits %i', async (args, code, message) => {
    const r = await svc(args as string[]);
    expect([r.code, r.stderr]).toEqual([code, expect.stringContaining(message as string)]);
    expect(r.stdout).toBe('');
  });

  it('refuses input that is not a JSON object, with exit 2', async () => {
    for (const input of ['{"name": ', '[1, 2]']) {
      const r = await svc(['create', 'groups', '-f', '-'], input);
      expect([r.code, r.stderr]).toEqual([
        2,
        expect.stringMatching(/^svc: standard input: (not valid JSON|expected a JSON object)/),
      ]);
    }
    const server = await svc(['create', 'groups', '-f', '-'], '{"nmae": "x"}');
    expect([server.code, server.stderr]).toEqual([
      2,
      expect.stringContaining("Unknown attribute 'nmae' for group"),
    ]);
  });

  it('exits 4 without a host or token, or with a refused token; 1 when the server forbids', async () => {
    const none = await svc(['whoami'], undefined, {
      SVC_API_HOST: undefined,
      SVC_API_TOKEN: undefined,
    });
    expect([none.code, none.stderr]).toEqual([
      4,
      'svc: not logged in: run `svc login`, or set SVC_API_HOST and SVC_API_TOKEN\n',
    ]);
    const refused = await svc(['whoami'], undefined, {
      SVC_API_TOKEN: 'v2/home1-gj3su-000000000000zzz/nope',
    });
    expect([refused.code, refused.stderr]).toEqual([
      4,
      expect.stringContaining('svc: 401: Not logged in'),
    ]);
    const reader = await makeUser(d.current);
    const project = await user.client.api.groups.create({
      attributes: { name: 'read only', group_class: 'project' },
    });
    await user.client.api.links.create({
      attributes: {
        link_class: 'permission',
        name: 'can_read',
        head_uuid: project.uuid,
        tail_uuid: reader.uuid,
      },
    });
    const forbidden = await svc(['delete', project.uuid], undefined, {
      SVC_API_TOKEN: reader.token,
    });
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toMatch(/^svc: 403: Forbidden: insufficient permission/);
  });
});

describe('svc login', () => {
  it('checks the token, saves host and token with mode 0600, and later commands use them', async () => {
    const bare = {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'login'),
      SVC_API_HOST: undefined,
      SVC_API_TOKEN: undefined,
    };
    const refused = await runSvc(
      ['login', '--host', d.current.url],
      bare,
      'v2/home1-gj3su-000000000000zzz/nope\n',
    );
    expect(refused.code).toBe(4);
    expect(() => statSync(join(home, 'login', 'svc', 'config.json'))).toThrow();
    const ok = await runSvc(['login', '--host', d.current.url], bare, `${user.token}\n`);
    expect([ok.code, ok.stderr]).toEqual([
      0,
      expect.stringContaining(`logged in to ${d.current.url} as `),
    ]);
    const path = join(home, 'login', 'svc', 'config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      host: d.current.url,
      token: user.token,
    });
    const me = await runSvc(['whoami', '--json'], bare);
    expect([me.code, JSON.parse(me.stdout).uuid]).toEqual([0, user.uuid]);
    const noHost = await runSvc(['login'], { ...bare, XDG_CONFIG_HOME: join(home, 'other') }, 'x');
    expect([noHost.code, noHost.stderr]).toEqual([2, expect.stringContaining('svc: no host')]);
  });
});

describe('help, every operation, and the installed command', () => {
  it('ends quietly with exit 0 when its reader goes away (svc … | head)', async () => {
    const child = spawn(process.execPath, [SVC_BIN, '--help'], {
      env: { PATH: process.env['PATH'] },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader is gone before the first write
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect([code, stderr]).toEqual([0, '']);
  });

  it('answers --help on every command with exit 0', async () => {
    const top = await svc(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Exit codes:');
    const commands = [
      'get',
      'list',
      'create',
      'update',
      'delete',
      'share',
      'whoami',
      'login',
      'call',
    ];
    for (const c of commands) expect(top.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    for (const c of commands) {
      const r = await svc([c, '--help']);
      expect([c, r.code, r.stdout]).toEqual([c, 0, expect.stringContaining(`Usage: svc ${c}`)]);
    }
  });

  it('calls any operation of the API table by name', async () => {
    const listed = await json(['call']);
    const ops = listed.map((o: { operation: string }) => o.operation);
    expect(ops).toEqual(expect.arrayContaining(['users.system', 'openapi.get', 'groups.update']));
    expect((await json(['call', 'api_client_authorizations.current'])).uuid).toBe(user.tokenUuid);
    const project = await user.client.api.groups.create({
      attributes: { name: 'called', group_class: 'project' },
    });
    expect(await json(['call', 'groups.get', project.uuid, '-p', 'select=["name"]'])).toEqual({
      kind: 'svc#group',
      name: 'called',
    });
    const unknown = await svc(['call', 'groups.get', project.uuid, '-p', 'recursive=true']);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringContaining("unknown parameter 'recursive' for groups.get"),
    ]);
    const config = await json(['call', 'configs.get']);
    expect(config.ClusterID).toBe('home1');
    const bad = await svc(['call', 'groups.frobnicate']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringContaining("unknown operation 'groups.frobnicate'"),
    ]);
  });
});
