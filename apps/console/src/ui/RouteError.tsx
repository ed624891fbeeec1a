import { Button, Center, Stack, Title } from '@mantine/core';
import { useRouteError } from 'react-router';
import { ErrorBox } from './ErrorBox';

/** Anything a page throws while rendering: said plainly, with a way back. */
export function RouteError() {
  const error = useRouteError();
  return (
    <Center mih="60vh">
      <Stack maw={560}>
        <Title order={1}>This page failed</Title>
        <ErrorBox error={error} />
        <Button component="a" href="/">
          Back to Home
        </Button>
      </Stack>
    </Center>
  );
}
