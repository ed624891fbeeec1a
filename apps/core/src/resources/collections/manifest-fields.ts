import {
  ManifestError,
  parseManifest,
  PDH_RE,
  portableDataHash,
  type ParsedManifest,
} from '@svc/ids';
import { msg } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import type { Row } from '../common/row';

/** The parsed manifest, or 422 saying what is wrong with it. */
export function parsedManifest(text: string): ParsedManifest {
  try {
    return parseManifest(text);
  } catch (e) {
    if (e instanceof ManifestError) {
      throw new UnprocessableError(msg.invalidManifest(e.message));
    }
    throw e;
  }
}

/**
 * manifest_text → stored manifest, portable_data_hash, file_count, file_size_total
 * (other-resources.md §1). A client-supplied portable_data_hash must agree.
 */
export function applyManifest(input: Readonly<Record<string, unknown>>, row: Row): void {
  const text = 'manifest_text' in input ? input['manifest_text'] : row['manifest_text'];
  const parsed = parsedManifest(typeof text === 'string' ? text : '');
  const computed = portableDataHash(parsed.portable);
  const given = input['portable_data_hash'];
  if (given !== undefined && given !== null) {
    if (typeof given !== 'string' || !/^[0-9a-f]{32}\+[0-9]+/.test(given)) {
      throw new UnprocessableError('portable_data_hash is not a valid locator');
    }
    if (given.slice(0, 32) !== computed.slice(0, 32)) {
      throw new UnprocessableError(
        `portable_data_hash '${given}' does not match computed hash '${computed}'`,
      );
    }
  }
  row['manifest_text'] = parsed.stored;
  row['portable_data_hash'] = computed;
  row['file_count'] = parsed.fileCount;
  row['file_size_total'] = parsed.fileSizeTotal;
}

export const isPortableDataHash = (value: string): boolean => PDH_RE.test(value);
