import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** Every key with its default and meaning (contract README, "Configuration"). */
const bool = (d: boolean, description: string) => Type.Boolean({ default: d, description });
const int = (d: number, description: string, minimum = 0) =>
  Type.Integer({ default: d, minimum, description });
const str = (d: string, description: string) => Type.String({ default: d, description });
const section = <T extends Parameters<typeof Type.Object>[0]>(props: T, description: string) =>
  Type.Object(props, { default: {}, additionalProperties: false, description });

const TOKEN_PATTERN = '^(v2/[0-9a-z]{5}-[0-9a-z]{5}-[0-9a-z]{15}/)?[a-zA-Z0-9]{32,}$';

export const RemoteClusterSchema = Type.Object(
  {
    Host: Type.String({ minLength: 1, description: 'host[:port] of the remote cluster' }),
    Proxy: bool(true, 'Route requests for this cluster to it'),
    Scheme: Type.Union([Type.Literal('http'), Type.Literal('https')], {
      default: 'https',
      description: 'http or https',
    }),
    Insecure: bool(false, 'Skip TLS verification'),
    ActivateUsers: bool(false, "Mirror the remote's is_active for its users"),
  },
  { additionalProperties: false },
);

export const VolumeSchema = Type.Object(
  {
    Driver: Type.Union([Type.Literal('Directory'), Type.Literal('S3')], {
      description: 'Directory or S3',
    }),
    ReadOnly: bool(false, 'Never written, never trashed from'),
    Replication: int(1, 'Copies one stored block counts for', 1),
    DriverParameters: section(
      {
        Root: str('', 'Directory: the directory holding the blocks'),
        Endpoint: str('', 'S3: endpoint URL; "" is the provider default'),
        Region: str('us-east-1', 'S3: region'),
        Bucket: str('', 'S3: bucket'),
        AccessKeyID: str('', 'S3: access key id'),
        SecretAccessKey: str('', 'S3: secret access key'),
        UsePathStyle: bool(false, 'S3: path-style bucket addressing'),
        PrefixLength: Type.Integer({
          default: 0,
          minimum: 0,
          maximum: 3,
          description: 'S3: object key is <md5> (0) or <first N hex>/<md5>',
        }),
      },
      'Driver settings',
    ),
  },
  { additionalProperties: false },
);

