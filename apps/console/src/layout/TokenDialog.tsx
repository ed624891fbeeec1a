import { Alert, Button, Code, CopyButton, Modal, Stack, Text } from '@mantine/core';
import { useSession } from '../api/session';

/**
 * The environment the command line and the clients read: `SVC_API_HOST` is `host[:port]`, and a
 * plain-HTTP gateway adds `SVC_API_SCHEME=http` (as inside containers).
 */
export function tokenLines(location: Pick<Location, 'protocol' | 'host'>, token: string): string {
  return [
    `export SVC_API_HOST=${location.host}`,
    ...(location.protocol === 'http:' ? ['export SVC_API_SCHEME=http'] : []),
    `export SVC_API_TOKEN=${token}`,
    '',
  ].join('\n');
}

/** The lines to paste into a shell to use this session's token with `svc` and the client. */
export function TokenDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { token } = useSession();
  const lines = tokenLines(window.location, token ?? '');
  return (
    <Modal opened={opened} onClose={onClose} title="API token" size="lg">
      <Stack>
        <Text size="sm">
          Paste these lines into a shell to use the command line (<Code>svc</Code>) or the client
          libraries as yourself:
        </Text>
        <Code
          block
          data-testid="token-lines"
          tabIndex={0}
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {lines}
        </Code>
        <CopyButton value={lines}>
          {({ copied, copy }) => (
            <Button onClick={copy} color={copied ? 'teal' : 'blue'}>
              {copied ? 'Copied' : 'Copy to clipboard'}
            </Button>
          )}
        </CopyButton>
        <Alert color="yellow" title="Keep it secret">
          Anyone with this token can act as you until it expires or you sign out.
        </Alert>
      </Stack>
    </Modal>
  );
}
