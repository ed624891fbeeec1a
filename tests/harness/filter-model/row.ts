/** The collection rows the filter property test stores, in the shape the evaluator reads. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export interface Row {
  uuid: string;
  owner_uuid: string;
  modified_by_user_uuid: string | null;
  modified_at: string;
  name: string | null;
  description: string | null;
  properties: Record<string, Json>;
  manifest_text: string;
  portable_data_hash: string;
  replication_desired: bigint | null;
  replication_confirmed: bigint | null;
  version: bigint;
  storage_classes_desired: string[];
  trash_at: string | null;
  preserve_version: boolean;
}
