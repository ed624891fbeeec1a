import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { pathOf } from '../api/ids';

/** Search by name and properties; a pasted uuid or portable data hash opens that object. */
export function SearchBox() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const q = text.trim();
        if (q === '') return;
        const direct = pathOf(q);
        navigate(direct ?? `/search?q=${encodeURIComponent(q)}`);
      }}
    >
      <TextInput
        aria-label="Search, or paste a uuid or portable data hash"
        placeholder="Search, or paste a uuid / PDH"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
    </form>
  );
}
