import { UnprocessableError } from '@svc/errors';
import { msg } from '../messages';
import { checkJsonDepth } from './convert';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL cannot keep this string as given, or null when it can. */
function stringProblem(s: string): 'nul' | 'surrogate' | null {
  if (s.includes('\u0000')) return 'nul';
  // No UTF-8 form: text columns would store U+FFFD instead, jsonb refuses the value.
  if (LONE_SURROGATE.test(s)) return 'surrogate';
  return null;
}

/**
 * 422 for an attribute value PostgreSQL would refuse or change: a NUL character or an unpaired
 * surrogate in any string, hash key included, at any depth (else the driver answers 500 or the
 * text is silently altered), a number too large for a double, and nesting beyond MAX_JSON_DEPTH. Walked without recursion.
 */
export function checkStorableAttribute(name: string, value: unknown): void {
  checkJsonDepth(name, value);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    let problem: 'nul' | 'surrogate' | 'number' | null = null;
    if (typeof v === 'string') problem = stringProblem(v);
    // JSON.parse reads 1e400 as Infinity, which would be stored as null without a word.
    else if (typeof v === 'number' && !Number.isFinite(v)) problem = 'number';
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        problem ??= stringProblem(k);
        stack.push(child);
      }
    }
    if (problem === 'nul') throw new UnprocessableError(msg.nulCharacter(name));
    if (problem === 'surrogate') throw new UnprocessableError(msg.loneSurrogate(name));
    if (problem === 'number') throw new UnprocessableError(msg.notFinite(name));
  }
}
