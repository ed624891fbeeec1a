export type ParamType = 'integer' | 'boolean' | 'array' | 'object' | 'string';

export interface ParamSpec {
  readonly type: ParamType;
  readonly location: 'path' | 'query';
  readonly required?: boolean;
  /** Discovery default, always a string. */
  readonly default?: string;
  /** Accepted but not listed in discovery (its table lists fewer than the rules accept). */
  readonly unlisted?: boolean;
  readonly description: string;
}

export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

/** A request's parameters, each source kept apart until merged. */
export interface RawParams {
  query: Record<string, unknown>;
  /** JSON body (an object) or form fields; null when there is no body. */
  body: Record<string, unknown> | null;
  bodyKind: 'json' | 'form' | null;
  path: Record<string, string>;
}
