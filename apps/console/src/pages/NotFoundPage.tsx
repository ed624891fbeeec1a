import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Stack align="flex-start">
      <Title order={1}>Page not found</Title>
      <Text>The console has no page at this address.</Text>
      <Button component={Link} to="/">
        Back to Home
      </Button>
    </Stack>
  );
}
