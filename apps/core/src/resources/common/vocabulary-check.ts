import type { ResourceSpec } from '@svc/contract';
import { BadRequestError } from '@svc/errors';
import type { Call } from '../../call';
import { vocabularyOf } from '../../cluster-services';
import { propertiesProblem } from '../../vocabulary/check';

/** The types whose client-given `properties` the vocabulary checks (docs/api/more-resources.md §13.2). */
const CHECKED = new Set(['collections', 'groups', 'links', 'container_requests']);

/** 400 with the vocabulary's reason when a create or update gives refused `properties`. */
export function checkProperties(
  call: Call,
  r: ResourceSpec,
  input: Readonly<Record<string, unknown>>,
) {
  const properties = input['properties'];
  if (!CHECKED.has(r.type) || typeof properties !== 'object' || properties === null) return;
  const problem = propertiesProblem(
    vocabularyOf(call.cluster),
    properties as Record<string, unknown>,
  );
  if (problem) throw new BadRequestError(problem);
}
