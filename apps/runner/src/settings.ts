/**
 * What the dispatcher hands a runner, in a file only the runner can read (never in arguments
 * or the environment): the two tokens and the cluster's settings (execution.md §3).
 */
export interface RunnerInput {
  /** Base URL of the API (`http://host:port` or `https://…`). */
  apiHost: string;
  insecure: boolean;
  /** The container's own token: mounts, logs, output, the container's API access. */
  containerToken: string;
  /** A token of the dispatcher's admin user scoped to this container's record. */
  recordToken: string;
  logUpdatePeriod: number;
  logBytesPerFile: number;
  usagePeriod: number;
  blobSigningTTL: number;
  /** Where cached images live (shared by runners of one machine). */
  cacheDir: string;
  /** `Containers.RuntimeEngine`: how the command is isolated (default bubblewrap). */
  engine?: 'bubblewrap' | 'podman' | 'docker';
}

export const defaultSettings = {
  logUpdatePeriod: 10,
  logBytesPerFile: 67108864,
  usagePeriod: 10,
  blobSigningTTL: 1209600,
};
