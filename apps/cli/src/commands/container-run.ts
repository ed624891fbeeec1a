import type { Command } from 'commander';
import { CliError, usageError } from '../exit-codes';
import { followRequest } from './follow';
import { withContext } from './run';

interface RunOptions {
  image: string;
  ram: string;
  vcpus: string;
  priority: string;
  name?: string;
  api?: boolean;
}

/**
 * `svc run --image <image> -- <command…>`: files a committed container request (output in a
 * tmp mount at /out), follows its log until it ends, and prints where the output is. The
 * image is an image collection's PDH or a registered name (`repo:tag`, `svc image put`).
 */
export function register(program: Command): void {
  program
    .command('run')
    .description('Run a command in a container, follow its log, and print where its output is')
    .requiredOption(
      '--image <image>',
      'the image: repo:tag as registered by svc image put, or the image collection PDH',
    )
    .option('--ram <bytes>', 'memory limit in bytes', String(256 * 1024 * 1024))
    .option('--vcpus <n>', 'virtual CPUs', '1')
    .option('--priority <n>', 'priority 1–1000', '500')
    .option('--name <name>', 'request name')
    .option('--api', 'give the container API access (SVC_API_HOST, SVC_API_TOKEN)')
    .argument('<command...>', 'the command and its arguments (after --)')
    .action(
      withContext(async (ctx, command: string[], opts: RunOptions) => {
        const ram = Number(opts.ram);
        const vcpus = Number(opts.vcpus);
        const priority = Number(opts.priority);
        if (![ram, vcpus, priority].every(Number.isInteger)) {
          throw usageError('--ram, --vcpus and --priority take integers');
        }
        const client = ctx.client();
        const res = await client.request('POST', '/svc/v1/container_requests', {
          json: {
            container_request: {
              command,
              container_image: opts.image,
              cwd: '/out',
              output_path: '/out',
              mounts: { '/out': { kind: 'tmp', capacity: ram } },
              runtime_constraints: { ram, vcpus, ...(opts.api ? { API: true } : {}) },
              priority,
              state: 'Committed',
              ...(opts.name ? { name: opts.name } : {}),
            },
          },
        });
        if (res.status !== 200) throw new CliError(`container request: ${res.text.trim()}`, 1);
        const uuid = (res.body as Record<string, string>)['uuid']!;
        process.stderr.write(`request ${uuid}\n`);
        const final = await followRequest(client, uuid, {
          out: (s) => process.stdout.write(s),
          err: (s) => process.stderr.write(s),
        });
        const c = await client.request('GET', `/svc/v1/containers/${final['container_uuid']}`, {
          retry: true,
        });
        const container = (c.body ?? {}) as Record<string, unknown>;
        const status = (container['runtime_status'] ?? {}) as Record<string, string>;
        process.stderr.write(
          `container ${container['state']}, exit code ${container['exit_code'] ?? 'none'}` +
            (status['error'] ? `: ${status['error']}` : '') +
            '\n',
        );
        if (final['output_uuid']) process.stdout.write(`output: ${final['output_uuid']}\n`);
        if (container['state'] !== 'Complete' || container['exit_code'] !== 0) {
          throw new CliError('the container did not succeed', 1);
        }
      }),
    );
}
