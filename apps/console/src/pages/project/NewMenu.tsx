import { Button, Menu } from '@mantine/core';
import { IconFiles, IconFolderPlus, IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import { NameDialog, type NameValues } from '../../dialogs/NameDialog';

/** New project, new collection (then its page, to upload), or a process run from here. */
export function NewMenu({ owner }: { owner: string }) {
  const { client } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState<'project' | 'collection' | null>(null);
  const create = async (v: NameValues) => {
    const attributes = { name: v.name, description: v.description || null, owner_uuid: owner };
    if (open === 'project') {
      const g = await client.api.groups.create({
        attributes: { ...attributes, group_class: 'project' },
      });
      navigate(`/projects/${g.uuid}`);
    } else {
      const c = await client.api.collections.create({ attributes });
      navigate(`/collections/${c.uuid}`);
    }
  };
  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <Button leftSection={<IconPlus size={16} aria-hidden />}>New</Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconFolderPlus size={16} aria-hidden />}
            onClick={() => setOpen('project')}
          >
            Project
          </Menu.Item>
          <Menu.Item
            leftSection={<IconFiles size={16} aria-hidden />}
            onClick={() => setOpen('collection')}
          >
            Collection
          </Menu.Item>
          <Menu.Item
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={() => navigate(`/run?owner=${owner}`)}
          >
            Run a process here
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {open && (
        <NameDialog
          title={open === 'project' ? 'New project' : 'New collection'}
          submitLabel="Create"
          onSubmit={create}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}