/** The parts of a cluster the public config names (`Services.<name>.ExternalURL`). */
export const SERVICE_NAMES = [
  'Controller',
  'Websocket',
  'WebDAV',
  'WebDAVDownload',
  'Keepproxy',
  'Workbench1',
  'Workbench2',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const SERVICE_MEANINGS: Record<ServiceName, string> = {
  Controller: 'The API (this gateway); "" derives it from each request',
  Websocket: 'The event stream (ws:// or wss://…/websocket); "" derives it from each request',
  WebDAV: 'File access at /c=; "" derives it from each request',
  WebDAVDownload: 'File downloads at /c=; "" derives it from each request',
  Keepproxy: 'Not part of svc: "" (clients use the block service at the API URL)',
  Workbench1: 'Not part of svc: ""',
  Workbench2: 'The web console at the root URL; "" derives it from each request',
};
const service = (name: ServiceName) =>
  section({ ExternalURL: str('', SERVICE_MEANINGS[name]) }, `Where clients reach ${name}`);

export const ClusterSchema = Type.Object(
  {
    ClusterID: Type.Optional(
      Type.String({ pattern: '^[0-9a-z]{5}$', description: 'Must equal the Clusters key' }),
    ),
    ExternalURL: str('', 'Public base URL; "" derives it from each request'),
    SystemRootToken: Type.String({
      pattern: TOKEN_PATTERN,
      description: 'Root token: at least 32 characters of [a-zA-Z0-9]',
    }),
    Database: Type.Object(
      {
        URL: Type.String({
          minLength: 1,
          description: 'postgres://… for PostgreSQL, pglite:<directory> or pglite:memory embedded',
        }),
        ConnectTimeout: int(
          5,
          'Seconds to open a database connection before 503 (the smaller of this and API.DatabaseWaitTimeout bounds any wait for one)',
          1,
        ),
        StatementTimeout: int(
          30,
          'Seconds one statement of a write may run, or wait on a stalled database, before 503 (reads: API.MaxListDuration)',
          1,
        ),
        MaxConnections: int(10, 'Connections in the pool of this cluster core', 1),
      },
      { additionalProperties: false },
    ),
    Core: section(
      { Listen: str('127.0.0.1:0', 'host:port of the cluster core (0: any free port)') },
      'The cluster core process',
    ),
    API: section(
      {
        MaxItemsPerResponse: int(1000, 'Largest list page', 1),
        MaxRequestSize: int(134217728, 'Larger request bodies get 413', 1),
        FreezeProjectRequiresDescription: bool(
          false,
          'A project needs a description before it can be frozen',
        ),
        FreezeProjectRequiresProperties: Type.Array(Type.String(), {
          default: [],
          description: 'Property keys that must be non-empty before freezing',
        }),
        UnfreezeProjectRequiresAdmin: bool(false, 'Only admins may unfreeze a project'),
        AsyncPermissionsUpdateInterval: int(20, 'Seconds a deferred permission update may lag'),
        DatabaseWaitTimeout: int(
          5,
          'Seconds a request waits for a free database connection before 503',
          1,
        ),
        LockTimeout: int(10, 'Seconds a request waits on a lock before 503 (lock_timeout)', 1),
        MaxListDuration: int(
          20,
          'Seconds a read (a list, its count, a get) may run before the list answers 422',
          1,
        ),
        MaxFilterConditions: int(
          1000,
          'Filter conditions per request, expression parts counted',
          1,
        ),
        MaxConcurrentRequestsPerToken: int(
          8,
          'Requests one token may have in progress on a cluster core before 429',
          1,
        ),
        VocabularyPath: str('', 'JSON file of allowed properties keys and values; "" means none'),
      },
      'API limits and rules',
    ),
    Collections: section(
      {
        BlobSigning: bool(true, 'Require signatures to read blocks and reference them'),
        BlobSigningKey: Type.String({
          default: '',
          pattern: '^$|^.{32,}$',
          description: 'HMAC key of block signatures; "" derives it from SystemRootToken',
        }),
        BlobSigningTTL: int(1209600, 'Signature lifetime; trash-to-delete interval, seconds'),
        BlobTrashLifetime: int(1209600, 'Seconds a trashed block is kept before deletion'),
        BlobTrashCheckInterval: int(86400, 'Seconds between garbage collection runs; 0: never'),
        DefaultReplication: int(2, 'Copies a block should have', 1),
      },
      'Collections',
    ),
    Volumes: Type.Record(Type.String(), VolumeSchema, {
      default: {},
      description: 'Where blocks are kept, by volume id',
    }),
    Containers: section(
      {
        MaxRetryAttempts: int(3, 'Default container_count_max', 1),
        MaxDispatchAttempts: int(10, 'Lock/unlock cycles before a container is cancelled', 1),
        Dispatch: section(
          {
            Backend: Type.Union(
              [Type.Literal('local'), Type.Literal('slurm'), Type.Literal('none')],
              { default: 'none', description: 'Where containers run; none: no dispatcher starts' },
            ),
            PollInterval: int(2, 'Queue poll period, seconds', 1),
          },
          'The dispatcher started with the server (execution.md §1)',
        ),
        Local: section(
          {
            MaxVCPUs: int(0, "Capacity of the local backend; 0: the machine's cores"),
            MaxRAM: int(0, "Capacity of the local backend, bytes; 0: 90% of the machine's memory"),
          },
          'Local backend',
        ),
        Slurm: section(
          {
            SbatchArguments: Type.Array(Type.String(), {
              default: [],
              description: 'Extra sbatch arguments for every job',
            }),
            ReserveExtraRAM: int(268435456, "Added to the container's ram in --mem, bytes"),
          },
          'Slurm backend',
        ),
        RuntimeEngine: Type.Union(
          [Type.Literal('bubblewrap'), Type.Literal('podman'), Type.Literal('docker')],
          { default: 'bubblewrap', description: 'How the runner isolates the command' },
        ),
        LogUpdatePeriod: int(10, 'Seconds between saves of a running log collection', 1),
        LogBytesPerFile: int(67108864, 'Cap per log file, bytes', 1),
        UsagePeriod: int(10, 'Seconds between resource usage samples', 1),
      },
      'Containers',
    ),
    Login: section(
      {
        OpenIDConnect: section(
          {
            Enable: bool(false, 'Log in through an OpenID Connect provider'),
            Issuer: str('', 'Provider issuer URL'),
            ClientID: str('', 'OAuth2 client id'),
            ClientSecret: str('', 'OAuth2 client secret'),
            EmailClaim: str('email', 'Claim holding the email'),
            EmailVerifiedClaim: str('email_verified', 'Claim that must be true; "" disables'),
            UsernameClaim: str('', 'Claim holding the preferred username'),
            AuthenticationRequestParameters: Type.Record(Type.String(), Type.String(), {
              default: {},
              description: 'Extra query parameters on the provider redirect',
            }),
            AcceptAccessToken: bool(false, 'Accept identity-provider access tokens'),
            AcceptAccessTokenScope: str('', 'Required scope in an access token'),
          },
          'OpenID Connect login',
        ),
        LDAP: section(
          {
            Enable: bool(false, 'Check passwords against an LDAP directory'),
            URL: str('', 'ldap://host:port or ldaps://host:port'),
            StartTLS: bool(true, 'Use StartTLS on ldap://'),
            InsecureTLS: bool(false, 'Skip certificate verification'),
            SearchBase: str('', 'Base DN of the user search'),
            SearchAttribute: str('uid', 'Attribute compared with the username'),
            SearchBindUser: str('', 'DN for the search bind; "" is anonymous'),
            SearchBindPassword: str('', 'Password for the search bind'),
            SearchFilters: str('', 'Extra LDAP filter ANDed into the search'),
            EmailAttribute: str('mail', 'Attribute holding the email'),
            UsernameAttribute: str('uid', 'Attribute holding the preferred username'),
          },
          'LDAP login',
        ),
        PAM: section(
          {
            Enable: bool(false, 'Check passwords with PAM'),
            Service: str('svc', 'PAM service name'),
            DefaultEmailDomain: str('', 'Domain added to usernames without @'),
          },
          'PAM login',
        ),
        Test: section(
          {
            Enable: bool(false, 'Development login provider'),
            Users: Type.Record(
              Type.String(),
              Type.Object(
                { Email: Type.String(), Password: Type.String() },
                { additionalProperties: false },
              ),
              { default: {}, description: 'username → {Email, Password}' },
            ),
          },
          'Test login provider',
        ),
        TrustedClients: Type.Array(Type.String(), {
          default: [],
          description: 'Allowed return_to origins; https://*.example.com matches subdomains',
        }),
        TokenLifetime: int(0, 'Lifetime of login tokens in seconds; 0: no expiry'),
        Throttle: section(
          {
            MaxFailuresPerUsername: int(
              10,
              'Failed password logins per username within Window before 429; 0: no limit',
            ),
            MaxFailuresPerAddress: int(
              50,
              'Failed password logins per client address within Window before 429; 0: no limit',
            ),
            Window: int(300, 'Seconds over which failed logins are counted', 1),
          },
          'Throttling of failed password logins (users/authenticate, LDAP, PAM, test)',
        ),
        RemoteTokenRefresh: int(300, 'Seconds a validated remote token is trusted'),
      },
      'Login providers',
    ),
    Users: section(
      {
        NewUsersAreActive: bool(false, 'is_active of users created at login'),
        AnonymousUserToken: Type.String({
          default: '',
          pattern: `^$|${TOKEN_PATTERN}`,
          description: 'Anonymous token; "" disables it',
        }),
        AutoSetupNewUsers: bool(false, 'Run the setup procedure when a local user is created'),
        AutoSetupNewUsersWithVmUUID: Type.String({
          default: '',
          pattern: '^$|^[0-9a-z]{5}-2x53u-[0-9a-z]{15}$',
          description: 'Virtual machine of the login link when setup gets no vm_uuid',
        }),
        AutoSetupUsernameBlacklist: Type.Array(Type.String(), {
          default: ['git', 'root', 'svc', 'syslog'],
          description: 'Usernames never given automatically at login',
        }),
        SendUserSetupNotificationEmail: bool(false, 'Default of send_notification_email'),
        UserSetupMailText: str(
          'Your svc account has been set up. You can log in at ${url}\n',
          'Welcome email body (${full_name}, ${email}, ${username}, ${url}); "" disables it',
        ),
        UserNotifierEmailFrom: str('svc@example.com', 'From of the welcome email'),
        UserNotifierEmailBcc: Type.Array(Type.String(), {
          default: [],
          description: 'Bcc of the welcome email',
        }),
        AdminNotifierEmailFrom: str('svc@example.com', 'From of admin notices'),
        EmailSubjectPrefix: str('[SVC] ', 'Prefix of admin notice subjects'),
        NewUserNotificationRecipients: Type.Array(Type.String(), {
          default: [],
          description: 'Told of new invited users',
        }),
        NewInactiveUserNotificationRecipients: Type.Array(Type.String(), {
          default: [],
          description: 'Told of new users that are not invited',
        }),
        UserProfileNotificationAddress: str('', 'Told when a user first saves a profile'),
      },
      'Users',
    ),
    Mail: section(
      {
        SMTPServer: Type.String({
          default: '',
          pattern: '^$|^.+:[0-9]{1,5}$',
          description: 'host:port of an SMTP relay (no authentication); "" sends no mail',
        }),
      },
      'Outgoing mail',
    ),
    ManagementToken: Type.String({
      default: '',
      description: 'Bearer token of /_health/* and /metrics; "" disables them (404)',
    }),
    RemoteClusters: Type.Record(Type.String(), RemoteClusterSchema, {
      default: {},
      description: 'Remote clusters by id',
    }),
    Services: section(
      {
        Controller: service('Controller'),
        Websocket: service('Websocket'),
        WebDAV: service('WebDAV'),
        WebDAVDownload: service('WebDAVDownload'),
        Keepproxy: service('Keepproxy'),
        Workbench1: service('Workbench1'),
        Workbench2: service('Workbench2'),
      },
      "Public URLs of the cluster's parts, shown to clients in the public config",
    ),
  },
  { additionalProperties: false },
);

export const ConfigSchema = Type.Object(
  {
    Gateway: section(
      {
        Listen: str('127.0.0.1:8000', 'host:port of the public gateway'),
        HomeCluster: str('', 'The cluster the gateway serves; "" means the only one'),
        RemoteTimeout: int(60, 'Seconds a call to another cluster may take before 502', 1),
        ShutdownTimeout: int(10, 'Seconds in-flight requests may take to finish on SIGTERM'),
        AllowedHosts: Type.Array(Type.String({ minLength: 1 }), {
          default: [],
          description:
            'Host names (any port) URLs may be derived from when ExternalURL is ""; others get 421. [] means localhost, 127.0.0.1, [::1], the listen host and the machine\'s host name',
        }),
      },
      'The public gateway',
    ),
    Clusters: Type.Record(Type.String(), ClusterSchema, { description: 'Clusters by id' }),
  },
  { additionalProperties: false },
);

export type RemoteClusterConfig = Static<typeof RemoteClusterSchema>;
export type VolumeConfig = Static<typeof VolumeSchema>;
export type ClusterConfig = Static<typeof ClusterSchema> & { ClusterID: string };
export type Config = Omit<Static<typeof ConfigSchema>, 'Clusters'> & {
  Clusters: Record<string, ClusterConfig>;
};
export type { TSchema };
