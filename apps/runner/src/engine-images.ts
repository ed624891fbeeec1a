import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineCommand } from './oci';

/** The tag part of an image name (`localhost/svc-image:abc` → `abc`). */
const tagOf = (name: string): string => name.slice(name.lastIndexOf(':') + 1);

/**
 * The images the runners loaded into podman's or docker's store (tagged `svc-image:<hash>`),
 * bounded like the bubblewrap cache: least recently used first (execution.md §3.8). The
 * engines keep no use time, so each use touches a marker file named by the tag under
 * `markerDir`; an image without one counts as the least recently used. An image a container
 * still uses is refused by `rmi` and stays until a later load.
 */
export class EngineImages {
  constructor(
    private readonly command: EngineCommand,
    private readonly markerDir: string,
    readonly maxImages = 8,
  ) {
    mkdirSync(markerDir, { recursive: true });
  }

  /** Records that `ref` was used now. */
  touch(ref: string): void {
    const marker = join(this.markerDir, tagOf(ref));
    const now = new Date();
    try {
      utimesSync(marker, now, now);
    } catch {
      writeFileSync(marker, '');
    }
  }

  /** Removes the least recently used images past the bound, never `current`; answers them. */
  async evict(current: string): Promise<string[]> {
    const listed = await this.command(['images', '--format', '{{.Repository}}:{{.Tag}}']);
    // an image's other names are listed too: only the runners' own tags count
    const names = listed
      .split('\n')
      .filter((n) => /(^|\/)svc-image:[0-9a-f]+$/.test(n) && tagOf(n) !== tagOf(current));
    const byUse = names
      .map((name) => ({ name, used: this.usedAt(tagOf(name)) }))
      .sort((a, b) => b.used - a.used);
    const removed: string[] = [];
    for (const { name } of byUse.slice(this.maxImages - 1)) {
      const gone = await this.command(['rmi', name]).then(
        () => true,
        () => false,
      );
      if (!gone) continue;
      rmSync(join(this.markerDir, tagOf(name)), { force: true });
      removed.push(name);
    }
    this.forgetMarkersBut(names.map(tagOf).concat(tagOf(current)));
    return removed;
  }

  private usedAt(tag: string): number {
    try {
      return statSync(join(this.markerDir, tag)).mtimeMs;
    } catch {
      return 0;
    }
  }

  /**
   * Markers of images no longer in the store (removed by hand, or the store was reset). A
   * runner touches its marker before its load tags the image, so only markers a day old go.
   */
  private forgetMarkersBut(kept: string[]): void {
    const keep = new Set(kept);
    const dayAgo = Date.now() - 86_400_000;
    for (const m of readdirSync(this.markerDir)) {
      if (!keep.has(m) && this.usedAt(m) < dayAgo) rmSync(join(this.markerDir, m), { force: true });
    }
  }
}
