import type { Call, Reply } from '../call';
import { vocabularyOf } from '../cluster-services';
import { renderVocabulary } from './vocabulary';

/** `GET /vocabulary` (no token): the vocabulary in force (docs/api/more-resources.md §13.1). */
export const getVocabulary = async (call: Call): Promise<Reply> => ({
  body: renderVocabulary(vocabularyOf(call.cluster)),
});
