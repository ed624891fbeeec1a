import type { ClusterConfig } from '@svc/config';
import type { JobRunner } from './jobs';
import type { Mailer, MailMessage } from './mail/mailer';
import { EMPTY_VOCABULARY, type Vocabulary } from './vocabulary/vocabulary';
import type { VocabularySource } from './vocabulary/source';

/**
 * What a running core has besides its database, for the operations that need it: the
 * vocabulary in force, the mail relay, and the job runner (the trash-sweep trigger). Looked up
 * by the cluster's configuration object, which every call carries, so that calls the server
 * makes itself (logins, service calls) reach them too.
 */
export interface ClusterServices {
  vocabulary: VocabularySource;
  mailer: Mailer;
  jobs: JobRunner | null;
}

const byCluster = new WeakMap<Readonly<ClusterConfig>, ClusterServices>();

export function registerServices(cluster: Readonly<ClusterConfig>, s: ClusterServices): void {
  byCluster.set(cluster, s);
}

export const servicesOf = (cluster: Readonly<ClusterConfig>): ClusterServices | undefined =>
  byCluster.get(cluster);

/** The vocabulary in force (empty where no core runs for this configuration). */
export const vocabularyOf = (cluster: Readonly<ClusterConfig>): Vocabulary =>
  byCluster.get(cluster)?.vocabulary.current() ?? EMPTY_VOCABULARY;

/** Sends now, without waiting (callers have committed what the message tells). */
export function sendMail(cluster: Readonly<ClusterConfig>, messages: readonly MailMessage[]): void {
  const mailer = byCluster.get(cluster)?.mailer;
  if (!mailer) return;
  for (const m of messages) void mailer.send(m);
}
