import type { Json } from './json';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serializeManifestTree } from '@svc/blocks';
import type { CollectionStore } from './store';

/** The files of a log collection (execution.md §3.5), those that were written. */
const LOG_FILES = ['stdout.txt', 'stderr.txt', 'runner.txt', 'usage.txt', 'container.json'];

/**
 * A container's one log collection, saved in place again and again (each save a new PDH):
 * the log files go in one block (one request, however many files). Saves run one after
 * another; `pdh` is the last saved.
 */
export class LogCollection {
  private uuid: string | null = null;
  pdh: string | null = null;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: CollectionStore,
    private readonly dir: string,
    private readonly containerUuid: string,
  ) {}

  /**
   * Saves the files; answers whether the PDH changed. `final` attributes (the expiry) go in
   * the same request, so nothing is left to do once the container is final.
   */
  save(final: Record<string, unknown> | null = null): Promise<boolean> {
    const run = this.saving.then(async () => {
      const files: [string, Buffer][] = [];
      for (const name of LOG_FILES) {
        try {
          files.push([name, readFileSync(join(this.dir, name))]);
        } catch {
          /* not written (a redirected stream) */
        }
      }
      const manifest_text = serializeManifestTree(await this.store.writeFiles(files));
      const record: Json = this.uuid
        ? await this.store.update(this.uuid, { manifest_text, ...final })
        : await this.store.create({
            name: `Log of container ${this.containerUuid}`,
            manifest_text,
            properties: { type: 'log', container_uuid: this.containerUuid },
            ...final,
          });
      this.uuid = record['uuid'];
      const changed = record['portable_data_hash'] !== this.pdh;
      this.pdh = record['portable_data_hash'];
      return changed;
    });
    this.saving = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}
