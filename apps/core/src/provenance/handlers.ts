import { collections, isUuidOf } from '@svc/contract';
import { NotFoundError } from '@svc/errors';
import { sql } from '@svc/list-engine';
import { stringOption, type Call, type Handler } from '../call';
import { collectionRules } from '../resources/collections/rules';
import { barePdh, PDH_RE, readableRows } from './objects';
import { Walk, type Direction } from './walk';

/** The path's collection uuid or PDH must name a readable, not hidden collection (404). */
async function startOf(call: Call): Promise<string> {
  const id = stringOption(call, 'uuid');
  const where = PDH_RE.test(id)
    ? sql`portable_data_hash = ${barePdh(id)}`
    : isUuidOf(collections, id)
      ? sql`uuid = ${id}`
      : null;
  if (where === null || (await readableRows(call, collectionRules, where)).length === 0)
    throw new NotFoundError();
  return PDH_RE.test(id) ? barePdh(id) : id;
}

const walkHandler =
  (direction: Direction): Handler =>
  async (call) => {
    const walk = new Walk(call, direction);
    await walk.visit(await startOf(call));
    return { body: walk.graph };
  };

/** `GET /collections/<uuid or PDH>/provenance` and `…/used_by` (docs/api/more-resources.md §8). */
export const provenance = walkHandler('up');
export const usedBy = walkHandler('down');
