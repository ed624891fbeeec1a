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
