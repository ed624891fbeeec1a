/** A properties vocabulary as the server keeps it once its file is checked. */
export interface Label {
  label: string;
}

export interface TagValue {
  labels: Label[] | null;
}

export interface Tag {
  strict: boolean;
  labels: Label[] | null;
  values: Record<string, TagValue> | null;
}

export interface Vocabulary {
  strictTags: boolean;
  tags: Record<string, Tag>;
}

export const EMPTY_VOCABULARY: Vocabulary = { strictTags: false, tags: {} };

/** `GET /svc/v1/vocabulary`: absent labels and values are rendered as null. */
export function renderVocabulary(v: Vocabulary): Record<string, unknown> {
  return { kind: 'svc#vocabulary', strict_tags: v.strictTags, tags: v.tags };
}
