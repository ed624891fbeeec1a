import { ActionIcon, Button, Menu } from '@mantine/core';
import {
  IconArrowsMove,
  IconDots,
  IconEdit,
  IconLock,
  IconLockOpen,
  IconShare,
  IconTag,
  IconTextCaption,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { typeOfUuid } from '../api/ids';
import { useApiMutation, useUpdate } from '../api/objects';
import type { Group } from '../api/types';
import { ConfirmDialog } from './ConfirmDialog';
import { FreezeDialog } from './FreezeDialog';
import { MoveDialog } from './MoveDialog';
import { NameDialog } from './NameDialog';
import { PropertiesDialog } from './PropertiesDialog';
import { SharingDialog } from './SharingDialog';

/** The fields the actions read; rows of a table carry fewer than an object's own page. */
export interface ActionTarget {
  uuid: string;
  name?: string | null;
  description?: string | null;
  properties?: Record<string, unknown>;
  group_class?: string | null;
  frozen_by_uuid?: string | null;
}

type Dialog =
  'rename' | 'describe' | 'properties' | 'move' | 'share' | 'freeze' | 'trash' | 'delete';

/**
 * What can be done to an object: rename, describe, properties, move, share, freeze, trash or
 * delete, each in a dialog. `compact` is the row menu of a table (fewer entries, an icon).
 */
export function ObjectActions({
  target,
  compact = false,
  onGone,
}: {
  target: ActionTarget;
  compact?: boolean;
  /** After trash or delete (e.g. leave the object's page). */
  onGone?: () => void;
}) {
  const [open, setOpen] = useState<Dialog | null>(null);
  const update = useUpdate();
  const type = typeOfUuid(target.uuid);
  const trash = useApiMutation<{ uuid: string }>((v) => `svc.${typeOfUuid(v.uuid)}.trash`);
  const remove = useApiMutation<{ uuid: string }>((v) => `svc.${typeOfUuid(v.uuid)}.delete`);
  const name = target.name ?? target.uuid;
  const isProject = type === 'groups' && target.group_class === 'project';
  const trashable = type === 'groups' || type === 'collections';
  const shareable = isProject || type === 'collections' || type === 'workflows';
  const save = (attributes: Record<string, unknown>) =>
    update.mutateAsync({ uuid: target.uuid, attributes });
  const close = () => setOpen(null);
  const item = (d: Dialog, label: string, icon: React.ReactNode, color?: string) => (
    <Menu.Item leftSection={icon} onClick={() => setOpen(d)} color={color}>
      {label}
    </Menu.Item>
  );
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          {compact ? (
            <ActionIcon variant="subtle" aria-label={`Actions for ${name}`}>
              <IconDots size={18} />
            </ActionIcon>
          ) : (
            <Button variant="default" rightSection={<IconDots size={16} aria-hidden />}>
              Actions
            </Button>
          )}
        </Menu.Target>
        <Menu.Dropdown>
          {item('rename', 'Rename', <IconEdit size={16} aria-hidden />)}
          {!compact &&
            item('describe', 'Edit description', <IconTextCaption size={16} aria-hidden />)}
          {!compact && item('properties', 'Edit properties', <IconTag size={16} aria-hidden />)}
          {item('move', 'Move to…', <IconArrowsMove size={16} aria-hidden />)}
          {shareable && item('share', 'Share…', <IconShare size={16} aria-hidden />)}
          {isProject &&
            !compact &&
            (target.frozen_by_uuid
              ? item('freeze', 'Unfreeze', <IconLockOpen size={16} aria-hidden />)
              : item('freeze', 'Freeze', <IconLock size={16} aria-hidden />))}
          <Menu.Divider />
          {trashable
            ? item('trash', 'Move to trash', <IconTrash size={16} aria-hidden />, 'red')
            : item('delete', 'Delete', <IconTrash size={16} aria-hidden />, 'red')}
        </Menu.Dropdown>
      </Menu>
      {open === 'rename' && (
        <NameDialog
          title={`Rename “${name}”`}
          submitLabel="Rename"
          initial={{ name: target.name ?? '' }}
          withDescription={false}
          onSubmit={(v) => save({ name: v.name })}
          onClose={close}
        />
      )}
      {open === 'describe' && (
        <NameDialog
          title={`Description of “${name}”`}
          submitLabel="Save"
          initial={{ description: target.description ?? '' }}
          withName={false}
          onSubmit={(v) => save({ description: v.description })}
          onClose={close}
        />
      )}
      {open === 'properties' && (
        <PropertiesDialog
          initial={target.properties ?? {}}
          onSubmit={(properties) => save({ properties })}
          onClose={close}
        />
      )}
      {open === 'move' && (
        <MoveDialog
          name={name}
          exclude={target.uuid}
          onSubmit={(owner) => save({ owner_uuid: owner })}
          onClose={close}
        />
      )}
      {open === 'share' && <SharingDialog uuid={target.uuid} name={name} onClose={close} />}
      {open === 'freeze' && (
        <FreezeDialog
          project={target as Group}
          onSubmit={(by) => save({ frozen_by_uuid: by })}
          onClose={close}
        />
      )}
      {open === 'trash' && (
        <ConfirmDialog
          title="Move to trash"
          text={`“${name}” goes to the trash, where it can be restored until it is deleted for good.`}
          confirmLabel="Move to trash"
          onConfirm={() => trash.mutateAsync({ uuid: target.uuid }).then(() => onGone?.())}
          onClose={close}
        />
      )}
      {open === 'delete' && (
        <ConfirmDialog
          title="Delete"
          text={`“${name}” is deleted for good.`}
          confirmLabel="Delete"
          onConfirm={() => remove.mutateAsync({ uuid: target.uuid }).then(() => onGone?.())}
          onClose={close}
        />
      )}
    </>
  );
}
