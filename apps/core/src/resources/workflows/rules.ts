import { parse as parseYaml } from 'yaml';
import { workflows } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import type { ResourceRules, WriteContext } from '../common/rules';
import type { Row } from '../common/row';
import { ownedPolicy } from '../../permissions/policies';

function parseDefinition(text: string): unknown {
  try {
    return parseYaml(text);
  } catch (e) {
    throw new UnprocessableError(
      `definition is not valid yaml: ${(e as Error).message.split('\n')[0]}`,
    );
  }
}

/** A definition fills in name and description when the same save does not (other-resources.md §2). */
export function applyDefinition(ctx: WriteContext, row: Row): void {
  const definition = ctx.input['definition'];
  if (typeof definition !== 'string') return;
  const doc = parseDefinition(definition);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return;
  for (const key of ['name', 'description'] as const) {
    const value = (doc as Record<string, unknown>)[key];
    if (!(key in ctx.input) && typeof value === 'string') row[key] = value;
  }
}

export const workflowRules: ResourceRules = {
  resource: workflows,
  policy: ownedPolicy('workflows'),
  async prepareCreate(ctx, row) {
    applyDefinition(ctx, row);
  },
  async prepareUpdate(ctx, _current, next) {
    applyDefinition(ctx, next);
  },
};
