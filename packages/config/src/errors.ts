/** A configuration problem: the message names the key path and says why. */
export class ConfigError extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`configuration error: ${key}: ${reason}`);
    this.name = 'ConfigError';
  }
}

/**
 * A deployment that cannot start for a reason outside the configuration's syntax (a port in
 * use, a database that does not answer): one line naming the key and the cause.
 */
export class StartupError extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
    separator = ': ',
  ) {
    super(`${key}${separator}${reason}`);
    this.name = 'StartupError';
  }
}
