import { Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { likePattern } from '../api/contents';
import { ContentsTable } from './project/ContentsTable';

/**
 * Everything readable whose name, description or properties contain the words searched for
 * (the `any` filter of the list language); a uuid or PDH typed in the box opens its object
 * directly instead.
 */
export default function SearchPage() {
  const [search] = useSearchParams();
  const q = (search.get('q') ?? '').trim();
  return (
    <Stack>
      <Title order={1}>Search</Title>
      <Text size="sm" c="dimmed">
        Results for “{q}”: names, descriptions and properties that contain it.
      </Text>
      <ContentsTable
        key={q}
        label="Search results"
        scope={{ filters: [['any', 'ilike', likePattern(q)]] }}
        emptyText="Nothing you can read matches."
      />
    </Stack>
  );
}
