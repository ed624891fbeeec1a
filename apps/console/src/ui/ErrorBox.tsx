import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isNotFound, messageOf } from '../api/errors';

/** A failed call, in words: the server's message, never a blank page. */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  return (
    <Alert
      color="red"
      icon={<IconAlertTriangle aria-hidden />}
      title={title ?? (isNotFound(error) ? 'Not found' : 'Something went wrong')}
      role="alert"
    >
      {isNotFound(error) ? 'This object does not exist, or you cannot read it.' : messageOf(error)}
    </Alert>
  );
}
