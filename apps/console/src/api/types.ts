import type {
  ApiObject,
  apiClientAuthorizations,
  collections,
  containerRequests,
  containers,
  groups,
  links,
  users,
  workflows,
} from '@svc/contract';

export type User = ApiObject<typeof users>;
export type Group = ApiObject<typeof groups>;
export type Collection = ApiObject<typeof collections>;
export type ContainerRequest = ApiObject<typeof containerRequests>;
export type Container = ApiObject<typeof containers>;
export type Link = ApiObject<typeof links>;
export type Workflow = ApiObject<typeof workflows>;
export type TokenRecord = ApiObject<typeof apiClientAuthorizations>;

/** An item of `groups.contents`: one of the four types, told apart by `kind`. */
export type ContentItem = (Group | Collection | ContainerRequest | Workflow) & { kind: string };

/** The public configuration, as much of it as the console reads (discovery.md §5). */
export interface PublicConfig {
  ClusterID: string;
  API?: {
    MaxItemsPerResponse?: number;
    FreezeProjectRequiresDescription?: boolean;
    FreezeProjectRequiresProperties?: string[];
    UnfreezeProjectRequiresAdmin?: boolean;
  };
  Login?: {
    OpenIDConnect?: { Enable?: boolean };
    LDAP?: { Enable?: boolean };
    PAM?: { Enable?: boolean };
    Test?: { Enable?: boolean };
    TrustedClients?: string[];
  };
  RemoteClusters?: Record<string, { Host?: string; Proxy?: boolean; Scheme?: string }>;
  Services?: Record<string, { ExternalURL?: string }>;
}
